package measure

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// WriteJSON writes the report as one indented JSON object.
func WriteJSON(w io.Writer, rep *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(rep)
}

// Size renders a byte count for people: "812 B", "13.0 KiB", "2.9 MiB".
func Size(n int) string {
	switch {
	case n < 1024 && n > -1024:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20 && n > -(1<<20):
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	default:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
}

// Thousands renders an integer with comma grouping.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func share(part, whole int) string {
	if whole == 0 {
		return "0.0 %"
	}
	return fmt.Sprintf("%.1f %%", float64(part)*100/float64(whole))
}

// WriteText writes the report as aligned tables for a terminal.
func WriteText(w io.Writer, rep *Report) error {
	for i, c := range rep.Captures {
		if i > 0 {
			fmt.Fprintln(w)
		}
		tok := "tokens not counted"
		if c.Tokens.Encoding != "none" {
			tok = fmt.Sprintf("%s tokens (%s)", Thousands(c.Tokens.Count), tokenLabel(c.Tokens))
		}
		fmt.Fprintf(w, "%s  %s  %s bytes  %s chars  %s\n", c.Name, c.Provider, Thousands(c.Bytes), Thousands(c.Chars), tok)
		fmt.Fprintf(w, "  %-14s %6s %12s %10s %7s %10s\n", "section", "count", "bytes", "size", "share", "tokens")
		for _, s := range c.Sections {
			count := strconv.Itoa(s.Count)
			if s.Kind == "other" {
				count = "-"
			}
			fmt.Fprintf(w, "  %-14s %6s %12s %10s %7s %10s\n", s.Kind, count, Thousands(s.Bytes), Size(s.Bytes), share(s.Bytes, c.Bytes), tokensCell(c, s.Tokens))
		}
		if c.Skills.Count > 0 || c.Skills.Bytes > 0 {
			fmt.Fprintf(w, "  skills: %d in %s (%s, %s of the body)\n", c.Skills.Count, c.Skills.Format, Size(c.Skills.Bytes), share(c.Skills.Bytes, c.Bytes))
		} else {
			fmt.Fprintf(w, "  skills: no native skill catalog found\n")
		}
		fmt.Fprintf(w, "  tools: %d declared, %s", c.Tools.Count, Size(c.Tools.Bytes))
		if len(c.Tools.Largest) > 0 {
			parts := make([]string, 0, 3)
			for _, t := range c.Tools.Largest[:min(3, len(c.Tools.Largest))] {
				parts = append(parts, fmt.Sprintf("%s %s", t.Name, Size(t.Bytes)))
			}
			fmt.Fprintf(w, " (largest: %s)", strings.Join(parts, ", "))
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "  tool results: %d, %s, %d identical duplicate(s)", c.ToolResults.Count, Size(c.ToolResults.Bytes), c.ToolResults.Duplicates)
		if len(c.ToolResults.Largest) > 0 {
			l := c.ToolResults.Largest[0]
			fmt.Fprintf(w, "; largest %s at %s", Size(l.Bytes), l.Pointer)
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "  stable prefix: %s, sha256 %s\n", Size(c.PrefixBytes), c.PrefixSHA256[:16])
		if len(c.Savings) == 0 {
			fmt.Fprintf(w, "  savings: no transform rules configured\n")
		} else {
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintf(tw, "  rule\tname\tbefore\tafter\tsaved\t\t\n")
			for _, s := range c.Savings {
				note := ""
				if s.Dropped != "" {
					note = "dropped: " + s.Dropped
				}
				fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%.1f %%\t%s\n", s.Rule, s.Name, Thousands(s.BytesBefore), Thousands(s.BytesAfter), Thousands(s.SavedBytes), s.SavedPct, note)
			}
			tw.Flush()
		}
		after := fmt.Sprintf("%s bytes", Thousands(c.After.Bytes))
		if c.Tokens.Encoding != "none" {
			after += fmt.Sprintf(", %s tokens", Thousands(c.After.Tokens))
			if !c.Tokens.Exact {
				after += " (estimated)"
			}
		}
		fmt.Fprintf(w, "  after: %s; over %d requests: %s → %s bytes\n", after, c.Replay.Requests, Thousands(c.Replay.BytesBefore), Thousands(c.Replay.BytesAfter))
		for _, d := range c.Details {
			fmt.Fprint(w, d.Text)
		}
	}
	if len(rep.Captures) > 1 {
		t := rep.Totals
		fmt.Fprintf(w, "\ntotal: %d captures, %s bytes → %s bytes (%s saved, %.1f %%)\n", t.Captures, Thousands(t.Bytes), Thousands(t.AfterBytes), Thousands(t.SavedBytes), t.SavedPct)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	return nil
}

// tokenLabel names the encoding of a count and says when the count is an
// estimate (the model is not an OpenAI model of that encoding).
func tokenLabel(t Tokens) string {
	if t.Exact {
		return t.Encoding
	}
	return t.Encoding + ", estimated"
}

func tokensCell(c *CaptureReport, n int) string {
	if c.Tokens.Encoding == "none" {
		return "-"
	}
	return Thousands(n)
}

// WriteMarkdown writes the report as GitHub-flavoured Markdown tables.
func WriteMarkdown(w io.Writer, rep *Report) error {
	for _, c := range rep.Captures {
		fmt.Fprintf(w, "### `%s` (%s)\n\n", mdEscape(c.Name), c.Provider)
		fmt.Fprintf(w, "%s bytes, %s chars", Thousands(c.Bytes), Thousands(c.Chars))
		if c.Tokens.Encoding != "none" {
			fmt.Fprintf(w, ", %s tokens (%s)", Thousands(c.Tokens.Count), tokenLabel(c.Tokens))
		}
		fmt.Fprintf(w, "\n\n| section | count | bytes | share | tokens |\n| --- | ---: | ---: | ---: | ---: |\n")
		for _, s := range c.Sections {
			fmt.Fprintf(w, "| %s | %d | %s | %s | %s |\n", s.Kind, s.Count, Thousands(s.Bytes), share(s.Bytes, c.Bytes), tokensCell(c, s.Tokens))
		}
		fmt.Fprintf(w, "\n- skills: %d (%s, %s)\n", c.Skills.Count, c.Skills.Format, Size(c.Skills.Bytes))
		fmt.Fprintf(w, "- tools: %d declared, %s\n", c.Tools.Count, Size(c.Tools.Bytes))
		fmt.Fprintf(w, "- tool results: %d, %s, %d duplicate(s)\n", c.ToolResults.Count, Size(c.ToolResults.Bytes), c.ToolResults.Duplicates)
		fmt.Fprintf(w, "- stable prefix: %s, sha256 `%s`\n", Size(c.PrefixBytes), c.PrefixSHA256)
		for _, d := range c.Details {
			if d.Markdown != "" {
				fmt.Fprint(w, d.Markdown)
			} else {
				fmt.Fprint(w, d.Text)
			}
		}
		if len(c.Savings) > 0 {
			fmt.Fprintf(w, "\n| rule | name | before | after | saved |\n| --- | --- | ---: | ---: | ---: |\n")
			for _, s := range c.Savings {
				fmt.Fprintf(w, "| %s | %s | %s | %s | %s (%.1f %%) |\n", s.Rule, s.Name, Thousands(s.BytesBefore), Thousands(s.BytesAfter), Thousands(s.SavedBytes), s.SavedPct)
			}
		}
		fmt.Fprintf(w, "- after: %s bytes\n\n", Thousands(c.After.Bytes))
	}
	if len(rep.Captures) > 1 {
		t := rep.Totals
		fmt.Fprintf(w, "**Total:** %d captures, %s → %s bytes (%.1f %% saved)\n\n", t.Captures, Thousands(t.Bytes), Thousands(t.AfterBytes), t.SavedPct)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "> note: %s\n", mdEscape(n))
	}
	return nil
}

func mdEscape(s string) string {
	return mdCellEscaper.Replace(s)
}

var mdCellEscaper = strings.NewReplacer("|", `\|`, "`", "'")
