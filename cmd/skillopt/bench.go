package main

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/internal/synth"
	"github.com/skillopt/skillopt/rules"
	catalogrules "github.com/skillopt/skillopt/transform/catalog"
)

func benchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "bench",
		Usage: "run the catalog, output and tool benchmarks",
		Subcommands: []*cli.Command{
			benchCatalogCommand(e),
			benchOutputCommand(e),
			benchToolsCommand(e),
		},
	}
}

type benchCatalogRow struct {
	Skills             int     `json:"skills"`
	NativeBytes        int     `json:"native_bytes"`
	CompactBytes       int     `json:"compact_bytes"`
	TagBytes           int     `json:"tag_bytes"`
	CumulativeCompact  int     `json:"cumulative_compact_bytes"`
	CumulativeTag      int     `json:"cumulative_tag_bytes"`
	CumulativeSaving   float64 `json:"cumulative_saving_pct"`
	FivePageTag        int     `json:"five_page_tag_bytes"`
	FivePageSaving     float64 `json:"five_page_saving_pct"`
	Pagination         string  `json:"pagination"`
	PaginationComplete bool    `json:"pagination_complete"`
	SnapshotMS         float64 `json:"snapshot_ms"`
	WarmMS             float64 `json:"warm_ms"`
	PeakMiB            float64 `json:"peak_mib"`
}

func benchCatalogCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "catalog",
		Usage: "compare native, compact and tag-directory catalogs on synthetic skill sets",
		Description: "Builds deterministic synthetic catalogs (multi-part names, 80-400 character\n" +
			"descriptions, preassigned cards) in Pi's native format inside an Anthropic request and\n" +
			"reports per size: native, compact and tag initial catalog bytes (skill_search declaration\n" +
			"included), the cumulative bytes of one skill load plus one browse over --replay follow-up\n" +
			"requests (tag vs compact), the same with five browse pages, whether pagination reached\n" +
			"every card exactly once, snapshot time, warm request preparation (index the capture and\n" +
			"apply the catalog rule, snapshot cached) and peak Go heap. Cards are preassigned: this\n" +
			"measures transport, not card quality or model behaviour.\n\n" +
			"Formats: text, json.\n\nExamples:\n  skillopt bench catalog\n  skillopt bench catalog --sizes 355,2000 --format json",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "sizes", Value: "355,2000,10000", Usage: "comma-separated catalog sizes"},
			&cli.IntFlag{Name: "replay", Value: 8, Usage: "follow-up requests after the first"},
			&cli.Int64Flag{Name: "seed", Value: 1, Usage: "generator seed"},
		},
		Action: func(c *cli.Context) error {
			if err := e.setup(c, "text", "json"); err != nil {
				return err
			}
			var rows []benchCatalogRow
			for _, f := range strings.Split(c.String("sizes"), ",") {
				n, err := strconv.Atoi(strings.TrimSpace(f))
				if err != nil || n < 1 || n > 1_000_000 {
					return usageErr("bench catalog: bad size %q", f)
				}
				row, err := benchCatalog(n, c.Int64("seed"), c.Int("replay"))
				if err != nil {
					return err
				}
				rows = append(rows, row)
			}
			if e.format == "json" {
				return writeJSON(e, struct {
					Rows []benchCatalogRow `json:"rows"`
				}{rows})
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(tw, "skills\tnative B\tcompact B\ttag B\tcumulative compact\tcumulative tag\tsaving\t5-page saving\tpagination\tsnapshot ms\twarm ms\tpeak MiB\t")
			for _, r := range rows {
				fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%d\t%.1f %%\t%.1f %%\t%s\t%.2f\t%.2f\t%.1f\t\n", r.Skills, r.NativeBytes, r.CompactBytes, r.TagBytes, r.CumulativeCompact, r.CumulativeTag, r.CumulativeSaving, r.FivePageSaving, r.Pagination, r.SnapshotMS, r.WarmMS, r.PeakMiB)
			}
			return tw.Flush()
		},
	}
}

