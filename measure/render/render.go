// Package render writes measure's results for people and programs: the
// report of the captures as text, Markdown or JSON, and the report of one
// conversation or of several as text, Markdown, JSON or one
// self-contained HTML page with its charts. It computes nothing: the
// figures are measure's, written with measure/units, and text from the
// captures is escaped for each sink (internal/escape).
package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/measure/units"
	"github.com/skillopt/skillopt/rules"
)

// WriteJSON writes the report as one indented JSON object.
func WriteJSON(w io.Writer, rep *measure.Report) error { return writeJSON(w, rep) }

// writeJSON writes v as indented JSON, without HTML escaping.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// afterLine is the size after the pipeline and, with a price, what the
// cost column is computed at.
func afterLine(c *measure.CaptureReport) string {
	after := fmt.Sprintf("%s bytes", units.Thousands(c.After.Bytes))
	if counting(c) {
		after += fmt.Sprintf(", %s tokens", units.Thousands(c.After.Tokens))
		if !c.Tokens.Exact {
			after += " (estimated)"
		}
	}
	if p := c.After.InputUSDPerMTok; p != nil {
		after += fmt.Sprintf("; cost saved per request at %s's input price, %s per million tokens", c.Model, units.USD(*p))
	}
	return after
}

// costCell is an amount saved in a savings table: "-" when it is not
// known, "0" when nothing was saved.
func costCell(usd *float64) string {
	switch {
	case usd == nil:
		return "-"
	case *usd == 0:
		return "0"
	}
	return units.USD(*usd)
}

func share(part, whole int) string { return units.PercentText(part, whole) }

// barWidth is the width of a full (100 %) share bar.
const barWidth = 20

// bar draws part of whole as a bar of up to barWidth characters, in
// eighths of a character; a share too small to draw shows as one eighth.
func bar(part, whole int) string {
	if whole <= 0 || part <= 0 {
		return ""
	}
	eighths := (part*barWidth*8 + whole/2) / whole
	eighths = max(eighths, 1)
	partial := []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}
	return strings.Repeat("█", eighths/8) + partial[eighths%8]
}

// TextOptions controls the text and Markdown renderings.
type TextOptions struct {
	// Details prints every capture's own block when the report holds
	// several (one capture always gets its block).
	Details bool
	// Quiet prints only the totals.
	Quiet bool
	// Width is the width notes are wrapped at in text (the terminal's;
	// escape.DefaultWidth when 0).
	Width int
}

