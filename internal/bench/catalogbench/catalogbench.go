// Package catalogbench compares the native skill catalog, the compact
// index (SO101) and the tag directory (SO102) on synthetic skill sets: the
// bytes of the first request, of a replayed session, pagination, time and
// peak memory.
package catalogbench

import (
	"crypto/sha256"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/skillopt/skillopt/transform/catalogrules"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/internal/bench"
	"github.com/skillopt/skillopt/internal/bench/synth"
	"github.com/skillopt/skillopt/rules"
)

// LoadBytes stands for one loaded skill: a synthetic SKILL.md of 2 KiB.
const LoadBytes = 2048

// BrowsePages is how many pages the long browse reads.
const BrowsePages = 5

// Row is the result for one catalog size.
type Row struct {
	Skills int `json:"skills"`
	// Source is the capture a row of --captures was read from (absent
	// for synthetic data); Provider the request's provider.
	Source   string `json:"source,omitempty"`
	Provider string `json:"provider"`
	// NativeBytes, CompactBytes and TagBytes are the catalog's bytes in
	// the first request: Pi's native catalog, the compact index and the tag
	// directory (the last two with their skill_search declaration).
	// OtherBytes is the rest of the request.
	NativeBytes  int `json:"native_bytes"`
	CompactBytes int `json:"compact_bytes"`
	TagBytes     int `json:"tag_bytes"`
	OtherBytes   int `json:"other_bytes"`
	// Replayed sessions (see Run): cumulative request bytes.
	CompactRequests   int     `json:"compact_requests"`
	TagRequests       int     `json:"tag_requests"`
	CumulativeCompact int     `json:"cumulative_compact_bytes"`
	CumulativeTag     int     `json:"cumulative_tag_bytes"`
	CumulativeSaving  float64 `json:"cumulative_saving_pct"`
	// BrowsedPages is how many pages the long browse read: BrowsePages,
	// or fewer when the tags have fewer cards.
	BrowsedPages     int     `json:"browsed_pages"`
	ManyPageRequests int     `json:"many_page_requests"`
	ManyPageTag      int     `json:"many_page_tag_bytes"`
	ManyPageSaving   float64 `json:"many_page_saving_pct"`
	// Pagination is "seen once/skills" when browsing every tag;
	// PaginatedOnce the skills seen exactly once.
	Pagination         string  `json:"pagination"`
	PaginatedOnce      int     `json:"paginated_once"`
	PaginationComplete bool    `json:"pagination_complete"`
	SnapshotMS         float64 `json:"snapshot_ms"`
	// WarmMS is a later request of the session through `transform --rules
	// SO101` (see Transformer), WarmPrefetchMS the same through SO101 +
	// SO103: the catalog cache filled by an earlier request, a different
	// latest human text on every request; medians (see timeRequests).
	// WarmRequests is how many were timed, PrefetchedRequests how many of
	// the SO101 + SO103 ones got an overlay.
	WarmMS             float64 `json:"warm_ms"`
	WarmPrefetchMS     float64 `json:"warm_prefetch_ms"`
	WarmRequests       int     `json:"warm_requests"`
	PrefetchedRequests int     `json:"prefetched_requests"`
	// RequestAllocBytes and RequestAllocs are what one such SO101 + SO103
	// request allocates in all (reading, the rules, the guards, the
	// rebuilt file), mean of the timed ones. PrefetchAllocBytes is what
	// SO103's Run alone allocates on one.
	RequestAllocBytes  int64 `json:"request_alloc_bytes"`
	RequestAllocs      int64 `json:"request_allocs"`
	PrefetchAllocBytes int64 `json:"prefetch_alloc_bytes"`
	// FirstRequestMS is the first SO101 + SO103 request of the catalog in
	// a running process: the catalog cache empty, the process's one-time
	// work (the registry, the provider's schema) done before; median of
	// firstRounds. FreshProcessFirstMS is the same request as the first
	// thing a fresh skillopt process does, the one-time work included
	// (timed inside the child, from the file's bytes in memory to the
	// output's); median of firstRounds processes, null when not measured.
	FirstRequestMS      float64  `json:"first_request_ms"`
	FreshProcessFirstMS *float64 `json:"fresh_process_first_ms"`
	// SystemBytes is the request's system prompt, catalog included, and
	// SystemSHA256MS one SHA-256 pass over it (median); WarmToSHA256 is
	// WarmPrefetchMS / SystemSHA256MS.
	SystemBytes    int     `json:"system_bytes"`
	SystemSHA256MS float64 `json:"system_sha256_ms"`
	WarmToSHA256   float64 `json:"warm_to_sha256"`
	// PeakMiB is the process's peak resident set size while this size
	// ran, read as PeakSource says (see bench.Peak).
	PeakMiB    float64 `json:"peak_mib"`
	PeakSource string  `json:"peak_source"`
}

