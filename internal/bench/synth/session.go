package synth

import (
	"fmt"
	"strconv"
	"strings"
)

// A session is the provider-neutral conversation that Capture renders.
type session struct {
	system    string
	systemLen int // approximate length of the real system prompt
	user      string
	exchanges []exchange
}

// An exchange is one assistant turn that calls tools, the tool results and
// the user's follow-up message.
type exchange struct {
	thinking string
	text     string
	calls    []toolCall
	results  []toolResult
	followUp string
}

type toolCall struct {
	name string
	args any // one of the *Args types; encoded as a JSON object
}

type toolResult struct {
	name    string
	output  string
	isError bool
}

type readArgs struct {
	Path   string `json:"path"`
	Offset int    `json:"offset,omitempty"`
	Limit  int    `json:"limit,omitempty"`
}

type bashArgs struct {
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

type editArgs struct {
	Path  string      `json:"path"`
	Edits []editEntry `json:"edits"`
}

type editEntry struct {
	OldText string `json:"oldText"`
	NewText string `json:"newText"`
}

type writeArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

const firstUserMessage = "The nightly reconciliation in ledgerd started dropping entries after last week's batching change: the totals in the export no longer match the bank statement & finance noticed it first. Find out why, fix it, and add a regression test. Don't touch the SQL migrations."

var packages = []string{"ledger", "billing", "payout", "audit", "export", "settle"}

var followUps = []string{
	"Keep going. If you need the staging config it's under deploy/.",
	"That matches what on-call saw last night. Check whether the retry path has the same problem.",
	"Please don't change the public API of the package; other services import it.",
	"Looks right so far. Can you also look at the logs from the failed run?",
	"OK, make the change, but keep the diff small & reviewable.",
	"Run the tests again once you're done, including the race detector.",
	"Good. Now write a test that would have caught this.",
	"Before you finish, summarise what changed and why in two or three sentences.",
}

// newSession builds the conversation: the given system text, one user
// message and turns-1 further exchanges.
func newSession(system string, systemLen, turns int) session {
	s := session{system: system, systemLen: systemLen, user: firstUserMessage}
	for i := 0; i < turns-1; i++ {
		s.exchanges = append(s.exchanges, makeExchange(i))
	}
	return s
}

func makeExchange(i int) exchange {
	r := newRNG(int64(i)*7919 + 17)
	pkg := packages[(i/8)%len(packages)]
	dir := "internal/" + pkg
	file := dir + "/reconcile.go"
	var ex exchange
	switch i % 8 {
	case 0:
		cmd := "ls -la " + dir + " && git status --short && git log --oneline -8"
		ex.thinking = "Start by looking at the " + pkg + " package layout and the recent history to find the batching change."
		ex.text = "Let me look at the package and the recent commits first."
		ex.calls = []toolCall{{"bash", bashArgs{Command: cmd}}}
		ex.results = []toolResult{{"bash", lsOutput(r, dir), false}}
	case 1:
		ex.thinking = "The batching change touched reconcile.go. Read it and check how partial batches are flushed."
		ex.text = "Reading the reconciliation code."
		ex.calls = []toolCall{{"read", readArgs{Path: file}}}
		ex.results = []toolResult{{"read", goSource(r, pkg), false}}
	case 2:
		ex.thinking = "The flush condition looks off by one when the last batch is short. Run the package tests to confirm."
		ex.text = "Running the package tests to confirm."
		ex.calls = []toolCall{{"bash", bashArgs{Command: "go test ./" + dir + "/... 2>&1 | tail -60", Timeout: 300}}}
		ex.results = []toolResult{{"bash", goTestOutput(r, pkg), true}}
	case 3:
		ex.thinking = "Check every place that reads batchSize so the fix covers the retry path as well."
		ex.text = "Searching for other uses of the batch size."
		ex.calls = []toolCall{{"bash", bashArgs{Command: "rg -n 'batchSize|BatchSize' --type go ."}}}
		ex.results = []toolResult{{"bash", grepOutput(r, pkg), false}}
	case 4:
		ex.thinking = "Staging overrides the batch size; read the values file to see what production runs with."
		ex.text = "Checking the deployed configuration."
		ex.calls = []toolCall{{"read", readArgs{Path: "deploy/values-staging.yaml", Limit: 200}}}
		ex.results = []toolResult{{"read", yamlConfig(r, pkg), false}}
	case 5:
		ex.thinking = "Look at the failed run's logs to make sure the dropped entries are the trailing partial batch."
		ex.text = "Looking at the last failed run."
		ex.calls = []toolCall{{"bash", bashArgs{Command: "tail -n 40 logs/" + pkg + "d-2026-11-29.log"}}}
		ex.results = []toolResult{{"bash", logTail(r, pkg), false}}
	case 6:
		ex.thinking = "Fix the flush: the trailing batch must be written when len(pending) > 0, not only when it is full."
		ex.text = "Fixing the flush condition."
		ex.calls = []toolCall{{"edit", editArgs{Path: file, Edits: []editEntry{
			{OldText: "\tif len(pending) >= cfg.BatchSize && !done {\n\t\treturn flush(ctx, tx, pending)\n\t}", NewText: "\tif len(pending) >= cfg.BatchSize || (done && len(pending) > 0) {\n\t\treturn flush(ctx, tx, pending)\n\t}"},
			{OldText: "\t// TODO: handle the trailing batch", NewText: "\t// The trailing batch is flushed above once done is set."},
		}}}}
		ex.results = []toolResult{{"edit", "Applied 2 edits to " + file + ".", false}}
	case 7:
		content := testSource(r, pkg)
		ex.thinking = "Add a regression test with a batch size that does not divide the number of entries."
		ex.text = "Adding a regression test."
		ex.calls = []toolCall{{"write", writeArgs{Path: dir + "/reconcile_trailing_test.go", Content: content}}}
		ex.results = []toolResult{{"write", "Wrote " + strconv.Itoa(len(content)) + " bytes to " + dir + "/reconcile_trailing_test.go", false}}
	}
	ex.followUp = followUps[i%len(followUps)]
	return ex
}

var months = []string{"Sep", "Oct", "Nov"}

func lsOutput(r *rng, dir string) string {
	var b strings.Builder
	names := []string{"batch.go", "batch_test.go", "config.go", "doc.go", "errors.go", "export.go", "export_test.go",
		"flush.go", "metrics.go", "reconcile.go", "reconcile_test.go", "retry.go", "retry_test.go", "store.go",
		"store_pg.go", "store_pg_test.go", "testdata", "types.go", "validate.go", "validate_test.go", "window.go"}
	fmt.Fprintf(&b, "total %d\n", 80+r.intn(120))
	b.WriteString("drwxr-xr-x  4 dev dev  4096 Nov 28 17:02 .\ndrwxr-xr-x 14 dev dev  4096 Nov 21 09:40 ..\n")
	for _, n := range names {
		perm, size := "-rw-r--r--", 400+r.intn(14000)
		if n == "testdata" {
			perm, size = "drwxr-xr-x", 4096
		}
		fmt.Fprintf(&b, "%s  1 dev dev %5d %s %2d %02d:%02d %s\n", perm, size, months[r.intn(3)], 1+r.intn(28), r.intn(24), r.intn(60), n)
	}
	fmt.Fprintf(&b, " M %s/reconcile.go\n M %s/flush.go\n?? %s/testdata/short_batch.json\n", dir, dir, dir)
	subjects := []string{
		"batching: write entries in fixed-size batches",
		"reconcile: reuse the transaction across batches",
		"metrics: export batch latency histogram",
		"deps: bump pgx to v5.7",
		"export: include currency in CSV header",
		"retry: back off exponentially (max 30s)",
		"ci: run go vet & staticcheck",
		"docs: explain the <cutoff> window in README",
	}
	for _, s := range subjects {
		fmt.Fprintf(&b, "%07x %s\n", r.next()&0xfffffff, s)
	}
	return b.String()
}

func goSource(r *rng, pkg string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Package %s reconciles booked entries against bank statements.\npackage %s\n\n", pkg, pkg)
	b.WriteString("import (\n\t\"context\"\n\t\"errors\"\n\t\"fmt\"\n\t\"time\"\n\n\t\"github.com/jackc/pgx/v5\"\n)\n\n")
	b.WriteString("// ErrMismatch is returned when the booked total differs from the statement.\nvar ErrMismatch = errors.New(\"reconcile: totals do not match\")\n\n")
	b.WriteString("// Config controls batching.\ntype Config struct {\n\tBatchSize int           // entries per INSERT\n\tTimeout   time.Duration // per batch\n\tCutoff    time.Time     // entries after this are ignored\n}\n\n")
	b.WriteString("// Entry is one booked movement, in minor units.\ntype Entry struct {\n\tID       int64\n\tAccount  string\n\tAmount   int64\n\tCurrency string\n\tBooked   time.Time\n}\n\n")
	b.WriteString("// Reconcile streams entries from in and writes them in batches.\nfunc Reconcile(ctx context.Context, tx pgx.Tx, cfg Config, in <-chan Entry) (total int64, err error) {\n\tvar pending []Entry\n\tfor {\n\t\tvar e Entry\n\t\tvar done bool\n\t\tselect {\n\t\tcase <-ctx.Done():\n\t\t\treturn total, ctx.Err()\n\t\tcase v, ok := <-in:\n\t\t\te, done = v, !ok\n\t\t}\n\t\tif !done && e.Booked.After(cfg.Cutoff) {\n\t\t\tcontinue\n\t\t}\n\t\tif !done {\n\t\t\tpending = append(pending, e)\n\t\t\ttotal += e.Amount\n\t\t}\n\t\tif err := maybeFlush(ctx, tx, cfg, pending, done); err != nil {\n\t\t\treturn total, fmt.Errorf(\"reconcile: %w\", err)\n\t\t}\n\t\tif len(pending) >= cfg.BatchSize {\n\t\t\tpending = pending[:0]\n\t\t}\n\t\tif done {\n\t\t\treturn total, nil\n\t\t}\n\t}\n}\n\n")
	b.WriteString("func maybeFlush(ctx context.Context, tx pgx.Tx, cfg Config, pending []Entry, done bool) error {\n\tif len(pending) >= cfg.BatchSize && !done {\n\t\treturn flush(ctx, tx, pending)\n\t}\n\t// TODO: handle the trailing batch\n\treturn nil\n}\n\n")
	helpers := []string{"sumByCurrency", "groupByAccount", "latestBooking", "validateAmounts", "splitByDay"}
	for _, h := range helpers {
		lim := 2 + r.intn(9)
		fmt.Fprintf(&b, "// %s is a helper used by the export path (limit %d).\nfunc %s(entries []Entry) map[string]int64 {\n\tout := make(map[string]int64, len(entries))\n\tfor i := range entries {\n\t\te := &entries[i]\n\t\tif e.Amount == 0 || len(e.Account) < %d {\n\t\t\tcontinue\n\t\t}\n\t\tout[e.Currency] += e.Amount\n\t}\n\treturn out\n}\n\n", h, lim, h, lim)
	}
	return b.String()
}

func goTestOutput(r *rng, pkg string) string {
	var b strings.Builder
	cases := []string{"empty", "single_entry", "exact_batch", "two_batches", "partial_batch", "after_cutoff", "mixed_currency", "cancelled_ctx"}
	for _, c := range cases {
		fmt.Fprintf(&b, "=== RUN   TestReconcile/%s\n", c)
	}
	for _, c := range cases {
		if c == "partial_batch" || c == "mixed_currency" {
			fmt.Fprintf(&b, "--- FAIL: TestReconcile/%s (0.00s)\n", c)
			fmt.Fprintf(&b, "    reconcile_test.go:%d: Reconcile() total = %d, want %d\n", 80+r.intn(60), 1000+r.intn(9000), 10000+r.intn(9000))
			fmt.Fprintf(&b, "    reconcile_test.go:%d: rows written = %d, want %d (batch size %d)\n", 80+r.intn(60), 6, 7, 3)
			continue
		}
		fmt.Fprintf(&b, "    --- PASS: TestReconcile/%s (0.0%ds)\n", c, r.intn(10))
	}
	b.WriteString("--- FAIL: TestReconcile (0.02s)\n")
	for _, t := range []string{"TestBatchSplit", "TestFlushTimeout", "TestRetryBackoff", "TestValidateAmounts", "TestExportCSV"} {
		fmt.Fprintf(&b, "=== RUN   %s\n--- PASS: %s (0.%02ds)\n", t, t, r.intn(100))
	}
	b.WriteString("=== RUN   FuzzSplit\n=== RUN   FuzzSplit/seed#0\n--- PASS: FuzzSplit (0.00s)\n")
	fmt.Fprintf(&b, "FAIL\nFAIL\tgithub.com/acme/ledgerd/internal/%s\t0.%03ds\n", pkg, r.intn(1000))
	fmt.Fprintf(&b, "ok  \tgithub.com/acme/ledgerd/internal/%s/pgstore\t1.%03ds\n", pkg, r.intn(1000))
	b.WriteString("FAIL\n\nCommand exited with code 1")
	return b.String()
}

func grepOutput(r *rng, pkg string) string {
	var b strings.Builder
	lines := []string{
		"\tBatchSize int           // entries per INSERT",
		"\t\tif len(pending) >= cfg.BatchSize {",
		"\tif len(pending) >= cfg.BatchSize && !done {",
		"\tbatchSize := cfg.BatchSize",
		"\tif batchSize <= 0 {",
		"\t\tbatchSize = defaultBatchSize",
		"const defaultBatchSize = 500",
		"\tfor start := 0; start < len(entries); start += batchSize {",
		"\t\tend := min(start+batchSize, len(entries))",
		"\t\tBatchSize: 3,",
		"\t\t{name: \"partial_batch\", batchSize: 3, entries: 7},",
		"\tfs.IntVar(&cfg.BatchSize, \"batch-size\", 500, \"entries per INSERT (>0)\")",
		"\tif cfg.BatchSize > maxBatch {",
		"\t\treturn fmt.Errorf(\"batch size %d > %d\", cfg.BatchSize, maxBatch)",
		"\t\"batch_size\": cfg.BatchSize,",
	}
	files := []string{"reconcile.go", "batch.go", "config.go", "retry.go", "reconcile_test.go", "export.go"}
	for k := 0; k < 34; k++ {
		fmt.Fprintf(&b, "internal/%s/%s:%d:%s\n", pkg, files[r.intn(len(files))], 10+r.intn(300), lines[r.intn(len(lines))])
	}
	fmt.Fprintf(&b, "cmd/%sd/main.go:%d:%s", pkg, 40+r.intn(80), lines[11])
	return b.String()
}

func yamlConfig(r *rng, pkg string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Staging overrides for %sd. Values here win over values.yaml.\nreplicaCount: %d\n\nimage:\n  repository: registry.internal/acme/%sd\n  tag: \"2026.11.%d\"\n  pullPolicy: IfNotPresent\n\n", pkg, 1+r.intn(4), pkg, 1+r.intn(28))
	fmt.Fprintf(&b, "%s:\n  batchSize: %d\n  timeout: %ds\n  cutoff: \"23:59:59Z\"\n  retry:\n    maxAttempts: %d\n    backoff: exponential\n    maxDelay: 30s\n\n", pkg, 3+r.intn(500), 5+r.intn(55), 3+r.intn(5))
	b.WriteString("database:\n  host: pg-staging.internal\n  port: 5432\n  name: ledger\n  sslmode: verify-full\n  pool:\n    min: 2\n    max: 20\n\n")
	b.WriteString("resources:\n  requests:\n    cpu: 250m\n    memory: 256Mi\n  limits:\n    cpu: \"1\"\n    memory: 512Mi\n\n")
	b.WriteString("env:\n")
	for _, kv := range [][2]string{{"LOG_LEVEL", "debug"}, {"LOG_FORMAT", "json"}, {"EXPORT_BUCKET", "s3://acme-staging-exports"}, {"STATEMENT_SOURCE", "sftp://bank-sim.internal/in"}, {"OTEL_EXPORTER_OTLP_ENDPOINT", "http://otel-collector:4317"}, {"FEATURE_FLAGS", "batch_v2,currency_split"}} {
		fmt.Fprintf(&b, "  - name: %s\n    value: %q\n", kv[0], kv[1])
	}
	b.WriteString("\ncronjobs:\n")
	for _, job := range []string{"reconcile", "export", "cleanup"} {
		fmt.Fprintf(&b, "  %s:\n    schedule: \"%d %d * * *\"\n    concurrencyPolicy: Forbid\n    successfulJobsHistoryLimit: 3\n    args: [\"--job=%s\", \"--dry-run=false\"]\n", job, r.intn(60), r.intn(6), job)
	}
	b.WriteString("\nalerts:\n  - name: ReconcileMismatch\n    expr: ledger_reconcile_mismatch_total > 0\n    for: 10m\n    severity: page\n  - name: ReconcileSlow\n    expr: histogram_quantile(0.95, rate(ledger_batch_seconds_bucket[5m])) > 2\n    for: 15m\n    severity: ticket\n")
	return b.String()
}

