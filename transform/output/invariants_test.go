package output

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// verifyOne runs one invariant over a result and returns its messages.
func verifyOne(t *testing.T, r *rules.Rule, res *rules.Result, env *rules.Env) []string {
	t.Helper()
	diags, err := rules.Verify(res, []*rules.Rule{r}, env)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range diags {
		out = append(out, d.Message)
	}
	return out
}

// tamper returns res with its final body edited by replacing old with new.
func tamper(t *testing.T, res *rules.Result, old, new string) *rules.Result {
	t.Helper()
	body := bytes.Replace(res.Final.Body, []byte(old), []byte(new), 1)
	if bytes.Equal(body, res.Final.Body) {
		t.Fatalf("nothing to tamper: %q not in the body", old)
	}
	final, err := res.Final.WithBody(body)
	if err != nil {
		t.Fatal(err)
	}
	cp := *res
	cp.Final = final
	return &cp
}

var outputInvariants = []*rules.Rule{evidenceKept, handlesResolve, noArchivePath, smaller, idempotent, columnarRoundTrip}

func TestOutputInvariantsHoldOnRealResults(t *testing.T) {
	cases := [][2]string{
		{"SO301", "anthropic-go-test-error"}, {"SO301", "crlf"}, {"SO301", "pi-bash-and-nested"}, {"SO302", "numbers-unicode-missing-keys"},
		{"SO302", "evidence-in-values-unchanged"}, {"SO303", "three-copies"}, {"SO304", "memory-preview"}, {"SO305", "anthropic-traces"},
	}
	for _, tc := range cases {
		env, _ := outEnv(t, nil)
		res := outRun(t, outCase(t, tc[0], tc[1]), env, smart, columnar, dedup, overflow, sanitize, headTail)
		if !res.Changed() {
			t.Errorf("%s/%s: nothing changed", tc[0], tc[1])
		}
		for _, r := range outputInvariants {
			if msgs := verifyOne(t, r, res, env); len(msgs) > 0 {
				t.Errorf("%s/%s: %s: %v", tc[0], tc[1], r.ID, msgs)
			}
		}
	}
}

func TestEvidenceKeptCatchesLoss(t *testing.T) {
	env, _ := outEnv(t, nil)
	res := outRun(t, outCase(t, "SO301", "anthropic-go-test-error"), env, smart)
	bad := tamper(t, res, `--- FAIL: TestParseErrors (0.00s)\n`, "")
	if msgs := verifyOne(t, evidenceKept, bad, env); len(msgs) != 1 || !strings.Contains(msgs[0], "TestParseErrors") {
		t.Fatalf("got %v", msgs)
	}
	// JSON that keeps its evidence as it was written (SO302 leaves it to
	// SO301): a changed evidence token is caught too.
	res = outRun(t, outCase(t, "SO302", "evidence-in-values-unchanged"), env, columnar, smart)
	bad = tamper(t, res, "connection refused by db-0", "connection accepted by db-0")
	if msgs := verifyOne(t, evidenceKept, bad, env); len(msgs) != 1 {
		t.Fatalf("json: got %v", msgs)
	}
}

