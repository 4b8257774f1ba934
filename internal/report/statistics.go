package report

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/rules"
)

// StatisticsFormats are the formats the statistics are written in.
var StatisticsFormats = []string{"text", "json"}

// Statistic is how many findings one rule reported, and how many of them
// a safe fix resolves.
type Statistic struct {
	Rule    string `json:"rule"`
	Name    string `json:"name"`
	Count   int    `json:"count"`
	Fixable int    `json:"fixable"`
}

// Statistics counts the findings of r per rule, most frequent first, then
// by rule; names come from rs (empty for a rule not in it).
func Statistics(r *Report, rs []*rules.Rule) []Statistic {
	names := map[string]string{}
	for _, x := range rs {
		names[x.ID] = x.Name
	}
	idx := map[string]int{}
	out := []Statistic{}
	for _, d := range r.Diagnostics {
		i, ok := idx[d.Rule]
		if !ok {
			i = len(out)
			idx[d.Rule] = i
			out = append(out, Statistic{Rule: d.Rule, Name: names[d.Rule]})
		}
		out[i].Count++
		if d.Fix == "safe" {
			out[i].Fixable++
		}
	}
	slices.SortStableFunc(out, func(a, b Statistic) int {
		if c := cmp.Compare(b.Count, a.Count); c != 0 {
			return c
		}
		return cmp.Compare(a.Rule, b.Rule)
	})
	return out
}

// writeStatistics writes the findings per rule, as ruff --statistics
// does: in text a line per rule (count, rule, [*] when a safe fix
// resolves some, name), then the summary line unless quiet; in JSON
// {"tool","version","command","statistics":[{"rule","name","count","fixable"}],
// "summary","incomplete","config"}.
func writeStatistics(w io.Writer, r *Report, format string, opts Options) error {
	st := Statistics(r, opts.Rules)
	switch format {
	case "text":
		bw := bufio.NewWriter(w)
		width := 1
		for _, s := range st {
			width = max(width, len(strconv.Itoa(s.Count)))
		}
		ruleWidth := 0
		for _, s := range st {
			ruleWidth = max(ruleWidth, len(escape.Text(s.Rule)))
		}
		for _, s := range st {
			mark := "   "
			if s.Fixable > 0 {
				mark = opts.paint(cyan, "[*]")
			}
			id := escape.Text(s.Rule)
			fmt.Fprintf(bw, "%*d  %s%*s  %s %s\n", width, s.Count, opts.paint(bold, id), ruleWidth-len(id), "", mark, escape.Text(s.Name))
		}
		if line := summaryLine(r); line != "" && !opts.Quiet {
			fmt.Fprintln(bw, line)
		}
		return bw.Flush()
	case "json":
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		err := enc.Encode(struct {
			Tool       string      `json:"tool"`
			Version    string      `json:"version"`
			Command    string      `json:"command"`
			Statistics []Statistic `json:"statistics"`
			Summary    Summary     `json:"summary"`
			Incomplete bool        `json:"incomplete"`
			Config     *string     `json:"config"`
		}{r.Tool, r.Version, r.Command, st, r.Summary, r.Incomplete, r.Config})
		if err != nil {
			return err
		}
		_, err = w.Write(escape.JSON(b.Bytes()))
		return err
	}
	return fmt.Errorf("statistics are written as text or json, not %q", format)
}