// table is a text table: columns separated by two spaces, numbers aligned
// right, the last column (a note) left as it is.
type table struct {
	rows  [][]string
	right []bool // per column
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w io.Writer, indent string) {
	n := 0
	for _, r := range t.rows {
		n = max(n, len(r))
	}
	width := make([]int, n)
	for _, r := range t.rows {
		for k, c := range r {
			if k < n-1 {
				width[k] = max(width[k], utf8.RuneCountInString(c))
			}
		}
	}
	for _, r := range t.rows {
		var b strings.Builder
		b.WriteString(indent)
		for k, c := range r {
			if k > 0 {
				b.WriteString("  ")
			}
			fill := strings.Repeat(" ", max(width[k]-utf8.RuneCountInString(c), 0))
			switch {
			case k == n-1:
				b.WriteString(c)
			case k < len(t.right) && t.right[k]:
				b.WriteString(fill + c)
			default:
				b.WriteString(c + fill)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// WriteText writes the report for a terminal: one capture as its own
// block; several as one row each and a total (their blocks too with
// Details); with Quiet only the total.
func WriteText(w io.Writer, rep *measure.Report, o TextOptions) error {
	if o.Quiet {
		fmt.Fprintln(w, totalLine(rep))
		return nil
	}
	many := len(rep.Captures) > 1
	if !many || o.Details {
		for i, c := range rep.Captures {
			if i > 0 {
				fmt.Fprintln(w)
			}
			writeCapture(w, c, o.Width)
		}
	}
	if many {
		if o.Details {
			fmt.Fprintln(w)
		}
		writeCaptureTable(w, rep)
	}
	for _, n := range rep.Notes {
		fmt.Fprintln(w, escape.Wrap("note: ", n, o.Width))
	}
	return nil
}

// totalLine sums a report in one line.
func totalLine(rep *measure.Report) string {
	t := rep.Totals
	s := fmt.Sprintf("total: %s, %s → %s bytes (%s saved, %s)", counted(t.Captures, "capture"),
		units.Thousands(t.Bytes), units.Thousands(t.AfterBytes), units.Thousands(t.SavedBytes), share(t.SavedBytes, t.Bytes))
	if t.Encoding != "none" && t.Encoding != "" {
		s += fmt.Sprintf(", %s → %s tokens (%s saved)", units.Thousands(t.Tokens), units.Thousands(t.AfterTokens), units.Thousands(t.SavedTokens))
	}
	if t.SavedUSD != nil {
		s += fmt.Sprintf(", %s of input saved", units.USD(*t.SavedUSD))
	}
	return s
}

// counted is n and word, plural unless n is 1.
func counted(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// catalogShare is the share of the body the skill catalog takes.
func catalogShare(c *measure.CaptureReport) string {
	for _, s := range c.Sections {
		if s.Kind == "skill-catalog" {
			return share(s.Bytes, c.Bytes)
		}
	}
	return "-"
}

// writeCaptureTable writes one row per capture and the total.
func writeCaptureTable(w io.Writer, rep *measure.Report) {
	tokens := rep.Totals.Encoding != "none" && rep.Totals.Encoding != ""
	t := &table{right: []bool{false, false, true, true, true, true, true, true}}
	t.add("capture", "provider", "bytes", "tokens", "catalog", "after", "saved", "", "")
	for _, c := range rep.Captures {
		t.add(escape.Text(c.Name), c.Provider, units.Thousands(c.Bytes), tokensCell(tokens, c.Tokens.Count), catalogShare(c),
			units.Thousands(c.After.Bytes), units.Thousands(c.Bytes-c.After.Bytes), share(c.Bytes-c.After.Bytes, c.Bytes), "")
	}
	tt := rep.Totals
	t.add("total: "+counted(tt.Captures, "capture"), "", units.Thousands(tt.Bytes), tokensCell(tokens, tt.Tokens), "",
		units.Thousands(tt.AfterBytes), units.Thousands(tt.SavedBytes), share(tt.SavedBytes, tt.Bytes), "")
	t.write(w, "")
	if tokens {
		line := fmt.Sprintf("tokens (%s): %s → %s (%s saved)", tt.Encoding, units.Thousands(tt.Tokens), units.Thousands(tt.AfterTokens), units.Thousands(tt.SavedTokens))
		if tt.SavedUSD != nil {
			line += fmt.Sprintf(", %s of input saved", units.USD(*tt.SavedUSD))
		}
		fmt.Fprintln(w, line)
	}
}

func tokensCell(counting bool, n int) string {
	if !counting {
		return "-"
	}
	return units.Thousands(n)
}

// counting reports whether the capture's tokens were counted.
func counting(r *measure.CaptureReport) bool {
	return r.Tokens.Encoding != "none" && r.Tokens.Encoding != ""
}

// priced reports whether the capture's savings have a cost.
func priced(r *measure.CaptureReport) bool { return r.After.SavedUSD != nil }

// writeCapture writes one capture's block.
func writeCapture(w io.Writer, c *measure.CaptureReport, width int) {
	tok := "tokens not counted"
	if counting(c) {
		tok = fmt.Sprintf("%s tokens (%s)", units.Thousands(c.Tokens.Count), tokenLabel(c.Tokens))
	}
	head := escape.Text(c.Name) + "  " + c.Provider
	if c.Model != "" {
		head += "  " + escape.Text(c.Model)
	}
	fmt.Fprintf(w, "%s  %s bytes  %s chars  %s\n", head, units.Thousands(c.Bytes), units.Thousands(c.Chars), tok)
	t := &table{right: []bool{false, true, true, true, true, true}}
	t.add("section", "count", "bytes", "size", "tokens", "share", "")
	for _, s := range c.Sections {
		count := strconv.Itoa(s.Count)
		if s.Kind == "other" {
			count = "-"
		}
		t.add(s.Kind, count, units.Thousands(s.Bytes), units.Size(s.Bytes), tokensCell(counting(c), s.Tokens), share(s.Bytes, c.Bytes), bar(s.Bytes, c.Bytes))
	}
	t.write(w, "  ")
	if c.Skills.Count > 0 || c.Skills.Bytes > 0 {
		fmt.Fprintf(w, "  skills: %d in %s (%s, %s of the body)\n", c.Skills.Count, c.Skills.Format, units.Size(c.Skills.Bytes), share(c.Skills.Bytes, c.Bytes))
	} else {
		fmt.Fprintf(w, "  skills: no native skill catalog found\n")
	}
	fmt.Fprintf(w, "  tools: %d declared, %s", c.Tools.Count, units.Size(c.Tools.Bytes))
	if len(c.Tools.Largest) > 0 {
		parts := make([]string, 0, 3)
		for _, t := range c.Tools.Largest[:min(3, len(c.Tools.Largest))] {
			parts = append(parts, fmt.Sprintf("%s %s", escape.Text(t.Name), units.Size(t.Bytes)))
		}
		fmt.Fprintf(w, " (largest: %s)", strings.Join(parts, ", "))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  tool results: %d, %s, %s", c.ToolResults.Count, units.Size(c.ToolResults.Bytes), duplicates(c.ToolResults.Duplicates))
	if len(c.ToolResults.Largest) > 0 {
		l := c.ToolResults.Largest[0]
		fmt.Fprintf(w, "; largest %s at %s", units.Size(l.Bytes), escape.Text(l.Pointer))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  stable prefix: %s\n", prefixText(c, false))
	writeSavings(w, c)
	for _, n := range prefixNotes(c) {
		fmt.Fprintln(w, escape.Wrap("  note: ", n, width))
	}
	for _, x := range c.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", escape.Text(x))
	}
	if len(c.NextSteps) > 0 {
		fmt.Fprintf(w, "  next steps:\n")
		for i, s := range c.NextSteps {
			fmt.Fprintf(w, "    %d. %s\n", i+1, escape.Text(nextText(c, s)))
		}
	}
	for _, d := range c.Details {
		fmt.Fprint(w, escape.Lines(d.Data.Text()))
	}
}

func duplicates(n int) string {
	switch n {
	case 0:
		return "no identical duplicates"
	case 1:
		return "1 identical duplicate"
	}
	return fmt.Sprintf("%d identical duplicates", n)
}

// prefixText describes the stable prefix: its size and hash, or that the
// body has none.
func prefixText(c *measure.CaptureReport, md bool) string {
	if c.PrefixBytes == 0 {
		return "none (no system text, skill catalog or tool declarations)"
	}
	if md {
		return fmt.Sprintf("%s, sha256 `%s`", units.Size(c.PrefixBytes), c.PrefixSHA256)
	}
	return fmt.Sprintf("%s, sha256 %s", units.Size(c.PrefixBytes), c.PrefixSHA256[:min(16, len(c.PrefixSHA256))])
}

// nextText is one next step: the action, the rule, what it changes and
// the saving measured.
func nextText(c *measure.CaptureReport, s rules.Suggestion) string {
	out := fmt.Sprintf("%s (%s): %s; saves %s bytes", s.Action, s.Rule, s.Effect, units.Thousands(s.SavedBytes))
	if counting(c) && s.SavedTokens > 0 {
		out += fmt.Sprintf(", %s tokens", units.Thousands(s.SavedTokens))
	}
	return out
}

// writeSavings writes what each rule saved, in bytes, tokens and (with a
// price) input cost, a reason beside every rule that saved nothing, and
// the total.
func writeSavings(w io.Writer, c *measure.CaptureReport) {
	if len(c.Savings) == 0 {
		fmt.Fprintf(w, "  savings: no transform rules configured\n")
		return
	}
	t := &table{right: []bool{false, true, false, true, true, true, true}}
	head := []string{"rule", "before", "", "after", "bytes saved", "tokens saved"}
	if priced(c) {
		head = append(head, "cost saved")
	}
	t.add(append(head, "")...)
	row := func(name string, before, after, saved int, tokens int, usd *float64, note string) {
		bytesSaved := "0"
		if saved != 0 {
			bytesSaved = fmt.Sprintf("%s (%s)", units.Thousands(saved), share(saved, before))
		}
		cells := []string{name, units.Thousands(before), "→", units.Thousands(after), bytesSaved, tokensCell(counting(c), tokens)}
		if priced(c) {
			cells = append(cells, costCell(usd))
		}
		t.add(append(cells, note)...)
	}
	for _, s := range c.Savings {
		row(s.Rule+" "+s.Name, s.BytesBefore, s.BytesAfter, s.SavedBytes, s.SavedTokens, s.SavedUSD, escape.Text(s.Why()))
	}
	row("total", c.Bytes, c.After.Bytes, c.Bytes-c.After.Bytes, c.After.SavedTokens, c.After.SavedUSD, "")
	t.write(w, "  ")
	fmt.Fprintf(w, "  after: %s\n", escape.Text(afterLine(c)))
}

// WriteMarkdown writes the report as GitHub-flavoured Markdown: one
// capture as its own section; several as one table row each and a total
// (their sections too with Details); with Quiet only the total.
func WriteMarkdown(w io.Writer, rep *measure.Report, o TextOptions) error {
	if o.Quiet {
		fmt.Fprintf(w, "**Total:** %s\n", mdText(strings.TrimPrefix(totalLine(rep), "total: ")))
		return nil
	}
	many := len(rep.Captures) > 1
	if !many || o.Details {
		for _, c := range rep.Captures {
			writeCaptureMarkdown(w, c)
		}
	}
	if many {
		tokens := rep.Totals.Encoding != "none" && rep.Totals.Encoding != ""
		fmt.Fprintf(w, "| capture | provider | bytes | tokens | catalog | after | saved |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |\n")
		for _, c := range rep.Captures {
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s (%s) |\n", escape.MarkdownCode(c.Name), c.Provider, units.Thousands(c.Bytes), tokensCell(tokens, c.Tokens.Count),
				catalogShare(c), units.Thousands(c.After.Bytes), units.Thousands(c.Bytes-c.After.Bytes), share(c.Bytes-c.After.Bytes, c.Bytes))
		}
		t := rep.Totals
		fmt.Fprintf(w, "| **total: %s** | | %s | %s | | %s | %s (%s) |\n\n", counted(t.Captures, "capture"), units.Thousands(t.Bytes), tokensCell(tokens, t.Tokens),
			units.Thousands(t.AfterBytes), units.Thousands(t.SavedBytes), share(t.SavedBytes, t.Bytes))
		fmt.Fprintf(w, "**Total:** %s\n\n", mdText(strings.TrimPrefix(totalLine(rep), "total: ")))
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "> note: %s\n", mdText(n))
	}
	return nil
}

func writeCaptureMarkdown(w io.Writer, c *measure.CaptureReport) {
	fmt.Fprintf(w, "### %s (%s)\n\n", escape.MarkdownCode(c.Name), c.Provider)
	if c.Model != "" {
		fmt.Fprintf(w, "model %s, ", escape.MarkdownCode(c.Model))
	}
	fmt.Fprintf(w, "%s bytes, %s chars", units.Thousands(c.Bytes), units.Thousands(c.Chars))
	if counting(c) {
		fmt.Fprintf(w, ", %s tokens (%s)", units.Thousands(c.Tokens.Count), tokenLabel(c.Tokens))
	}
	fmt.Fprintf(w, "\n\n| section | count | bytes | share | tokens |\n| --- | ---: | ---: | ---: | ---: |\n")
	for _, s := range c.Sections {
		fmt.Fprintf(w, "| %s | %d | %s | %s | %s |\n", s.Kind, s.Count, units.Thousands(s.Bytes), share(s.Bytes, c.Bytes), tokensCell(counting(c), s.Tokens))
	}
	fmt.Fprintf(w, "\n- skills: %d (%s, %s)\n", c.Skills.Count, c.Skills.Format, units.Size(c.Skills.Bytes))
	fmt.Fprintf(w, "- tools: %d declared, %s\n", c.Tools.Count, units.Size(c.Tools.Bytes))
	fmt.Fprintf(w, "- tool results: %d, %s, %s\n", c.ToolResults.Count, units.Size(c.ToolResults.Bytes), duplicates(c.ToolResults.Duplicates))
	fmt.Fprintf(w, "- stable prefix: %s\n", prefixText(c, true))
	for _, d := range c.Details {
		if md := d.Data.Markdown(); md != "" {
			fmt.Fprint(w, escape.MarkdownProse(md))
		} else {
			fmt.Fprint(w, escape.MarkdownProse(d.Data.Text()))
		}
	}
	if len(c.Savings) > 0 {
		fmt.Fprintf(w, "\n| rule | name | before | after | saved | tokens saved |")
		if priced(c) {
			fmt.Fprintf(w, " cost saved |")
		}
		fmt.Fprintf(w, " note |\n| --- | --- | ---: | ---: | ---: | ---: |")
		if priced(c) {
			fmt.Fprintf(w, " ---: |")
		}
		fmt.Fprintf(w, " --- |\n")
		row := func(rule, name string, before, after, saved int, tokens int, usd *float64, note string) {
			bytesSaved := "0"
			if saved != 0 {
				bytesSaved = fmt.Sprintf("%s (%s)", units.Thousands(saved), share(saved, before))
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |", rule, name, units.Thousands(before), units.Thousands(after), bytesSaved, tokensCell(counting(c), tokens))
			if priced(c) {
				fmt.Fprintf(w, " %s |", costCell(usd))
			}
			fmt.Fprintf(w, " %s |\n", mdText(note))
		}
		for _, s := range c.Savings {
			row(s.Rule, s.Name, s.BytesBefore, s.BytesAfter, s.SavedBytes, s.SavedTokens, s.SavedUSD, s.Why())
		}
		row("**total**", "", c.Bytes, c.After.Bytes, c.Bytes-c.After.Bytes, c.After.SavedTokens, c.After.SavedUSD, "")
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "- after: %s\n", mdText(afterLine(c)))
	for _, n := range prefixNotes(c) {
		fmt.Fprintf(w, "- note: %s\n", mdText(n))
	}
	for _, x := range c.Warnings {
		fmt.Fprintf(w, "- **warning:** %s\n", mdText(x))
	}
	if len(c.NextSteps) > 0 {
		fmt.Fprintf(w, "\n**Next steps**\n\n")
		for i, s := range c.NextSteps {
			fmt.Fprintf(w, "%d. %s\n", i+1, mdText(nextText(c, s)))
		}
	}
	fmt.Fprintln(w)
}

// mdText keeps prose, code spans included, inside a table cell or list:
// one line, pipes escaped, no markup or controls from the inputs (see
// escape.MarkdownProse).
func mdText(s string) string {
	return strings.ReplaceAll(escape.MarkdownProse(escape.Text(s)), "|", `\|`)
}

// tokenLabel names the encoding of a count and says when the count is an
// estimate (the model is not an OpenAI model of that encoding).
func tokenLabel(t measure.Tokens) string {
	if t.Exact {
		return t.Encoding
	}
	return t.Encoding + ", estimated"
}

// prefixNotes say which rules change, on this request, what the previous
// request of its conversation sent, and why that pays.
func prefixNotes(c *measure.CaptureReport) []string {
	var out []string
	for _, s := range c.Savings {
		if s.PrefixChange != "" {
			out = append(out, fmt.Sprintf("%s changes what the previous request sent, once (its cached prefix is written again): %s", s.Rule, s.PrefixChange))
		}
	}
	return out
}
