package catalogrules

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/rules"
)

// detail is the catalog section of measure's report, given by whichever
// catalog rule comes first in the pipeline.
func detail(in rules.DetailInput) (*rules.Detail, error) {
	for _, st := range in.Result.Steps {
		if strings.HasPrefix(st.Rule.ID, "SO1") {
			if st.Rule != in.Rule {
				return nil, nil
			}
			break
		}
	}
	r := report(in.Result, in.Env, in.Replay)
	if r == nil {
		return nil, nil
	}
	data, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	var text, md strings.Builder
	writeText(&text, r)
	writeMarkdown(&md, r)
	return &rules.Detail{Key: "catalog", JSON: data, Text: text.String(), Markdown: md.String()}, nil
}

// Report compares the native skill catalog of a capture with the
// compact index and (with a current card profile) the tag directory, and
// replays each over follow-up requests.
type Report struct {
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

// report measures the capture's native catalog, when it has one.
func report(res *rules.Result, env *rules.Env, replay int) *Report {
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
	set := SettingsOf(env)
	r := &Report{Format: capture.CatalogFormatPi, Requests: max(replay, 0) + 1}
	var groups [][]catalog.Skill
	seen := map[string]bool{}
	for _, n := range set.Exclude {
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
		for _, b := range catalog.CompactBlocks(groups, set.BudgetChars) {
			r.CompactBytes += jsonLen(b)
		}
		r.CompactBytes += r.SearchToolBytes
	}

	var prof *catalog.Profile
	if set.Profile != "" {
		if p, err := catalog.LoadProfileCached(env.Resolve(set.Profile)); err == nil {
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
		dir := catalog.Directory(snap, set.Critical, set.Always)
		if catalog.DirectoryFits(dir, set.BudgetChars) {
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
		r.Replay[i].SavedPct = percent(base-r.Replay[i].Cumulative, base)
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

// writeText renders the catalog report for a terminal.
func writeText(w io.Writer, r *Report) {
	fmt.Fprintf(w, "  catalog replay over %d requests (%d skills; load %s):\n", r.Requests, r.Skills, loadText(r))
	for _, p := range r.Replay {
		fmt.Fprintf(w, "    %-8s initial %12s  cumulative %14s  saved %5.1f %%\n", p.Path, measure.Thousands(p.InitialBytes), measure.Thousands(p.Cumulative), p.SavedPct)
	}
}

func loadText(r *Report) string {
	if r.LoadBytes == 0 {
		return "file not readable here, counted as 0"
	}
	return fmt.Sprintf("%s, %s bytes", r.LoadSkill, measure.Thousands(r.LoadBytes))
}

// writeMarkdown renders the catalog report as a Markdown list.
func writeMarkdown(w io.Writer, r *Report) {
	fmt.Fprintf(w, "- catalog replay over %d requests (%d skills; load %s):", r.Requests, r.Skills, loadText(r))
	for i, p := range r.Replay {
		sep := ";"
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(w, "%s %s %s bytes (%.1f %% saved)", sep, p.Path, measure.Thousands(p.Cumulative), p.SavedPct)
	}
	fmt.Fprintln(w)
}

// percent is part of whole in percent, rounded to two decimals, as measure
// reports shares.
func percent(part, whole int) float64 {
	if whole == 0 {
		return 0
	}
	return float64(int(float64(part)*10000/float64(whole)+0.5)) / 100
}