// Input is the data of one row: the skills of a catalog, a request
// carrying them in Pi's native catalog (Name, of Provider), and a card for
// each. Source is the file it was read from ("" for synthetic data).
type Input struct {
	Skills   []catalog.Skill
	Body     []byte
	Profile  *catalog.Profile
	Name     string
	Provider capture.Provider
	Source   string
}

// NewInput generates n skills from seed and a request shaped like a
// coding agent's (see realisticBody): HostContextBytes of project context
// in the system prompt besides the catalog, four tool declarations and
// HistoryTurns-1 earlier exchanges.
func NewInput(n int, seed int64) (*Input, error) {
	syn := synth.Skills(n, seed)
	skills := make([]catalog.Skill, n)
	for i, s := range syn {
		skills[i] = catalog.Skill{Name: s.Name, Description: s.Description, Location: s.Location}
	}
	body, err := synth.Capture("anthropic", syn, HistoryTurns)
	if err != nil {
		return nil, err
	}
	if body, err = realisticBody(body, seed); err != nil {
		return nil, err
	}
	return &Input{Skills: skills, Body: body, Profile: Cards(skills), Name: "bench.json", Provider: capture.Anthropic}, nil
}

// Cards gives every skill a card: tags from the words of its name that
// name a vocabulary topic, else a tag by position. Cards are preassigned:
// the benchmark measures transport, not card quality.
func Cards(skills []catalog.Skill) *catalog.Profile {
	prof := catalog.NewProfile()
	for i, sk := range skills {
		var tags []string
		for _, part := range strings.Split(sk.Name, "-") {
			if catalog.IsTag(part) && len(tags) < 3 {
				tags = append(tags, part)
			}
		}
		if len(tags) == 0 {
			tags = []string{catalog.Vocabulary[i%(len(catalog.Vocabulary)-1)].Name}
		}
		card := catalog.Intent(sk.Description)
		if card == "" {
			card = sk.Name
		}
		prof.Cards[sk.Name] = catalog.ProfileCard{Card: card, Tags: tags, SourceSHA256: catalog.SourceHash(sk.Description)}
	}
	return prof
}

// Run measures one catalog size with the default configuration.
//
// Sessions are replayed as their request bytes: every request carries the
// whole request so far. With the compact index the model loads a skill
// (LoadBytes) from the first answer on: 1 + replay requests, replay of them
// carrying the load. With the tag directory it browses one page first: one
// more request, 2 + replay in all, every one after the first carrying the
// page. The long browse reads up to BrowsePages pages before loading, each
// page one more request carried by every later one.
func Run(n int, seed int64, replay int) (Row, error) {
	return RunWith(n, Options{Seed: seed, Replay: replay})
}

// Options are the settings of a run.
type Options struct {
	Seed   int64
	Replay int
	// Fresh, when set, runs the first request of the capture file at path
	// in a fresh process and returns its time in milliseconds (see
	// FirstInProcess).
	Fresh func(path string, provider capture.Provider) (float64, error)
}

// RunWith measures one synthetic catalog size.
func RunWith(n int, opts Options) (Row, error) {
	reset := bench.StartPeak()
	in, err := NewInput(n, opts.Seed)
	if err != nil {
		return Row{Skills: n}, err
	}
	return runInput(in, opts, reset)
}

// RunInput measures one input, such as a capture of --captures.
func RunInput(in *Input, opts Options) (Row, error) {
	return runInput(in, opts, bench.StartPeak())
}

// queryCount is how many distinct latest human texts a row draws; the
// timed requests use fewer.
const queryCount = 2048

