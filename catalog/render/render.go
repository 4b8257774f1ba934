// Package render writes the results of the catalog commands for people
// and programs: a snapshot's summary, search results, a browse page and a
// resolved agent loadout, as text (names and texts from skill trees
// escaped) and in their JSON shapes.
package render

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/rules"
)

// Options say how the text output looks.
type Options struct {
	// Color paints what needs attention with ANSI colours.
	Color bool
	// Quiet leaves out what is not the result itself (tag counts).
	Quiet bool
}

// paint wraps s in red when colour is on.
func (o Options) red(s string) string {
	if !o.Color {
		return s
	}
	return "\x1b[31m" + s + "\x1b[0m"
}

// Build is the summary of a catalog snapshot, in its JSON shape.
type Build struct {
	Source       string `json:"source"`
	Skills       int    `json:"skills"`
	Excluded     int    `json:"excluded"`
	Fingerprint  string `json:"fingerprint"`
	Cards        bool   `json:"cards"`
	Unclassified int    `json:"unclassified"`
	Tags         int    `json:"tags"`
	// SnapshotMS is set only when asked for: the default output depends
	// on the skills alone.
	SnapshotMS *float64 `json:"snapshot_ms,omitempty"`
}

// BuildOf summarises snap, read from source; took, when not nil, is how
// long building it took.
func BuildOf(snap *catalog.Snapshot, source string, took *time.Duration) Build {
	b := Build{Source: source, Skills: snap.Len(), Excluded: snap.Excluded, Fingerprint: snap.Fingerprint, Cards: snap.HasCards(),
		Unclassified: len(snap.Bucket(catalog.Unclassified)), Tags: len(snap.TagCounts())}
	if took != nil {
		ms := float64(took.Microseconds()) / 1000
		b.SnapshotMS = &ms
	}
	return b
}

// BuildText writes a snapshot's summary for a terminal.
func BuildText(w io.Writer, b Build) error {
	fmt.Fprintf(w, "skills: %d eligible, %d excluded (from %s)\n", b.Skills, b.Excluded, escape.Text(b.Source))
	if b.Cards {
		fmt.Fprintf(w, "cards: %d tags in use, %d unclassified\n", b.Tags, b.Unclassified)
	} else {
		fmt.Fprintln(w, "cards: no profile (every skill unclassified)")
	}
	fmt.Fprintf(w, "fingerprint: %s\n", b.Fingerprint)
	if b.SnapshotMS != nil {
		fmt.Fprintf(w, "snapshot: %.1f ms\n", *b.SnapshotMS)
	}
	return nil
}

// SearchJSON is search results in their JSON shape.
func SearchJSON(res []catalog.Result) any {
	if res == nil {
		res = []catalog.Result{}
	}
	return struct {
		Results []catalog.Result `json:"results"`
	}{res}
}