func TestHandlesResolveCatchesMissingAndDifferent(t *testing.T) {
	env, cfg := outEnv(t, nil)
	res := outRun(t, outCase(t, "SO301", "anthropic-go-test-error"), env, smart)
	h := labels(res.Final)[0].handle
	// The original was archived from something else than the result.
	other := outCase(t, "SO301", "anthropic-go-test-error")
	otherBody := bytes.Replace(other.Body, []byte("TestParseErrors"), []byte("TestParseFailure"), 1)
	orig, _ := other.WithBody(otherBody)
	cp := *res
	cp.Original = orig
	if msgs := verifyOne(t, handlesResolve, &cp, env); len(msgs) != 1 || !strings.Contains(msgs[0], "differ") {
		t.Fatalf("different original: %v", msgs)
	}
	// Damaged object.
	sum, _ := archive.ParseHandle(h)
	var path string
	filepath.Walk(cfg.archiveDir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && strings.HasSuffix(strings.ReplaceAll(p, string(filepath.Separator), ""), hexOf(sum)[2:]) {
			path = p
		}
		return nil
	})
	os.Chmod(path, 0o600)
	os.WriteFile(path, []byte("damaged"), 0o600)
	if msgs := verifyOne(t, handlesResolve, res, env); len(msgs) != 1 || !strings.Contains(msgs[0], "damaged") {
		t.Fatalf("damaged: %v", msgs)
	}
	// Missing object.
	os.Remove(path)
	if msgs := verifyOne(t, handlesResolve, res, env); len(msgs) != 1 || !strings.Contains(msgs[0], "not in the archive") {
		t.Fatalf("missing: %v", msgs)
	}
}

func hexOf(sum [32]byte) string {
	const digits = "0123456789abcdef"
	b := make([]byte, 64)
	for i, c := range sum {
		b[2*i], b[2*i+1] = digits[c>>4], digits[c&15]
	}
	return string(b)
}

func TestNoArchivePathCatchesLeak(t *testing.T) {
	env, cfg := outEnv(t, nil)
	res := outRun(t, outCase(t, "SO301", "anthropic-go-test-error"), env, smart)
	if msgs := verifyOne(t, noArchivePath, res, env); len(msgs) != 0 {
		t.Fatalf("clean result flagged: %v", msgs)
	}
	bad := tamper(t, res, "returns it exactly", "is at "+filepath.ToSlash(cfg.archiveDir)+"/sha256")
	if msgs := verifyOne(t, noArchivePath, bad, env); len(msgs) == 0 {
		t.Fatal("leak not caught")
	}
	// Commands that write nothing run with an in-memory archive over the
	// configured store: its folder is still the one that must not leak.
	mem := *env
	mem.Archive = archive.NewMemory(archive.Open(cfg.archiveDir))
	if msgs := verifyOne(t, noArchivePath, bad, &mem); len(msgs) == 0 {
		t.Fatal("leak not caught with an in-memory archive")
	}
}

// TestNoArchivePathOneWordDir: with --archive arch, the word "arch" in a
// tool output or in the recovery text is not the archive's location; its
// absolute path still is.
func TestNoArchivePathOneWordDir(t *testing.T) {
	env, _ := outEnv(t, nil)
	env.Archive = archive.NewMemory(archive.Open("arch")) // nothing is written
	res := outRun(t, outCase(t, "SO301", "anthropic-go-test-error"), env, smart)
	if !reduced(res) {
		t.Fatal("nothing reduced")
	}
	for _, text := range []string{"the arch of the bridge", "search archives", "arch", "march/arch.go"} {
		if msgs := verifyOne(t, noArchivePath, tamper(t, res, "returns it exactly", text), env); len(msgs) != 0 {
			t.Errorf("%q flagged: %v", text, msgs)
		}
	}
	abs, err := filepath.Abs("arch")
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"is at " + filepath.ToSlash(abs), "in " + filepath.ToSlash(abs) + "/sha256/ab"} {
		if msgs := verifyOne(t, noArchivePath, tamper(t, res, "returns it exactly", text), env); len(msgs) == 0 {
			t.Errorf("%q not flagged", text)
		}
	}
}

func TestOutputSmallerCatchesGrowth(t *testing.T) {
	env, _ := outEnv(t, nil)
	res := outRun(t, outCase(t, "SO301", "anthropic-go-test-error"), env, smart)
	cp := *res
	cp.Steps = append([]rules.Step{}, res.Steps...)
	cp.Steps[0].Changes = append([]rules.Change{{Rule: "SO301", Pointer: "/messages/0/content", BytesBefore: 10, BytesAfter: 12}}, cp.Steps[0].Changes...)
	cp.Steps = append(cp.Steps, rules.Step{Rule: columnar, Applied: true, BytesBefore: 100, BytesAfter: 100})
	if msgs := verifyOne(t, smaller, &cp, env); len(msgs) != 2 {
		t.Fatalf("got %v", msgs)
	}
	if msgs := verifyOne(t, smaller, res, env); len(msgs) != 0 {
		t.Fatalf("clean result flagged: %v", msgs)
	}
}

