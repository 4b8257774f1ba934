// Package render writes the results of the trace package for people and
// programs: the skill health report as text, Markdown, one HTML page or
// JSON, one run's view, the degradation alerts and a retention plan. The
// JSON shapes are the contracts of docs/trace.md.
package render

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/trace"
)

// The JSON contracts of `skillopt trace` (docs/trace.md). Field names and
// order are stable.

type outcomesJSON struct {
	Success int `json:"success"`
	Failure int `json:"likely-failure"`
	Unknown int `json:"unknown"`
}

type signalCountJSON struct {
	Signal string `json:"signal"`
	Name   string `json:"name"`
	Count  int    `json:"count"`
}

type rateJSON struct {
	Runs      int `json:"runs"`
	Successes int `json:"successes"`
	Percent   int `json:"percent"`
}

type trendJSON struct {
	Older     rateJSON `json:"older"`
	Newer     rateJSON `json:"newer"`
	Last      rateJSON `json:"last"`
	Direction string   `json:"direction"`
}

type runJSON struct {
	File          string   `json:"file"`
	Source        string   `json:"source"`
	Timestamp     int64    `json:"timestamp"`
	Outcome       string   `json:"outcome"`
	Confidence    float64  `json:"confidence"`
	History       string   `json:"history"`
	Signals       []string `json:"signals"`
	ToolCalls     int      `json:"tool_calls"`
	DurationMs    int64    `json:"duration_ms"`
	StoppedReason string   `json:"stopped_reason"`
}

type skillJSON struct {
	Skill    string       `json:"skill"`
	Traces   int          `json:"traces"`
	Total    int          `json:"total"`
	Outcomes outcomesJSON `json:"outcomes"`
	// Regressions counts the runs whose history judgement is
	// likely-regression.
	Regressions int               `json:"regressions"`
	Signals     []signalCountJSON `json:"signals"`
	Trend       *trendJSON        `json:"trend"`
	Recent      []runJSON         `json:"recent"`
	More        int               `json:"more"`
}

func signalsJSON(sc []trace.SignalCount) []signalCountJSON {
	out := []signalCountJSON{}
	for _, s := range sc {
		out = append(out, signalCountJSON{s.Signal, s.Name, s.Count})
	}
	return out
}

func rateOf(r trace.Rate) rateJSON { return rateJSON{r.Runs, r.Successes, r.Percent} }

func runOf(s trace.Summary) runJSON {
	labels := s.Verdict.Labels()
	return runJSON{s.File, s.Source, s.Timestamp, string(s.Verdict.Outcome), round2(s.Verdict.Confidence), string(judgement(s)), labels,
		s.Calls, s.DurationMs, s.StoppedReason}
}

// judgement is a run's history judgement, none when it was not judged.
func judgement(s trace.Summary) trace.Judgement {
	if s.History == "" {
		return trace.NoRegression
	}
	return s.History
}

// historyCell is the history column of a run: its judgement, or "-".
func historyCell(s trace.Summary) string {
	if j := judgement(s); j != trace.NoRegression {
		return string(j)
	}
	return "-"
}