func logTail(r *rng, pkg string) string {
	var b strings.Builder
	msgs := []struct{ level, msg, extra string }{
		{"info", "batch flushed", `"rows":%d`},
		{"info", "batch flushed", `"rows":%d`},
		{"debug", "entry skipped after cutoff", `"entry_id":%d`},
		{"warn", "slow batch", `"elapsed_ms":%d,"threshold_ms":2000`},
		{"info", "statement loaded", `"lines":%d`},
		{"error", "totals differ", `"booked":%d,"statement":129934,"diff":"<nonzero>"`},
		{"debug", "retrying batch", `"attempt":%d,"err":"timeout: context deadline exceeded"`},
	}
	for k := 0; k < 40; k++ {
		m := msgs[r.intn(len(msgs))]
		fmt.Fprintf(&b, `{"level":"%s","ts":"2026-11-29T23:%02d:%02d.%03dZ","svc":"%sd","msg":"%s",`+m.extra+"}\n",
			m.level, 10+k/10, r.intn(60), r.intn(1000), pkg, m.msg, r.intn(5000))
	}
	b.WriteString(`{"level":"fatal","ts":"2026-11-29T23:59:58.004Z","msg":"reconcile failed: totals do not match & 4 entries unaccounted for","exit":1}`)
	return b.String()
}

