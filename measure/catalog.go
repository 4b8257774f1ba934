package measure

import (
	"fmt"
	"io"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/rules"
)

// CatalogReport compares the native skill catalog of a capture with the
// compact index and (with a current card profile) the tag directory, and
// replays each over follow-up requests.
type CatalogReport struct {
	Format       string `json:"format"`
	Skills       int    `json:"skills"`
	NativeBytes  int    `json:"native_bytes"`
	CompactBytes int    `json:"compact_bytes"`
	TagBytes     int    `json:"tag_bytes,omitempty"`
	// SearchToolBytes is the skill_search declaration, included in the
	// compact and tag figures.
	SearchToolBytes int `json:"search_tool_bytes"`
	// LoadBytes is the SKILL.md a session loads (the best match for the
	// latest human text), 0 when the file is not readable here.
	LoadBytes   int          `json:"load_bytes"`
	LoadSkill   string       `json:"load_skill,omitempty"`
	BrowseBytes int          `json:"browse_bytes,omitempty"`
	Requests    int          `json:"requests"`
	Replay      []ReplayPath `json:"replay"`
}

// ReplayPath is one discovery path over the replayed requests.
type ReplayPath struct {
	Path         string  `json:"path"`
	InitialBytes int     `json:"initial_bytes"`
	Cumulative   int     `json:"cumulative_bytes"`
	SavedPct     float64 `json:"saved_pct_vs_native"`
}

// catalogReport measures the capture's native catalog, when it has one.
func catalogReport(res *rules.Result, opts Options) *CatalogReport {
	c := res.Original
	// The comparison is about what the catalog rules do: without one in the
	// pipeline there is nothing to report (and nothing to pay for).
	var compactStep *rules.Step
	catalogRule := false
	for i, st := range res.Steps {
		if strings.HasPrefix(st.Rule.ID, "SO1") {
			catalogRule = true
			if st.Rule.ID == "SO101" && st.Applied {
				compactStep = &res.Steps[i]
			}
		}
	}
	if !catalogRule {
		return nil
	}
	cats := catalog.FromCapture(c)
	if len(cats) == 0 {
		return nil
	}
	cfg := opts.Config
	if cfg == nil {
		cfg = config.Default()
	}
	r := &CatalogReport{Format: capture.CatalogFormatPi, Requests: max(opts.Replay, 0) + 1}
	var groups [][]catalog.Skill
	seen := map[string]bool{}
	for _, n := range cfg.Catalog.Exclude {
		seen[n] = true
	}
	var all []catalog.Skill
	for _, e := range cats {
		r.NativeBytes += e.Segment.End - e.Segment.Start
		var g []catalog.Skill
		for _, sk := range e.Skills {
			if !seen[sk.Name] {
				seen[sk.Name] = true
				g = append(g, sk)
			}
		}
		groups = append(groups, g)
		all = append(all, g...)
	}
	r.Skills = len(all)
	tool := capture.RenderTool(c.Provider, catalog.SearchTool())
	r.SearchToolBytes = len(tool) + 1 // and its separating comma
	if compactStep != nil {
		// SO101 replaced the catalogs and declared skill_search: its step
		// already measured the compact form.
		r.CompactBytes = r.NativeBytes - (compactStep.BytesBefore - compactStep.BytesAfter)
	} else {
		for _, b := range catalog.CompactBlocks(groups, cfg.Catalog.BudgetChars) {
			r.CompactBytes += jsonLen(b)
		}
		r.CompactBytes += r.SearchToolBytes
	}

	var prof *catalog.Profile
	if cfg.Catalog.Profile != "" {
		if p, err := catalog.LoadProfileCached(cfg.Resolve(cfg.Catalog.Profile)); err == nil {
			prof = p
		}
	}
	snap := catalog.NewSnapshot(all, catalog.Options{Profile: prof})
	_, query := latestHuman(c)
	// The skill a session would load: the best match for its request.
	if res := snap.Search(query, 1); len(res) > 0 {
		r.LoadSkill = res[0].Name
		if data, err := snap.Load(res[0].Name); err == nil {
			r.LoadBytes = len(data)
		}
	}
	native := len(c.Body)
	rest := native - r.NativeBytes
	n := r.Requests
	add := func(path string, initial, extra int) {
		cum := n*(rest+initial) + (n-1)*(r.LoadBytes+extra)
		r.Replay = append(r.Replay, ReplayPath{Path: path, InitialBytes: rest + initial, Cumulative: cum})
	}
	add("native", r.NativeBytes, 0)
	add("compact", r.CompactBytes, 0)
	if snap.HasCards() && len(snap.Bucket(catalog.Unclassified)) < snap.Len() {
		dir := catalog.Directory(snap, cfg.Catalog.Critical, cfg.Catalog.Always)
		if catalog.DirectoryFits(dir, cfg.Catalog.BudgetChars) {
			r.TagBytes = jsonLen(dir) + r.SearchToolBytes
			// One browse: the first page of the loaded skill's tags.
			tags := []string{catalog.Unclassified}
			if i := snap.Lookup(r.LoadSkill); i >= 0 && len(snap.CardOf(i).Tags) > 0 {
				tags = snap.CardOf(i).Tags
			}
			if _, data, err := snap.Browse(catalog.BrowseRequest{Tags: tags, Query: query}); err == nil {
				r.BrowseBytes = len(data)
			}
			add("tag", r.TagBytes, r.BrowseBytes)
		}
	}
	base := r.Replay[0].Cumulative
	for i := range r.Replay {
		r.Replay[i].SavedPct = pct(base-r.Replay[i].Cumulative, base)
	}
	return r
}

// jsonLen is the length of s encoded inside a JSON string.
func jsonLen(s string) int { return len(capture.Quote(s)) - 2 }

// latestHuman returns the latest genuine human text of a capture.
func latestHuman(c *capture.Capture) (int, string) {
	segs := c.Segments()
	for k := len(segs) - 1; k >= 0; k-- {
		if segs[k].Prov == capture.ProvHuman {
			return k, c.SegmentText(segs[k])
		}
	}
	return -1, ""
}

// writeCatalogText renders the catalog report for a terminal.
func writeCatalogText(w io.Writer, r *CatalogReport) {
	if r == nil {
		return
	}
	fmt.Fprintf(w, "  catalog replay over %d requests (%d skills; load %s):\n", r.Requests, r.Skills, loadText(r))
	for _, p := range r.Replay {
		fmt.Fprintf(w, "    %-8s initial %12s  cumulative %14s  saved %5.1f %%\n", p.Path, Thousands(p.InitialBytes), Thousands(p.Cumulative), p.SavedPct)
	}
}

func loadText(r *CatalogReport) string {
	if r.LoadBytes == 0 {
		return "file not readable here, counted as 0"
	}
	return fmt.Sprintf("%s, %s bytes", r.LoadSkill, Thousands(r.LoadBytes))
}