func runInput(in *Input, opts Options, reset bool) (Row, error) {
	row := Row{Skills: len(in.Skills), Source: in.Source, Provider: string(in.Provider)}
	v, err := NewVariants(in.Name, in.Body, in.Provider, in.Skills, queryCount, opts.Seed)
	if err != nil {
		return row, err
	}
	if err := checkWork(v); err != nil {
		return row, err
	}
	if err := timeVariants(&row, v, in, opts); err != nil {
		return row, err
	}
	start := time.Now()
	snap := catalog.NewSnapshot(in.Skills, catalog.Options{Profile: in.Profile})
	row.SnapshotMS = bench.Millis(time.Since(start))
	if err := catalogSizes(&row, in, snap); err != nil {
		return row, err
	}
	if err := browseSessions(&row, snap, opts.Replay); err != nil {
		return row, err
	}
	once, distinct, err := paginate(snap)
	if err != nil {
		return row, err
	}
	row.PaginatedOnce = once
	row.Pagination = fmt.Sprintf("%d/%d", once, snap.Len())
	row.PaginationComplete = once == snap.Len() && distinct == snap.Len()

	peak := bench.ReadPeak(reset)
	row.PeakMiB = float64(peak.KiB) / 1024
	row.PeakSource = peak.Source
	return row, nil
}

// timeVariants times the transformed requests and the SHA-256 of the
// system text they are compared with.
func timeVariants(row *Row, v *Variants, in *Input, opts Options) error {
	// Requests first, on a collected heap: the browsing below leaves much
	// garbage behind at large sizes. The first request comes before the
	// warm ones, which find the catalog cache filled.
	runtime.GC()
	var err error
	if row.FirstRequestMS, err = firstRequest(v); err != nil {
		return err
	}
	if opts.Fresh != nil {
		ms, err := freshFirst(v, opts.Fresh)
		if err != nil {
			return err
		}
		row.FreshProcessFirstMS = &ms
	}
	compact, err := warm(v, compactRules)
	if err != nil {
		return err
	}
	row.WarmMS = compact.medianMS
	pre, err := warm(v, prefetchRules)
	if err != nil {
		return err
	}
	row.WarmPrefetchMS, row.WarmRequests, row.PrefetchedRequests = pre.medianMS, pre.count, pre.prefetched
	row.RequestAllocBytes, row.RequestAllocs = pre.allocBytes, pre.allocs
	if row.PrefetchAllocBytes, err = prefetchAlloc(v); err != nil {
		return err
	}
	if row.SystemSHA256MS, row.SystemBytes, err = systemSHA256(in.Name, in.Body, in.Provider); err != nil {
		return err
	}
	if row.SystemSHA256MS > 0 {
		row.WarmToSHA256 = float64(int(row.WarmPrefetchMS/row.SystemSHA256MS*10+0.5)) / 10
	}
	return nil
}

// catalogSizes measures the native catalog of the input and the compact
// index and tag directory that would replace it.
func catalogSizes(row *Row, in *Input, snap *catalog.Snapshot) error {
	f, err := capture.Read(in.Name, in.Body, capture.Options{Provider: in.Provider})
	if err != nil {
		return err
	}
	for _, s := range f.Captures[0].Segments() {
		if s.Kind == capture.SecCatalog {
			row.NativeBytes += s.End - s.Start
		}
	}
	row.OtherBytes = len(in.Body) - row.NativeBytes
	cs := catalogrules.Defaults
	// The skill_search declaration and the comma before it.
	tool := len(capture.RenderTool(in.Provider, catalogrules.SearchTool())) + 1
	for _, b := range catalog.CompactBlocks([][]catalog.Skill{snap.Skills}, cs.BudgetChars) {
		row.CompactBytes += len(capture.Quote(b)) - 2
	}
	row.CompactBytes += tool
	row.TagBytes = len(capture.Quote(catalog.Directory(snap, cs.Critical, cs.Always))) - 2 + tool
	return nil
}

// browseSessions compares the cumulative bytes of a compact-index session
// with tag-directory sessions that browse one page or several.
func browseSessions(row *Row, snap *catalog.Snapshot, replay int) error {
	// Browse pages of the first skill's tags, the way the model would look
	// for it.
	var pages []int
	req := catalog.BrowseRequest{Tags: snap.CardOf(0).Tags}
	for len(pages) < BrowsePages {
		page, data, err := snap.Browse(req)
		if err != nil {
			return err
		}
		pages = append(pages, len(data))
		if page.Cursor == nil {
			break
		}
		req.Cursor = *page.Cursor
	}
	compactReq := row.OtherBytes + row.CompactBytes
	tagReq := row.OtherBytes + row.TagBytes
	row.CompactRequests = 1 + replay
	row.CumulativeCompact = row.CompactRequests*compactReq + replay*LoadBytes
	row.TagRequests, row.CumulativeTag = tagSession(tagReq, pages[:1], replay)
	row.CumulativeSaving = bench.Pct(row.CumulativeCompact-row.CumulativeTag, row.CumulativeCompact)
	row.BrowsedPages = len(pages)
	row.ManyPageRequests, row.ManyPageTag = tagSession(tagReq, pages, replay)
	row.ManyPageSaving = bench.Pct(row.CumulativeCompact-row.ManyPageTag, row.CumulativeCompact)
	return nil
}