// historyLine counts the runs a report covers that continue a regression.
func historyLine(sr trace.SkillReport) string {
	return fmt.Sprintf("%d of %s a likely regression (%d or more runs in a row not clean after a clean one)",
		sr.Regressions, plural(sr.Traces, "run"), trace.RegressionRun)
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

// ReportJSON is the skill health report in its JSON shape.
func ReportJSON(rep []trace.SkillReport) any {
	out := struct {
		Skills []skillJSON `json:"skills"`
	}{Skills: []skillJSON{}}
	for _, sr := range rep {
		sj := skillJSON{
			Skill: sr.Skill, Traces: sr.Traces, Total: sr.Total,
			Outcomes:    outcomesJSON{sr.Outcomes[trace.Success], sr.Outcomes[trace.Failure], sr.Outcomes[trace.Unknown]},
			Regressions: sr.Regressions,
			Signals:     signalsJSON(sr.Signals),
			Recent:      []runJSON{},
			More:        sr.More,
		}
		if t := sr.Trend; t != nil {
			sj.Trend = &trendJSON{rateOf(t.Older), rateOf(t.Newer), rateOf(t.Last), t.Direction}
		}
		for _, s := range sr.Recent {
			sj.Recent = append(sj.Recent, runOf(s))
		}
		out.Skills = append(out.Skills, sj)
	}
	return out
}

// stamp formats Unix milliseconds as a UTC time ("-" when unknown).
func stamp(ms int64) string {
	if ms == 0 {
		return "-"
	}
	return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05Z")
}

// duration formats a run's duration: <1s, 45s, 2m5s.
func duration(ms int64) string {
	if ms < 1000 {
		return "<1s"
	}
	if ms < 60_000 {
		return strconv.FormatInt((ms+500)/1000, 10) + "s"
	}
	return fmt.Sprintf("%dm%ds", ms/60_000, (ms%60_000+500)/1000)
}

// offset formats a timeline offset: 0s, 45s, 2m05s.
func offset(ms int64) string {
	if ms < 1000 {
		return "0s"
	}
	if ms < 60_000 {
		return strconv.FormatInt((ms+500)/1000, 10) + "s"
	}
	return fmt.Sprintf("%dm%02ds", ms/60_000, (ms%60_000+500)/1000)
}

// bar is ten cells, filled in proportion (rounded half up).
func bar(n, total int) string {
	filled := 0
	if total > 0 {
		filled = (20*n + total) / (2 * total)
	}
	return strings.Repeat("█", filled) + strings.Repeat("░", 10-filled)
}

func percent(n, total int) int {
	if total == 0 {
		return 0
	}
	return (200*n + total) / (2 * total)
}

// signalList renders aggregated signals: "timeout (3x), high tool-call count (2x)".
func signalList(sc []trace.SignalCount) string {
	parts := make([]string, len(sc))
	for i, s := range sc {
		parts[i] = fmt.Sprintf("%s (%dx)", escape.Text(s.Signal), s.Count)
	}
	return strings.Join(parts, ", ")
}

func trendLine(t *trace.Trend) string {
	return fmt.Sprintf("success %d%% in the older %d, %d%% in the newer %d (%s); last %d: %d%%",
		t.Older.Percent, t.Older.Runs, t.Newer.Percent, t.Newer.Runs, t.Direction, t.Last.Runs, t.Last.Percent)
}

// Options say how the text output looks.
type Options struct {
	// Color paints outcomes and headings with ANSI colours.
	Color bool
	// Quiet leaves out what is not a finding (held-back alerts, totals).
	Quiet bool
}

// ANSI colours.
const (
	red    = "31"
	green  = "32"
	yellow = "33"
	bold   = "1"
)

// paint wraps s in an ANSI colour when colour is on.
func (o Options) paint(code, s string) string {
	if !o.Color {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// ReportText writes the skill health report for a terminal.
func ReportText(w io.Writer, rep []trace.SkillReport, ro trace.ReportOptions, o Options) error {
	if len(rep) == 0 {
		if ro.Skill != "" {
			fmt.Fprintf(w, "no runs of skill %q\n", ro.Skill)
		} else {
			fmt.Fprintln(w, "no skill runs found")
		}
		return nil
	}
	for i, sr := range rep {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s: %s\n", o.paint(bold, escape.Text(sr.Skill)), covered(sr))
		for _, oc := range trace.Outcomes {
			n := sr.Outcomes[oc]
			fmt.Fprintf(w, "  %-15s %s %3d/%d %4d%%\n", oc, bar(n, sr.Traces), n, sr.Traces, percent(n, sr.Traces))
		}
		fmt.Fprintf(w, "  history: %s\n", historyLine(sr))
		if len(sr.Signals) > 0 {
			fmt.Fprintf(w, "  failure signals: %s\n", signalList(sr.Signals))
		}
		if sr.Trend != nil {
			fmt.Fprintf(w, "  trend: %s\n", trendLine(sr.Trend))
		}
		if len(sr.Recent) > 0 {
			fmt.Fprintln(w, "  recent:")
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			for _, s := range sr.Recent {
				fmt.Fprintf(tw, "    %s\t%s\t%.2f\t%s\t%s\t%s\t%s\t%s\n", escape.Text(s.File), o.outcome(s.Verdict.Outcome), round2(s.Verdict.Confidence),
					o.history(s), plural(s.Calls, "call"), duration(s.DurationMs), escape.Text(s.StoppedReason), stamp(s.Timestamp))
			}
			tw.Flush()
		}
		if sr.More > 0 {
			fmt.Fprintf(w, "    … and %d older %s (--inline %d)\n", sr.More, pluralWord(sr.More, "run"), ro.Inline)
		}
	}
	return nil
}

func covered(sr trace.SkillReport) string {
	if sr.Traces == sr.Total {
		return plural(sr.Total, "run")
	}
	return fmt.Sprintf("newest %d of %d runs", sr.Traces, sr.Total)
}

func pluralWord(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func (o Options) outcome(oc trace.Outcome) string {
	switch oc {
	case trace.Success:
		return o.paint(green, string(oc))
	case trace.Failure:
		return o.paint(yellow, string(oc))
	}
	return string(oc)
}

func (o Options) history(s trace.Summary) string {
	if judgement(s) == trace.Regression {
		return o.paint(red, historyCell(s))
	}
	return historyCell(s)
}

// ReportMarkdown writes the skill health report as Markdown.
func ReportMarkdown(w io.Writer, rep []trace.SkillReport, o trace.ReportOptions) error {
	fmt.Fprintln(w, "# Skill health")
	if len(rep) == 0 {
		fmt.Fprintln(w)
		if o.Skill != "" {
			fmt.Fprintf(w, "No runs of skill %s.\n", escape.MarkdownCode(o.Skill))
		} else {
			fmt.Fprintln(w, "No skill runs found.")
		}
		return nil
	}
	for _, sr := range rep {
		fmt.Fprintf(w, "\n## %s\n\n%s.\n\n", escape.Markdown(sr.Skill), strings.ToUpper(covered(sr)[:1])+covered(sr)[1:])
		fmt.Fprintln(w, "| outcome | runs | share |")
		fmt.Fprintln(w, "| --- | ---: | ---: |")
		for _, oc := range trace.Outcomes {
			n := sr.Outcomes[oc]
			fmt.Fprintf(w, "| %s | %d/%d | %d%% |\n", oc, n, sr.Traces, percent(n, sr.Traces))
		}
		fmt.Fprintf(w, "\n**History:** %s.\n", historyLine(sr))
		if len(sr.Signals) > 0 {
			fmt.Fprintf(w, "\n**Failure signals:** %s\n", escape.Markdown(signalList(sr.Signals)))
		}
		if sr.Trend != nil {
			fmt.Fprintf(w, "\n**Trend:** %s\n", trendLine(sr.Trend))
		}
		if len(sr.Recent) > 0 {
			fmt.Fprintln(w, "\n| run | outcome | confidence | history | tool calls | duration | stopped | finished | signals |")
			fmt.Fprintln(w, "| --- | --- | ---: | --- | ---: | ---: | --- | --- | --- |")
			for _, s := range sr.Recent {
				fmt.Fprintf(w, "| %s | %s | %.2f | %s | %d | %s | %s | %s | %s |\n", escape.MarkdownCode(s.File), s.Verdict.Outcome,
					round2(s.Verdict.Confidence), historyCell(s), s.Calls, duration(s.DurationMs), escape.Markdown(s.StoppedReason), stamp(s.Timestamp),
					escape.Markdown(strings.Join(s.Verdict.Labels(), "; ")))
			}
		}
		if sr.More > 0 {
			fmt.Fprintf(w, "\n… and %d older %s.\n", sr.More, pluralWord(sr.More, "run"))
		}
	}
	return nil
}

// reportPage is parsed on first use, not at every start.
var reportPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"bar":      func(n, total int) int { return percent(n, total) },
		"stamp":    stamp,
		"duration": duration,
		"conf":     func(f float64) string { return strconv.FormatFloat(round2(f), 'f', 2, 64) },
		"signals":  signalList,
		"trend":    trendLine,
		"covered":  covered,
		"count":    func(m map[trace.Outcome]int, o trace.Outcome) int { return m[o] },
		"outcomes": func() []trace.Outcome { return trace.Outcomes },
		"labels":   func(v trace.Verdict) []string { return v.Labels() },
		"word":     pluralWord,
		"history":  historyCell,
		"histline": historyLine,
		// html/template escapes markup; lines shows the controls too.
		"lines": escape.Lines,
	}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"/>
<meta name="viewport" content="width=device-width, initial-scale=1"/>
<title>Skill health</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #1d1d1f; }
h1 { font-size: 1.5rem; }
h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid #ddd; padding-bottom: .25rem; }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { text-align: left; padding: .2rem .6rem; border-bottom: 1px solid #eee; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.bar { display: inline-block; width: 10rem; height: .8rem; background: #eee; vertical-align: middle; }
.fill { display: block; height: 100%; }
.success .fill { background: #2e7d32; }
.likely-failure .fill { background: #ef6c00; }
.unknown .fill { background: #757575; }
code { font-size: .9em; }
ul.signals { margin: 0; padding-left: 1rem; }
</style>
</head>
<body>
<h1>Skill health</h1>
{{- if not .Skills}}
<p>{{if .Skill}}No runs of skill <code>{{lines .Skill}}</code>.{{else}}No skill runs found.{{end}}</p>
{{- end}}
{{- range .Skills}}
{{- $sr := .}}
<section>
<h2>{{lines .Skill}}</h2>
<p>{{covered .}}</p>
<table class="outcomes">
<tr><th>outcome</th><th></th><th>runs</th><th>share</th></tr>
{{- range outcomes}}
{{- $n := count $sr.Outcomes .}}
<tr class="{{.}}"><td>{{.}}</td><td><span class="bar"><span class="fill" style="width: {{bar $n $sr.Traces}}%"></span></span></td><td class="num">{{$n}}/{{$sr.Traces}}</td><td class="num">{{bar $n $sr.Traces}}%</td></tr>
{{- end}}
</table>
<p><strong>History:</strong> {{histline .}}.</p>
{{- if .Signals}}
<p><strong>Failure signals:</strong> {{signals .Signals}}</p>
{{- end}}
{{- with .Trend}}
<p><strong>Trend:</strong> {{trend .}}</p>
{{- end}}
{{- if .Recent}}
<table class="recent">
<tr><th>run</th><th>outcome</th><th>confidence</th><th>history</th><th>tool calls</th><th>duration</th><th>stopped</th><th>finished</th><th>signals</th></tr>
{{- range .Recent}}
<tr><td><code>{{lines .File}}</code></td><td>{{.Verdict.Outcome}}</td><td class="num">{{conf .Verdict.Confidence}}</td><td>{{history .}}</td><td class="num">{{.Calls}}</td><td class="num">{{duration .DurationMs}}</td><td>{{lines .StoppedReason}}</td><td>{{stamp .Timestamp}}</td><td>{{with labels .Verdict}}<ul class="signals">{{range .}}<li>{{lines .}}</li>{{end}}</ul>{{end}}</td></tr>
{{- end}}
</table>
{{- end}}
{{- if .More}}
<p>… and {{.More}} older {{word .More "run"}}.</p>
{{- end}}
</section>
{{- end}}
</body>
</html>
`))
})

// ReportHTML writes the skill health report as one self-contained HTML page.
func ReportHTML(w io.Writer, rep []trace.SkillReport, o trace.ReportOptions) error {
	return reportPage().Execute(w, struct {
		Skill  string
		Skills []trace.SkillReport
	}{o.Skill, rep})
}

type viewCallJSON struct {
	Index       int    `json:"index"`
	OffsetMs    int64  `json:"offset_ms"`
	Server      string `json:"server"`
	Tool        string `json:"tool"`
	Args        string `json:"args"`
	ResultChars int    `json:"result_chars"`
	TotalChars  int    `json:"total_chars"`
	Blocked     bool   `json:"blocked"`
	IsError     bool   `json:"is_error"`
}

type routeJSON struct {
	Tier       string   `json:"tier"`
	Complexity string   `json:"complexity"`
	Risk       string   `json:"risk"`
	Confidence *float64 `json:"confidence"`
	Reason     string   `json:"reason"`
}

type verdictJSON struct {
	Outcome    string   `json:"outcome"`
	Signals    []string `json:"signals"`
	Confidence float64  `json:"confidence"`
}

// ViewJSON is one run's view in its JSON shape.
func ViewJSON(v trace.View) any {
	r := v.Run
	out := struct {
		File          string         `json:"file"`
		Source        string         `json:"source"`
		Skill         string         `json:"skill"`
		Timestamp     int64          `json:"timestamp"`
		Model         string         `json:"model"`
		Route         *routeJSON     `json:"route"`
		Verdict       verdictJSON    `json:"verdict"`
		DurationMs    int64          `json:"duration_ms"`
		StoppedReason string         `json:"stopped_reason"`
		ToolCalls     []viewCallJSON `json:"tool_calls"`
		FinalText     string         `json:"final_text"`
	}{
		File: r.File, Source: r.Source, Skill: r.Skill, Timestamp: r.Timestamp, Model: r.Model,
		Verdict:    verdictJSON{string(v.Verdict.Outcome), v.Verdict.Labels(), round2(v.Verdict.Confidence)},
		DurationMs: v.DurationMs, StoppedReason: r.StoppedReason, ToolCalls: []viewCallJSON{}, FinalText: v.FinalText,
	}
	if rt := r.Route; rt != nil {
		out.Route = &routeJSON{Tier: rt.Tier, Complexity: rt.Complexity, Risk: rt.Risk, Reason: trace.Redact(rt.Reason)}
		if rt.HasConfidence {
			c := rt.Confidence
			out.Route.Confidence = &c
		}
	}
	for _, c := range v.Calls {
		out.ToolCalls = append(out.ToolCalls, viewCallJSON{c.Index, c.OffsetMs, c.Server, c.Tool, c.Args, c.ResultChars, c.TotalChars, c.Blocked, c.IsError})
	}
	return out
}

// thousands formats n with comma separators.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func resultSize(c trace.ViewCall) string {
	var s string
	switch {
	case c.Blocked:
		s = "blocked"
	case c.TotalChars > c.ResultChars:
		s = fmt.Sprintf("%s chars (preview %s)", thousands(c.TotalChars), thousands(c.ResultChars))
	default:
		s = thousands(c.ResultChars) + " chars"
	}
	if c.IsError {
		s += ", error"
	}
	return s
}

// ViewText writes one run's view for a terminal.
func ViewText(w io.Writer, v trace.View, o Options) error {
	r := v.Run
	fmt.Fprintf(w, "%s\n", o.paint(bold, escape.Text(r.File)))
	fmt.Fprintf(w, "  skill: %s (%s)\n", escape.Text(r.Skill), r.Source)
	if r.Model != "" {
		fmt.Fprintf(w, "  model: %s\n", escape.Text(r.Model))
	}
	if rt := r.Route; rt != nil {
		parts := []string{}
		if rt.Tier != "" {
			parts = append(parts, rt.Tier)
		}
		if rt.Complexity != "" {
			parts = append(parts, rt.Complexity+" complexity")
		}
		if rt.Risk != "" {
			parts = append(parts, "risk "+rt.Risk)
		}
		if rt.HasConfidence {
			parts = append(parts, fmt.Sprintf("confidence %.2f", rt.Confidence))
		}
		fmt.Fprintf(w, "  route: %s\n", textList(parts))
	}
	prefixes := make([]string, len(v.Verdict.Signals))
	for i, s := range v.Verdict.Signals {
		prefixes[i] = s.Prefix()
	}
	because := ""
	if len(prefixes) > 0 {
		because = " (" + textList(prefixes) + ")"
	}
	fmt.Fprintf(w, "  outcome: %s %.2f%s\n", o.outcome(v.Verdict.Outcome), round2(v.Verdict.Confidence), because)
	for _, s := range v.Verdict.Signals {
		fmt.Fprintf(w, "    - %s\n", escape.Text(s.Label))
	}
	fmt.Fprintf(w, "  duration: %s  tool calls: %d  stopped: %s  finished: %s\n", duration(v.DurationMs), len(r.Calls), escape.Text(r.StoppedReason), stamp(r.Timestamp))
	if len(v.Calls) == 0 {
		fmt.Fprintln(w, "  timeline: no tool calls")
	} else {
		fmt.Fprintln(w, "  timeline:")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, c := range v.Calls {
			fmt.Fprintf(tw, "    [%s]\t%s\t%s\t→ %s\n", offset(c.OffsetMs), escape.Text(c.Name()), escape.Text(c.Args), resultSize(c))
		}
		tw.Flush()
	}
	if blankText(v.FinalText) {
		fmt.Fprintln(w, "  final text: (blank)")
		return nil
	}
	fmt.Fprintln(w, "  final text:")
	for _, line := range strings.Split(strings.TrimRight(v.FinalText, "\n"), "\n") {
		fmt.Fprintf(w, "    %s\n", escape.Lines(line))
	}
	return nil
}

func blankText(s string) bool { return strings.TrimSpace(s) == "" }

type alertJSON struct {
	Skill       string            `json:"skill"`
	Count       int               `json:"count"`
	Signals     []signalCountJSON `json:"signals"`
	Newest      runRef            `json:"newest"`
	LastSuccess runRef            `json:"last_success"`
}

type runRef struct {
	File      string `json:"file"`
	Timestamp int64  `json:"timestamp"`
}

type heldJSON struct {
	alertJSON
	LastAlert string `json:"last_alert"`
	Until     string `json:"until"`
}

func alertOf(a trace.Alert) alertJSON {
	return alertJSON{a.Skill, a.Count, signalsJSON(a.Signals), runRef{a.Newest.File, a.Newest.Timestamp}, runRef{a.LastSuccess.File, a.LastSuccess.Timestamp}}
}

// AlertsJSON is the alerts that fire and those the cooldown holds back in
// their JSON shape.
func AlertsJSON(fire []trace.Alert, held []trace.Suppressed) any {
	out := struct {
		Alerts []alertJSON `json:"alerts"`
		Held   []heldJSON  `json:"held"`
	}{[]alertJSON{}, []heldJSON{}}
	for _, a := range fire {
		out.Alerts = append(out.Alerts, alertOf(a))
	}
	for _, h := range held {
		out.Held = append(out.Held, heldJSON{alertOf(h.Alert), h.LastAlert.UTC().Format(time.RFC3339), h.Until.UTC().Format(time.RFC3339)})
	}
	return out
}

// AlertsText writes the alerts that fire and those the cooldown holds back.
func AlertsText(w io.Writer, fire []trace.Alert, held []trace.Suppressed, o Options) error {
	for _, a := range fire {
		fmt.Fprintf(w, "%s: skill %q degraded: its last %d runs are not successes\n", o.paint(red, "alert"), a.Skill, a.Count)
		if len(a.Signals) > 0 {
			fmt.Fprintf(w, "  signals: %s\n", signalList(a.Signals))
		}
		fmt.Fprintf(w, "  newest run: %s (%s)\n", escape.Text(a.Newest.File), stamp(a.Newest.Timestamp))
		fmt.Fprintf(w, "  last successful run: %s (%s)\n", escape.Text(a.LastSuccess.File), stamp(a.LastSuccess.Timestamp))
	}
	if o.Quiet {
		return nil
	}
	for _, h := range held {
		fmt.Fprintf(w, "held back: skill %q (%d runs not successes): alerted %s, cooldown until %s\n", h.Skill, h.Count,
			h.LastAlert.UTC().Format("2006-01-02 15:04:05Z"), h.Until.UTC().Format("2006-01-02 15:04:05Z"))
	}
	switch {
	case len(fire) == 0 && len(held) == 0:
		fmt.Fprintln(w, "no alerts")
	case len(held) > 0:
		fmt.Fprintf(w, "%s, %d held back by the cooldown\n", plural(len(fire), "alert"), len(held))
	default:
		fmt.Fprintln(w, plural(len(fire), "alert"))
	}
	return nil
}

// Prune is what a retention run did or would do, in its JSON shape.
type Prune struct {
	Apply  bool        `json:"apply"`
	Keep   int         `json:"keep"`
	Kept   int         `json:"kept"`
	Delete []PruneFile `json:"delete"`
}

// PruneFile is a trace that is or would be deleted.
type PruneFile struct {
	File      string `json:"file"`
	Skill     string `json:"skill"`
	Timestamp int64  `json:"timestamp"`
}

// PruneText writes a retention run: each file deleted (or that would be)
// and, unless quiet, the counts.
func PruneText(w io.Writer, p Prune, o Options) error {
	verb := "would delete"
	if p.Apply {
		verb = "deleted"
	}
	for _, d := range p.Delete {
		fmt.Fprintf(w, "%s %s (%s, %s)\n", verb, escape.Text(d.File), escape.Text(d.Skill), stamp(d.Timestamp))
	}
	if o.Quiet {
		return nil
	}
	s := fmt.Sprintf("%d kept, %d deleted (%d per skill)", p.Kept, len(p.Delete), p.Keep)
	if !p.Apply {
		s = fmt.Sprintf("%d kept, %d to delete (%d per skill); a dry run: --apply deletes them", p.Kept, len(p.Delete), p.Keep)
	}
	_, err := fmt.Fprintln(w, s)
	return err
}

// plural is n and word, plural unless n is 1: "3 calls".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
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
