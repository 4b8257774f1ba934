package render

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/measure/units"
)

// WriteConversationsJSON writes the report of several conversations as
// one indented JSON object with the members "conversations" (each
// conversation's report, as WriteConversationJSON writes it, with its
// name and how it was found) and "summary".
func WriteConversationsJSON(w io.Writer, set *measure.ConversationSet) error {
	return writeJSON(w, set)
}

// foundBy says how a conversation was found, with its session id.
func foundBy(n measure.NamedConversation) string {
	s := n.FoundBy
	if n.SessionID != "" {
		s += " " + n.SessionID
	}
	if n.Parent != "" {
		s += ", " + n.Parent
	}
	return s
}

// setCounts says how many conversations were found in how many requests,
// and how: "6 conversations in 18 requests (5 by shared prefix, 1 by
// session id)".
func setCounts(set *measure.ConversationSet) string {
	var order []string
	by := map[string]int{}
	for _, c := range set.Conversations {
		if by[c.FoundBy] == 0 {
			order = append(order, c.FoundBy)
		}
		by[c.FoundBy]++
	}
	parts := make([]string, len(order))
	for i, k := range order {
		parts[i] = fmt.Sprintf("%d by %s", by[k], k)
	}
	return fmt.Sprintf("%d conversations in %s requests (%s)", len(set.Conversations), units.Thousands(set.Summary.Total.Turns), strings.Join(parts, ", "))
}

// rowCost is a summary row's cost before → after, saying which turns it
// covers when some have no price.
func rowCost(r measure.SummaryRow) string {
	s := Cost(r.Before.Cost) + " → " + Cost(r.After.Cost)
	if r.PricedTurns > 0 && r.PricedTurns < r.Turns {
		s += fmt.Sprintf(" (%s of %s turns)", units.Thousands(r.PricedTurns), units.Thousands(r.Turns))
	}
	return s
}

// summaryCells are the cells of the summary table, unescaped: a header,
// a row per conversation and the total.
func summaryCells(set *measure.ConversationSet) [][]string {
	rows := [][]string{{"#", "conversation", "found by", "turns", "input", "cost", "prefix breaks", "rule breaks"}}
	for _, r := range set.Summary.Conversations {
		rows = append(rows, []string{strconv.Itoa(r.Conversation), r.Name, r.FoundBy, units.Thousands(r.Turns),
			arrow(r.Before.Input, r.After.Input), rowCost(r), arrow(r.Before.Breaks, r.After.Breaks), units.Thousands(r.RuleBreaks)})
	}
	t := set.Summary.Total
	rows = append(rows, []string{"total", "", "", units.Thousands(t.Turns), arrow(t.Before.Input, t.After.Input),
		Cost(t.Before.Cost) + " → " + Cost(t.After.Cost), arrow(t.Before.Breaks, t.After.Breaks), units.Thousands(t.RuleBreaks)})
	return rows
}

// saved is the grand total's saving: "$0.0420 (38.20 %)" or "n/a"
// (pricedNote says which turns it covers).
func saved(t measure.ConvTotal) string {
	if t.Saved == nil {
		return "n/a"
	}
	pct := 0.0
	if t.SavedPct != nil {
		pct = *t.SavedPct
	}
	return fmt.Sprintf("%s (%s %%)", Cost(t.Saved), units.Fixed(pct, 2))
}

// WriteConversationsText writes the report of several conversations for
// a terminal: each conversation's report under a heading, then the
// summary table and the grand total.
func WriteConversationsText(w io.Writer, set *measure.ConversationSet) error {
	return writeConversationsText(w, set, TextOptions{})
}

// writeConversationsText is WriteConversationsText with notes wrapped at
// o.Width.
func writeConversationsText(w io.Writer, set *measure.ConversationSet, o TextOptions) error {
	fmt.Fprintf(w, "%s\n", setCounts(set))
	for i, c := range set.Conversations {
		fmt.Fprintf(w, "\nconversation %d of %d: %s, by %s\n", i+1, len(set.Conversations), escape.Text(c.Name), escape.Text(foundBy(c)))
		if err := writeConversationText(w, c.Conversation, o); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\nsummary: %s\n", setCounts(set))
	rows := summaryCells(set)
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i := range r {
			r[i] = escape.Text(r[i])
			widths[i] = max(widths[i], utf8.RuneCountInString(r[i]))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, cell := range r {
			b.WriteString(cell)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell)+2))
			}
		}
		if _, err := fmt.Fprintln(w, strings.TrimRight(b.String(), " ")); err != nil {
			return err
		}
	}
	t := set.Summary.Total
	fmt.Fprintf(w, "saved: %s%s\n", saved(t), escape.Text(pricedNote(t)))
	if t.Usage != nil {
		fmt.Fprintf(w, "%s\n", escape.Text(usageLine(t.Usage, t.Error)))
	}
	return nil
}