func TestOutputIdempotentCatchesSecondPass(t *testing.T) {
	env, cfg := outEnv(t, nil)
	c := outCase(t, "SO301", "anthropic-go-test-error")
	res := outRun(t, c, env, smart)
	// A result claiming SO301 ran but left its work undone.
	cp := *res
	cp.Final = c
	if msgs := verifyOne(t, idempotent, &cp, env); len(msgs) != 1 || !strings.Contains(msgs[0], "second pass") {
		t.Fatalf("got %v", msgs)
	}
	// A handle naming a text that already carried one.
	inner := res.Final.Doc.Str(toolResults(res.Final)[0].texts[0])
	h2, err := archive.Open(cfg.archiveDir).Put([]byte(inner))
	if err != nil {
		t.Fatal(err)
	}
	h1 := labels(res.Final)[0].handle
	bad := tamper(t, res, h1, h2)
	if msgs := verifyOne(t, idempotent, bad, env); len(msgs) == 0 || !strings.Contains(strings.Join(msgs, " "), "already carries handle") {
		t.Fatalf("handle of a handle: %v", msgs)
	}
}

func TestColumnarRoundTripCatchesChange(t *testing.T) {
	env, _ := outEnv(t, nil)
	res := outRun(t, outCase(t, "SO302", "numbers-unicode-missing-keys"), env, columnar)
	if msgs := verifyOne(t, columnarRoundTrip, res, env); len(msgs) != 0 {
		t.Fatalf("clean result flagged: %v", msgs)
	}
	bad := tamper(t, res, "12345678901234567890123", "12345678901234567890124")
	if msgs := verifyOne(t, columnarRoundTrip, bad, env); len(msgs) != 1 {
		t.Fatalf("got %v", msgs)
	}
	bad = tamper(t, res, `\"rows\":[[`, `\"rows\":[[1,`)
	if msgs := verifyOne(t, columnarRoundTrip, bad, env); len(msgs) != 1 || !strings.Contains(msgs[0], "does not decode") {
		t.Fatalf("got %v", msgs)
	}
}

func TestInvariantsIgnoreOtherRules(t *testing.T) {
	// A capture without recovery texts gives the invariants nothing to say,
	// even when a human typed something handle-like.
	env, _ := outEnv(t, nil)
	c := outParse(t, `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"what is `+archive.HandleOf([]byte("x"))+`?"}]}`)
	res := &rules.Result{Original: c, Final: c}
	for _, r := range outputInvariants {
		if msgs := verifyOne(t, r, res, env); len(msgs) != 0 {
			t.Errorf("%s: %v", r.ID, msgs)
		}
	}
	_ = capture.Anthropic
}

// TestNameCountsArePathCounts: counting names in one pass gives what
// pathCount gives for each.
func TestNameCountsArePathCounts(t *testing.T) {
	names := []string{"f850a3cf", "arch", "a.b", "x"}
	bodies := []string{
		`{"p":"/tmp/arch/f850a3cf","q":"search archive arch. arch.x x x.x"}`,
		`f850a3cf f850a3cf.f850a3cf.. a.b a.bc ab.a.b. x`,
		``, `x`, `arch`, `..arch..`, "é arch é",
	}
	for _, b := range bodies {
		got := nameCounts([]byte(b), names)
		for _, n := range names {
			if want := pathCount([]byte(b), n); got[n] != want {
				t.Errorf("%q in %q: %d, want %d", n, b, got[n], want)
			}
		}
	}
}