// benchCards assigns every synthetic skill a card: tags from words of its
// name that name a vocabulary topic, else a tag by position.
func benchCards(skills []catalog.Skill) *catalog.Profile {
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

func benchCatalog(n int, seed int64, replay int) (benchCatalogRow, error) {
	row := benchCatalogRow{Skills: n}
	// Peak heap: sampled after each stage, from a collected start.
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	peak := uint64(0)
	sample := func() {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		peak = max(peak, m.HeapAlloc)
	}
	syn := synth.Skills(n, seed)
	skills := make([]catalog.Skill, n)
	for i, s := range syn {
		skills[i] = catalog.Skill{Name: s.Name, Description: s.Description, Location: s.Location}
	}
	body, err := synth.Capture("anthropic", syn, 1)
	if err != nil {
		return row, err
	}
	prof := benchCards(skills)

	start := time.Now()
	snap := catalog.NewSnapshot(skills, catalog.Options{Profile: prof})
	row.SnapshotMS = ms(time.Since(start))
	sample()

	f, err := capture.Read("bench.json", body, capture.Options{})
	if err != nil {
		return row, err
	}
	capt := f.Captures[0]
	for _, s := range capt.Segments() {
		if s.Kind == capture.SecCatalog {
			row.NativeBytes += s.End - s.Start
		}
	}
	tool := len(capture.RenderTool(capture.Anthropic, catalog.SearchTool())) + 1
	for _, b := range catalog.CompactBlocks([][]catalog.Skill{snap.Skills}, 12000) {
		row.CompactBytes += len(capture.Quote(b)) - 2
	}
	row.CompactBytes += tool
	dir := catalog.Directory(snap, nil, nil)
	row.TagBytes = len(capture.Quote(dir)) - 2 + tool

	// One load (a synthetic SKILL.md of 2 KiB stands for the skill's file)
	// and browse pages of the first skill's tags, carried by every later
	// request.
	load := 2048
	tags := snap.CardOf(0).Tags
	var pages []int
	req := catalog.BrowseRequest{Tags: tags}
	for len(pages) < 5 {
		page, data, err := snap.Browse(req)
		if err != nil {
			return row, err
		}
		pages = append(pages, len(data))
		if page.Cursor == nil {
			break
		}
		req.Cursor = *page.Cursor
	}
	rest := len(body) - row.NativeBytes
	reqs := replay + 1
	row.CumulativeCompact = reqs*(rest+row.CompactBytes) + replay*load
	row.CumulativeTag = reqs*(rest+row.TagBytes) + replay*(load+pages[0])
	row.CumulativeSaving = pctOf(row.CumulativeCompact-row.CumulativeTag, row.CumulativeCompact)
	five := 0
	for _, p := range pages {
		five += p
	}
	row.FivePageTag = reqs*(rest+row.TagBytes) + replay*(load+five) + (len(pages)-1)*(rest+row.TagBytes)
	row.FivePageSaving = pctOf(row.CumulativeCompact-row.FivePageTag, row.CumulativeCompact)

	seen := map[string]int{}
	all := []string{catalog.Unclassified}
	for _, t := range catalog.Vocabulary {
		all = append(all, t.Name)
	}
	breq := catalog.BrowseRequest{Tags: all, PageSize: 50}
	for {
		page, _, err := snap.Browse(breq)
		if err != nil {
			return row, err
		}
		for _, c := range page.Cards {
			seen[c.Name]++
		}
		if page.Cursor == nil {
			break
		}
		breq.Cursor = *page.Cursor
	}
	once := 0
	for _, name := range snap.Names() {
		if seen[name] == 1 {
			once++
		}
	}
	sample()
	row.Pagination = fmt.Sprintf("%d/%d", once, snap.Len())
	row.PaginationComplete = once == snap.Len() && len(seen) == snap.Len()

	// Warm preparation: index the capture and apply SO101 (its blocks
	// depend only on the catalog, so nothing needs a snapshot).
	cfg := ruleset.Env(config.Default(), []*rules.Rule{catalogrules.CompactIndex})
	cfg.Validate = nil
	const rounds = 5
	// Round 0 is the first request (cold catalog cache), not timed.
	for i := 0; i <= rounds; i++ {
		if i == 1 {
			start = time.Now()
		}
		f, err := capture.Read("bench.json", body, capture.Options{})
		if err != nil {
			return row, err
		}
		if _, err := rules.Run(f.Captures[0], []*rules.Rule{catalogrules.CompactIndex}, cfg); err != nil {
			return row, err
		}
	}
	row.WarmMS = ms(time.Since(start) / rounds)
	sample()
	row.PeakMiB = float64(peak) / (1 << 20)
	return row, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func pctOf(part, whole int) float64 {
	if whole == 0 {
		return 0
	}
	return float64(int(float64(part)*1000/float64(whole)+0.5)) / 10
}