// SearchText writes search results for a terminal: rank, name, why it
// matched and the first sentence of the description.
func SearchText(w io.Writer, res []catalog.Result) error {
	if len(res) == 0 {
		_, err := fmt.Fprintln(w, "no skill matches")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, r := range res {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", i+1, escape.Text(r.Name), r.Match, escape.Text(catalog.Intent(r.Description)))
	}
	return tw.Flush()
}

// TagList lists the tag vocabulary for help, two columns wide.
func TagList() string {
	var b strings.Builder
	tags := append(append([]catalog.Tag(nil), catalog.Vocabulary...), catalog.Tag{Name: catalog.Unclassified, Doc: "skills without a current card"})
	for _, t := range tags {
		fmt.Fprintf(&b, "  %-17s %s\n", t.Name, t.Doc)
	}
	return b.String()
}

// BrowseEmpty explains an empty page: no profile, so the tags asked for
// hold nothing; or nothing has the tags or matches the query. "" when
// the page has cards.
func BrowseEmpty(snap *catalog.Snapshot, page *catalog.Page, tags []string, query string) string {
	if len(page.Cards) > 0 {
		return ""
	}
	onlyUnclassified := len(tags) > 0
	for _, t := range tags {
		onlyUnclassified = onlyUnclassified && strings.TrimSpace(t) == catalog.Unclassified
	}
	switch {
	case snap.Len() == 0:
		return "the catalog holds no skills"
	case !snap.HasCards() && len(tags) > 0 && !onlyUnclassified:
		return "no card profile is in use, so every skill is in the tag \"unclassified\" and other tags are empty: " +
			"`skillopt catalog init --skills DIR` makes cards; then set catalog.profile or pass --profile"
	case len(tags) > 0:
		return fmt.Sprintf("no skill has the tags %s", strings.Join(tags, ", "))
	case query != "":
		return fmt.Sprintf("no skill matches %q", query)
	}
	return "nothing to show"
}

// BrowseText writes a browse page for people: a line per card, the next
// page's cursor and (unless quiet) the tag counts; or why, when the page
// is empty (see BrowseEmpty).
func BrowseText(w io.Writer, page *catalog.Page, why string, o Options) error {
	if why != "" {
		_, err := fmt.Fprintln(w, escape.Text(why))
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range page.Cards {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", escape.Text(c.Name), textList(c.Tags), escape.Text(c.Card))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if page.Cursor != nil {
		fmt.Fprintf(w, "more: --cursor %s\n", escape.Text(*page.Cursor))
	}
	if len(page.Facets) > 0 && !o.Quiet {
		type facet struct {
			tag string
			n   int
		}
		var fs []facet
		for t, n := range page.Facets {
			fs = append(fs, facet{t, n})
		}
		sort.Slice(fs, func(i, j int) bool {
			if fs[i].n != fs[j].n {
				return fs[i].n > fs[j].n
			}
			return fs[i].tag < fs[j].tag
		})
		var parts []string
		for _, f := range fs {
			parts = append(parts, fmt.Sprintf("%s %d", escape.Text(f.tag), f.n))
		}
		fmt.Fprintf(w, "tags: %s\n", strings.Join(parts, ", "))
	}
	return nil
}

// loadoutDiag is one diagnostic in the JSON output, fields in the
// documented order.
type loadoutDiag struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Message  string `json:"message"`
}

// LoadoutJSON is a resolved loadout and its diagnostics in their JSON
// shape.
func LoadoutJSON(lo *catalog.Loadout, diags []rules.Diagnostic) any {
	out := struct {
		Agent       string                 `json:"agent"`
		Definition  *catalog.AgentLookup   `json:"definition,omitempty"`
		Valid       bool                   `json:"valid"`
		Mode        string                 `json:"mode"`
		Resolved    bool                   `json:"resolved"`
		Unchanged   bool                   `json:"unchanged"`
		Skills      []catalog.LoadoutEntry `json:"skills"`
		Pending     []string               `json:"pending"`
		Diagnostics []loadoutDiag          `json:"diagnostics"`
	}{lo.Agent.Path, lo.Definition, lo.Agent.Valid(), lo.Mode, lo.Resolved, lo.Unchanged, lo.Entries, lo.Pending, []loadoutDiag{}}
	if out.Skills == nil {
		out.Skills = []catalog.LoadoutEntry{}
	}
	if out.Pending == nil {
		out.Pending = []string{}
	}
	for _, d := range diags {
		out.Diagnostics = append(out.Diagnostics, loadoutDiag{d.Rule, d.Severity.String(), d.File, d.Line, d.Column, d.Message})
	}
	return out
}

// LoadoutText writes a resolved loadout like an /agent-skills report.
func LoadoutText(w io.Writer, lo *catalog.Loadout, diags []rules.Diagnostic, o Options) error {
	fmt.Fprintf(w, "agent: %s\n", escape.Text(lo.Agent.Path))
	if d := lo.Definition; d != nil && d.Scope != "file" {
		line := d.Scope
		if !lo.Agent.Valid() {
			line += ", invalid"
		}
		if d.Shadowed != "" {
			line += ", shadows " + escape.Text(d.Shadowed) + " (not merged)"
		}
		if d.Ignored != "" {
			line += ", " + escape.Text(d.Ignored) + " ignored: the project is not trusted"
		}
		fmt.Fprintf(w, "definition: %s\n", line)
	}
	mode := lo.Mode
	if lo.Agent.Valid() {
		mode += fmt.Sprintf(" (inheritSkills: %t)", lo.Agent.Inherit)
	}
	fmt.Fprintf(w, "mode: %s\n", mode)
	errs := 0
	for _, d := range diags {
		if d.Severity == rules.Error {
			errs++
		}
	}
	switch {
	case !lo.Resolved:
		fmt.Fprintf(w, "status: %s (%s)\n", o.red("unresolved"), plural(errs, "error"))
	case len(lo.Pending) > 0:
		fmt.Fprintf(w, "status: resolved, %d pending on the ambient skills\n", len(lo.Pending))
	default:
		fmt.Fprintf(w, "status: resolved\n")
	}
	if lo.Resolved {
		loadoutSkills(w, lo)
	}
	if len(diags) > 0 {
		fmt.Fprintln(w, "diagnostics:")
		for _, d := range diags {
			fmt.Fprintf(w, "  %s:%d:%d: %s %s: %s\n", escape.Text(d.File), d.Line, d.Column, d.Rule, d.Severity, escape.Text(d.Message))
		}
	}
	return nil
}

// loadoutSkills lists the skills a resolved loadout advertises.
func loadoutSkills(w io.Writer, lo *catalog.Loadout) {
	switch {
	case lo.Unchanged && len(lo.Entries) == 0:
		fmt.Fprintln(w, "skills: the incoming (ambient) catalogue, unchanged")
		return
	case len(lo.Entries) == 0 && len(lo.Pending) == 0:
		fmt.Fprintln(w, "skills: none")
		return
	}
	fmt.Fprintln(w, "skills:")
	width := 0
	for _, en := range lo.Entries {
		width = max(width, utf8.RuneCountInString(escape.Text(en.Name)))
	}
	for _, en := range lo.Entries {
		note := en.From
		if en.Disabled {
			note += ", disabled: not advertised"
		}
		fmt.Fprintf(w, "  %s  %s  (%s)\n", padRight(escape.Text(en.Name), width), escape.Text(en.Path), escape.Text(note))
	}
	for _, p := range lo.Pending {
		fmt.Fprintf(w, "  %s  (pending: from the ambient skills at run time)\n", padRight(escape.Text(p), width))
	}
}

// textList joins names from inputs with ", ", each escaped for one line
// of text.
func textList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = escape.Text(n)
	}
	return strings.Join(out, ", ")
}

// padRight fills s with spaces to width columns (counted in code points).
func padRight(s string, width int) string {
	return s + strings.Repeat(" ", max(width-utf8.RuneCountInString(s), 0))
}

// plural is n and word, plural unless n is 1: "3 errors".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