func testSource(r *rng, pkg string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\nimport (\n\t\"context\"\n\t\"testing\"\n\t\"time\"\n)\n\n", pkg)
	b.WriteString("// TestReconcileTrailingBatch checks that a short final batch is written.\nfunc TestReconcileTrailingBatch(t *testing.T) {\n\tcases := []struct {\n\t\tname      string\n\t\tbatchSize int\n\t\tentries   int\n\t}{\n")
	for k := 0; k < 6; k++ {
		bs := 2 + r.intn(7)
		n := bs*(1+r.intn(4)) + 1 + r.intn(bs-1)
		fmt.Fprintf(&b, "\t\t{\"size_%d_of_%d\", %d, %d},\n", n, bs, bs, n)
	}
	b.WriteString("\t}\n\tfor _, tc := range cases {\n\t\tt.Run(tc.name, func(t *testing.T) {\n\t\t\ttx := newFakeTx(t)\n\t\t\tin := make(chan Entry, tc.entries)\n\t\t\tvar want int64\n\t\t\tfor i := 0; i < tc.entries; i++ {\n\t\t\t\tin <- Entry{ID: int64(i), Account: \"acct-1\", Amount: int64(i + 1), Currency: \"EUR\", Booked: time.Unix(0, 0)}\n\t\t\t\twant += int64(i + 1)\n\t\t\t}\n\t\t\tclose(in)\n\t\t\tcfg := Config{BatchSize: tc.batchSize, Cutoff: time.Unix(1<<40, 0)}\n\t\t\tgot, err := Reconcile(context.Background(), tx, cfg, in)\n\t\t\tif err != nil {\n\t\t\t\tt.Fatal(err)\n\t\t\t}\n\t\t\tif got != want || tx.rows() != tc.entries {\n\t\t\t\tt.Errorf(\"total = %d, rows = %d; want %d, %d\", got, tx.rows(), want, tc.entries)\n\t\t\t}\n\t\t})\n\t}\n}\n")
	return b.String()
}
