package trace

import "sort"

// ReportOptions shape a report.
type ReportOptions struct {
	// Skill limits the report to one skill ("" reports every skill).
	Skill string
	// MaxTraces is how many of each skill's newest runs the report covers.
	MaxTraces int
	// Inline is how many of those are listed one by one; the rest are
	// counted.
	Inline int
}

// TrendRecent is the number of newest runs of the "last N" success rate.
const TrendRecent = 5

// SkillReport is the health of one skill over its newest runs.
type SkillReport struct {
	Skill string
	// Traces is the number of runs the report covers; Total the number
	// found.
	Traces, Total int
	// Outcomes counts the runs per outcome (their own verdicts).
	Outcomes map[Outcome]int
	// Regressions counts the runs whose history judgement is Regression.
	Regressions int
	// Signals counts the signal prefixes of the runs that are not
	// successes, most frequent first.
	Signals []SignalCount
	// Trend compares success rates; nil with fewer than two runs.
	Trend *Trend
	// Recent are the newest Inline runs; More counts the others covered.
	Recent []Summary
	More   int
}

// SignalCount is how often a signal occurred.
type SignalCount struct {
	Signal string // the label's prefix: "timeout", "high tool-call count"
	Name   string // the signal's name: "timeout", "high-tool-calls"
	Count  int
}

// Trend compares the success rate of the older and the newer half of the
// runs a report covers (the newer half has the smaller share of an odd
// count), and gives the rate of the newest TrendRecent runs.
type Trend struct {
	Older, Newer, Last Rate
	// Direction is "up", "down" or "flat": the newer half against the older.
	Direction string
}

// Rate is a success rate.
type Rate struct {
	Runs, Successes int
	// Percent is 100·Successes/Runs rounded half up.
	Percent int
}

func rateOf(runs []Summary) Rate {
	r := Rate{Runs: len(runs)}
	for _, s := range runs {
		if s.Verdict.Outcome == Success {
			r.Successes++
		}
	}
	r.Percent = pct(r.Successes, r.Runs)
	return r
}

// Report builds the report of each skill in hs.
func Report(hs []History, o ReportOptions) []SkillReport {
	var out []SkillReport
	for _, h := range hs {
		if o.Skill != "" && h.Skill != o.Skill {
			continue
		}
		runs := h.Runs
		if o.MaxTraces > 0 && len(runs) > o.MaxTraces {
			runs = runs[:o.MaxTraces]
		}
		sr := SkillReport{Skill: h.Skill, Traces: len(runs), Total: len(h.Runs), Outcomes: map[Outcome]int{}}
		for _, oc := range Outcomes {
			sr.Outcomes[oc] = 0
		}
		var failing []Verdict
		for _, s := range runs {
			sr.Outcomes[s.Verdict.Outcome]++
			if s.History == Regression {
				sr.Regressions++
			}
			if s.Verdict.Outcome != Success {
				failing = append(failing, s.Verdict)
			}
		}
		sr.Signals = CountSignals(failing)
		if n := len(runs); n >= 2 {
			t := &Trend{Newer: rateOf(runs[:n/2]), Older: rateOf(runs[n/2:]), Last: rateOf(runs[:min(TrendRecent, n)])}
			switch {
			case t.Newer.Percent > t.Older.Percent:
				t.Direction = "up"
			case t.Newer.Percent < t.Older.Percent:
				t.Direction = "down"
			default:
				t.Direction = "flat"
			}
			sr.Trend = t
		}
		inline := len(runs)
		if o.Inline >= 0 && inline > o.Inline {
			inline = o.Inline
		}
		sr.Recent = runs[:inline]
		sr.More = len(runs) - inline
		out = append(out, sr)
	}
	return out
}

// CountSignals counts the signal prefixes of verdicts, most frequent
// first, then by prefix.
func CountSignals(vs []Verdict) []SignalCount {
	idx := map[string]int{}
	var out []SignalCount
	for _, v := range vs {
		for _, s := range v.Signals {
			p := s.Prefix()
			i, ok := idx[p]
			if !ok {
				i = len(out)
				idx[p] = i
				out = append(out, SignalCount{Signal: p, Name: s.Name})
			}
			out[i].Count++
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Signal < out[j].Signal
	})
	return out
}