// tagSession returns the requests and cumulative bytes of a tag-directory
// session that browses pages (their response bytes) and then loads a skill
// followed by replay requests: request 1 browses, request 1+k carries pages
// 1..k, and from request 2+len(pages) on the load as well.
func tagSession(request int, pages []int, replay int) (requests, bytes int) {
	requests = 1 + len(pages) + replay
	bytes = requests*request + replay*LoadBytes
	for k, p := range pages {
		bytes += p * (requests - 1 - k)
	}
	return requests, bytes
}

// paginate browses every tag 50 cards a page and counts the skills seen
// exactly once and the distinct names seen.
func paginate(snap *catalog.Snapshot) (once, distinct int, err error) {
	seen := map[string]int{}
	all := []string{catalog.Unclassified}
	for _, t := range catalog.Vocabulary {
		all = append(all, t.Name)
	}
	req := catalog.BrowseRequest{Tags: all, PageSize: 50}
	for {
		page, _, err := snap.Browse(req)
		if err != nil {
			return 0, 0, err
		}
		for _, c := range page.Cards {
			seen[c.Name]++
		}
		if page.Cursor == nil {
			break
		}
		req.Cursor = *page.Cursor
	}
	for _, name := range snap.Names() {
		if seen[name] == 1 {
			once++
		}
	}
	return once, len(seen), nil
}

// warmRounds is the least number of timed warm requests; a small catalog
// gets more (see timeRequests).
const warmRounds = 11

// firstRounds is how many first requests are timed, in this process and
// in fresh ones (the median counts).
const firstRounds = 3

// The pipelines timed: the compact index alone, and with the prefetch
// overlay.
var (
	compactRules  = []string{"SO101"}
	prefetchRules = []string{"SO101", "SO103"}
)

// requestTimes are the figures of a run of requests.
type requestTimes struct {
	medianMS   float64
	count      int
	prefetched int   // requests whose SO103 step was applied
	allocBytes int64 // mean per request
	allocs     int64 // mean per request
}

// timeRequests times requests of in through t, each with the next latest
// human text: at least warmRounds, more for a small catalog (about half a
// second in all, at most 500). The body of each is built before its clock
// starts; the allocation counted is the whole request's.
func timeRequests(t *Transformer, v *Variants) (requestTimes, error) {
	var ts []time.Duration
	var total time.Duration
	var rt requestTimes
	var m runtime.MemStats
	var bytes, count uint64
	for len(ts) < warmRounds || len(ts) < 500 && total < 500*time.Millisecond {
		body := v.Next()
		runtime.ReadMemStats(&m)
		b0, c0 := m.TotalAlloc, m.Mallocs
		start := time.Now()
		_, res, err := t.Transform(v.Name, body)
		d := time.Since(start)
		runtime.ReadMemStats(&m)
		if err != nil {
			return rt, err
		}
		bytes += m.TotalAlloc - b0
		count += m.Mallocs - c0
		ts = append(ts, d)
		total += d
		if prefetched(res) {
			rt.prefetched++
		}
	}
	slices.Sort(ts)
	rt.medianMS = bench.Millis(ts[len(ts)/2])
	rt.count = len(ts)
	rt.allocBytes = int64(bytes) / int64(len(ts))
	rt.allocs = int64(count) / int64(len(ts))
	return rt, nil
}

// prefetched reports whether SO103 was applied to the first request.
func prefetched(res []*rules.Result) bool {
	for _, s := range res[0].Steps {
		if s.Rule.ID == "SO103" && s.Applied {
			return true
		}
	}
	return false
}

// warm returns the figures of later requests of the session through
// rules (the catalog cache filled by a first, untimed request), and
// checks that SO101 changes the request.
func warm(v *Variants, rules []string) (requestTimes, error) {
	t, err := NewTransformer(rules, v.Provider)
	if err != nil {
		return requestTimes{}, err
	}
	_, res, err := t.Transform(v.Name, v.Next())
	if err != nil {
		return requestTimes{}, err
	}
	if !res[0].Changed() {
		return requestTimes{}, fmt.Errorf("%s: SO101 left the catalog unchanged", v.Name)
	}
	return timeRequests(t, v)
}