// WriteConversationsMarkdown writes the report of several conversations
// for a pull request comment: the summary table and the grand total,
// then each conversation's report under a heading.
func WriteConversationsMarkdown(w io.Writer, set *measure.ConversationSet) error {
	t := set.Summary.Total
	fmt.Fprintf(w, "### skillopt measure --conversation: %d conversations\n\n", len(set.Conversations))
	fmt.Fprintf(w, "%s. Cost %s → %s, saved %s%s. Prefix breaks %d → %d, %d by a rule.\n\n", setCounts(set),
		Cost(t.Before.Cost), Cost(t.After.Cost), saved(t), mdCell(pricedNote(t)), t.Before.Breaks, t.After.Breaks, t.RuleBreaks)
	rows := summaryCells(set)
	last := len(rows) - 1
	for k, r := range rows {
		if k > 0 {
			// The names are the captures'; the figures are skillopt's.
			r[1], r[2] = mdCell(r[1]), mdCell(r[2])
		}
		if k == last {
			r[0] = "**total**"
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
		if k == 0 {
			fmt.Fprintln(w, "| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |")
		}
	}
	if t.Usage != nil {
		fmt.Fprintf(w, "\n%s\n", mdCell(usageLine(t.Usage, t.Error)))
	}
	for i, c := range set.Conversations {
		fmt.Fprintf(w, "\n#### %d. %s\n\nFound by %s. ", i+1, mdCell(c.Name), mdCell(foundBy(c)))
		if err := writeConversationMarkdown(w, c.Conversation); err != nil {
			return err
		}
	}
	return nil
}

// WriteConversationsHTML writes the report of several conversations as
// one self-contained page: the grand total's headline and the summary
// table first, then each conversation's report (WriteConversationHTML)
// under its own heading, its element ids ending in "-N".
func WriteConversationsHTML(w io.Writer, set *measure.ConversationSet) error {
	bw := bufio.NewWriter(w)
	e := escape.HTML
	writeHTMLHead(bw, "skillopt: conversations cost", "h3 { font-size: 14px; margin: 18px 0 6px; }\nsection { border-top: 2px solid #e0e0e0; margin-top: 28px; }\n")
	fmt.Fprintf(bw, "<h1>Cost of %d conversations: before → after the rules</h1>\n", len(set.Conversations))
	t := set.Summary.Total
	writeHeadline(bw, t)
	fmt.Fprintf(bw, "<p>%s. Cost %s → %s, saved %s. Prefix breaks %d → %d, %d by a rule.</p>\n", e(setCounts(set)),
		e(Cost(t.Before.Cost)), e(Cost(t.After.Cost)), e(saved(t)+pricedNote(t)), t.Before.Breaks, t.After.Breaks, t.RuleBreaks)
	if t.Usage != nil {
		fmt.Fprintf(bw, "<p>%s</p>\n", e(usageLine(t.Usage, t.Error)))
	}
	bw.WriteString("<h2>Conversations</h2>\n<table id=\"summary\">\n")
	rows := summaryCells(set)
	for k, r := range rows {
		cell := "td"
		if k == 0 || k == len(rows)-1 {
			cell = "th"
		}
		bw.WriteString("<tr>")
		for i, c := range r {
			class := ""
			if i == 1 || i == 2 {
				class = ` class="text"`
				if cell == "td" {
					class = ` class="name"`
				}
			}
			fmt.Fprintf(bw, "<%s%s>%s</%s>", cell, class, e(c), cell)
		}
		bw.WriteString("</tr>\n")
	}
	bw.WriteString("</table>\n")
	for i, c := range set.Conversations {
		n := strconv.Itoa(i + 1)
		fmt.Fprintf(bw, "<section id=\"conversation-%s\">\n<h2>%s. %s</h2>\n<p class=\"muted\">Found by %s.</p>\n", n, n, e(c.Name), e(foundBy(c)))
		writeConversationHTML(bw, c.Conversation, htmlPart{h: "h3", id: "-" + n})
		bw.WriteString("</section>\n")
	}
	bw.WriteString("</body>\n</html>\n")
	return bw.Flush()
}