// checkWork returns ErrUnchanged when SO103 does not apply to a request
// of v (SO103 needs SO101, so both applied otherwise).
func checkWork(v *Variants) error {
	t, err := NewTransformer(prefetchRules, v.Provider)
	if err != nil {
		return err
	}
	_, res, err := t.Transform(v.Name, v.Next())
	catalogrules.DropCache()
	if err != nil {
		return err
	}
	if !prefetched(res) {
		return ErrUnchanged
	}
	return nil
}

// prime does the process's one-time work (the registry, the schema of
// the provider compiled) with a request of v, then drops the catalog
// cache it filled.
func prime(v *Variants) error {
	t, err := NewTransformer(prefetchRules, v.Provider)
	if err != nil {
		return err
	}
	_, _, err = t.Transform(v.Name, v.Next())
	catalogrules.DropCache()
	return err
}

// firstRequest times the first SO101 + SO103 request of a catalog in this
// process: the median of firstRounds, the catalog cache dropped before
// each and the process's own one-time work done before.
func firstRequest(v *Variants) (float64, error) {
	if err := prime(v); err != nil {
		return 0, err
	}
	t, err := NewTransformer(prefetchRules, v.Provider)
	if err != nil {
		return 0, err
	}
	ts := make([]time.Duration, firstRounds)
	for i := range ts {
		body := v.Next()
		catalogrules.DropCache()
		runtime.GC()
		start := time.Now()
		if _, _, err := t.Transform(v.Name, body); err != nil {
			return 0, err
		}
		ts[i] = time.Since(start)
	}
	return median(ts), nil
}

// prefetchAlloc returns the mean bytes SO103's Run allocates on a warm
// request that SO101 compacted (the rule alone, without the engine), the
// first text of v, so that the figure does not depend on how many
// requests were timed before.
func prefetchAlloc(v *Variants) (int64, error) {
	t, err := NewTransformer(prefetchRules, v.Provider)
	if err != nil {
		return 0, err
	}
	body := v.At(0)
	if _, _, err := t.Transform(v.Name, body); err != nil { // fills the cache
		return 0, err
	}
	f, err := capture.Read(v.Name, body, capture.Options{Provider: v.Provider})
	if err != nil {
		return 0, err
	}
	orig := f.Captures[0]
	compact, err := NewTransformer(compactRules, v.Provider)
	if err != nil {
		return 0, err
	}
	res, err := rules.Run(orig, compact.Pipeline, t.Env)
	if err != nil {
		return 0, err
	}
	var so103 *rules.Rule
	for _, r := range t.Pipeline {
		if r.ID == "SO103" {
			so103 = r
		}
	}
	if so103 == nil {
		return 0, fmt.Errorf("SO103 is not in the pipeline")
	}
	pass := func() error {
		return so103.Run(&rules.Pass{Rule: so103, Options: t.Env.OptionsOf(so103.Options), Capture: res.Final, Original: orig, Env: t.Env})
	}
	if err := pass(); err != nil {
		return 0, err
	}
	// ReadMemStats counts every allocation (runtime/metrics leaves out
	// small ones still cached per processor).
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	before := m.TotalAlloc
	for range warmRounds {
		if err := pass(); err != nil {
			return 0, err
		}
	}
	runtime.ReadMemStats(&m)
	return int64(m.TotalAlloc-before) / warmRounds, nil
}

// systemSHA256 returns the median time of one SHA-256 pass over the
// request's system prompt (the bytes from its first system or catalog
// segment to its last) and that prompt's length.
func systemSHA256(name string, body []byte, provider capture.Provider) (float64, int, error) {
	f, err := capture.Read(name, body, capture.Options{Provider: provider})
	if err != nil {
		return 0, 0, err
	}
	start, end := -1, -1
	for _, s := range f.Captures[0].Segments() {
		if s.Kind == capture.SecSystem || s.Kind == capture.SecCatalog {
			if start < 0 {
				start = s.Start
			}
			end = s.End
		}
	}
	if start < 0 {
		return 0, 0, nil
	}
	sys := f.Captures[0].Body[start:end]
	var ts []time.Duration
	var total time.Duration
	for len(ts) < warmRounds || len(ts) < 500 && total < 100*time.Millisecond {
		t0 := time.Now()
		sha256.Sum256(sys)
		d := time.Since(t0)
		ts = append(ts, d)
		total += d
	}
	return median(ts), len(sys), nil
}
