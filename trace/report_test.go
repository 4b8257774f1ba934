package trace

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// seq builds the summaries of one skill from a string of outcomes, oldest
// first: s success (clean), f likely failure (timeout, not clean), e likely
// failure with error markers (clean), u unknown (not clean).
func seq(skill, outcomes string) []Summary {
	var out []Summary
	for i, c := range outcomes {
		s := Summary{File: fmt.Sprintf("%s_%02d.json", skill, i), Skill: skill, Timestamp: int64(1000 * (i + 1))}
		switch c {
		case 's':
			s.Clean, s.StoppedReason, s.Verdict = true, "completed", Verdict{Success, nil, 0.9}
		case 'f':
			s.StoppedReason, s.Verdict = "timeout", Verdict{Failure, []Signal{{SigTimeout, "timeout — the run hit its time limit"}}, 0.6}
		case 'e':
			s.Clean, s.StoppedReason, s.Verdict = true, "completed", Verdict{Failure, []Signal{{SigErrorMarkers, "error markers in output (error)"}}, 0.6}
		case 'u':
			s.StoppedReason, s.Verdict = "length", Verdict{Unknown, nil, 0.3}
		}
		out = append(out, s)
	}
	return out
}

func outcomes(h History) string {
	var b strings.Builder
	for _, s := range h.Runs {
		c := map[Outcome]string{Success: "s", Failure: "f", Unknown: "u"}[s.Verdict.Outcome]
		if s.History == Regression {
			c = "R"
		}
		b.WriteString(c)
	}
	return b.String()
}

func TestHistories(t *testing.T) {
	sums := append(seq("b", "sfff"), seq("a", "sffefff")...)
	hs := Histories(sums, 10)
	if len(hs) != 2 || hs[0].Skill != "a" || hs[1].Skill != "b" {
		t.Fatalf("skills %v", hs)
	}
	// Newest first. a: only the newest failure ends a streak of three runs
	// that are not clean (the run with error markers is clean); the two
	// failures after the first success make a streak of two.
	if got := outcomes(hs[0]); got != "Rfffffs" {
		t.Errorf("a: %s, want Rfffffs", got)
	}
	if got := outcomes(hs[1]); got != "Rffs" {
		t.Errorf("b: %s, want Rffs", got)
	}
	// Ties in time are broken by file name, newest (largest) first.
	tie := []Summary{{File: "x_a.json", Skill: "x", Timestamp: 5}, {File: "x_b.json", Skill: "x", Timestamp: 5}}
	if h := Histories(tie, 10); h[0].Runs[0].File != "x_b.json" {
		t.Errorf("tie order %v", h[0].Runs)
	}
}

func TestReport(t *testing.T) {
	hs := Histories(append(seq("a", "ssssffuffs"+"ffs"), seq("b", "s")...), 10)
	rep := Report(hs, ReportOptions{MaxTraces: 10, Inline: 4})
	if len(rep) != 2 {
		t.Fatalf("%d skills", len(rep))
	}
	a := rep[0]
	if a.Traces != 10 || a.Total != 13 || len(a.Recent) != 4 || a.More != 6 {
		t.Errorf("a: traces %d total %d recent %d more %d", a.Traces, a.Total, len(a.Recent), a.More)
	}
	// The newest ten, newest first: s f f s f f u f f s, where the fifth
	// and sixth end streaks of five and four runs that are not clean.
	// Those two keep their own outcome; their history counts apart.
	want := map[Outcome]int{Success: 3, Failure: 6, Unknown: 1}
	if !reflect.DeepEqual(a.Outcomes, want) || a.Regressions != 2 {
		t.Errorf("outcomes %v, regressions %d, want %v and 2", a.Outcomes, a.Regressions, want)
	}
	if got := fmt.Sprint(a.Signals); got != "[{timeout timeout 6}]" {
		t.Errorf("signals %s", got)
	}
	tr := a.Trend
	if tr == nil || tr.Newer != (Rate{5, 2, 40}) || tr.Older != (Rate{5, 1, 20}) || tr.Last != (Rate{5, 2, 40}) || tr.Direction != "up" {
		t.Errorf("trend %+v", tr)
	}
	if b := rep[1]; b.Trend != nil || b.Traces != 1 || b.More != 0 {
		t.Errorf("b: %+v", b)
	}
	// An odd count: the newer half is the smaller one.
	odd := Report(Histories(seq("c", "ssf"), 10), ReportOptions{MaxTraces: 10, Inline: 5})[0].Trend
	if odd.Newer.Runs != 1 || odd.Older.Runs != 2 || odd.Direction != "down" || odd.Last.Runs != 3 {
		t.Errorf("odd trend %+v", odd)
	}
	flat := Report(Histories(seq("c", "sfsf"), 10), ReportOptions{MaxTraces: 10})[0].Trend
	if flat.Direction != "flat" {
		t.Errorf("flat trend %+v", flat)
	}
	if only := Report(hs, ReportOptions{Skill: "b", MaxTraces: 10, Inline: 5}); len(only) != 1 || only[0].Skill != "b" {
		t.Errorf("--skill b: %v", only)
	}
	if none := Report(hs, ReportOptions{Skill: "zz", MaxTraces: 10}); len(none) != 0 {
		t.Errorf("unknown skill: %v", none)
	}
	if inl := Report(hs, ReportOptions{MaxTraces: 3, Inline: 0})[0]; len(inl.Recent) != 0 || inl.More != 3 {
		t.Errorf("--inline 0: %d recent, %d more", len(inl.Recent), inl.More)
	}
}

func TestCountSignals(t *testing.T) {
	v := func(labels ...string) Verdict {
		var s []Signal
		for _, l := range labels {
			s = append(s, Signal{Name: "n", Label: l})
		}
		return Verdict{Failure, s, 0.6}
	}
	got := CountSignals([]Verdict{
		v("timeout — x", "high tool-call count (28 calls, threshold 20)"),
		v("timeout — x", "high tool-call count (22 calls, threshold 20)"),
		v("timeout — x", "empty output — y"),
	})
	want := []SignalCount{{"timeout", "n", 3}, {"high tool-call count", "n", 2}, {"empty output", "n", 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CountSignals = %v, want %v", got, want)
	}
}

func TestAlerts(t *testing.T) {
	tests := []struct {
		name                string
		outcomes            string // oldest first
		consecutive, window int
		want                int // alert count, 0 for none
	}{
		{"two failures", "sff", 3, 10, 0},
		{"three failures", "sfff", 3, 10, 3},
		{"four failures", "sffff", 3, 10, 4},
		{"unknown counts as not a success", "sfuf", 3, 10, 3},
		{"never succeeded", "fff", 3, 10, 0},
		{"newest is a success", "fffs", 3, 10, 0},
		{"success the last run in the window", "sffff", 3, 4, 4},
		{"success just outside the window", "sfffff", 3, 4, 0},
		{"consecutive 1", "sf", 1, 10, 1},
		{"default window", "s" + strings.Repeat("f", 10), 3, 0, 10},
		{"default window, success eleventh", "s" + strings.Repeat("f", 11), 3, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			al := Alerts(Histories(seq("x", tc.outcomes), 10), AlertOptions{Consecutive: tc.consecutive, Window: tc.window})
			got := 0
			if len(al) > 0 {
				got = al[0].Count
			}
			if got != tc.want {
				t.Fatalf("alert count %d, want %d", got, tc.want)
			}
			if got > 0 {
				a := al[0]
				if a.LastSuccess.Verdict.Outcome != Success || a.Newest.File != fmt.Sprintf("x_%02d.json", len(tc.outcomes)-1) {
					t.Errorf("alert %+v", a)
				}
			}
		})
	}
	al := Alerts(Histories(seq("x", "sfff"), 10), AlertOptions{Consecutive: 3, Window: 10})
	if got := fmt.Sprint(al[0].Signals); got != "[{timeout timeout 3}]" {
		t.Errorf("signals %s", got)
	}
}

func TestCooldown(t *testing.T) {
	now := time.Date(2026, 5, 11, 12, 0, 0, 0, time.UTC)
	alerts := []Alert{{Skill: "a", Count: 3}, {Skill: "b", Count: 3}, {Skill: "c", Count: 3}}
	st := State{LastAlert: map[string]time.Time{
		"a":     now.Add(-24*time.Hour + time.Second), // within the cooldown
		"b":     now.Add(-24 * time.Hour),             // exactly the cooldown ago
		"other": now.Add(-time.Hour),
	}}
	fire, held, next := Cooldown(alerts, st, 24*time.Hour, now)
	if len(fire) != 2 || fire[0].Skill != "b" || fire[1].Skill != "c" {
		t.Errorf("fire %v", fire)
	}
	if len(held) != 1 || held[0].Skill != "a" || !held[0].Until.Equal(now.Add(time.Second)) {
		t.Errorf("held %v", held)
	}
	if !next.LastAlert["b"].Equal(now) || !next.LastAlert["c"].Equal(now) || !next.LastAlert["a"].Equal(st.LastAlert["a"]) || len(next.LastAlert) != 4 {
		t.Errorf("next state %v", next.LastAlert)
	}
	if !st.LastAlert["b"].Equal(now.Add(-24 * time.Hour)) {
		t.Error("Cooldown modified its input state")
	}
	// A zero cooldown never holds back.
	if fire, _, _ := Cooldown(alerts, st, 0, now); len(fire) != 3 {
		t.Errorf("zero cooldown fires %d", len(fire))
	}
}

func TestState(t *testing.T) {
	st := State{LastAlert: map[string]time.Time{"b": time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), "a": time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("x", 3600))}}
	data := st.Marshal()
	want := "{\n  \"version\": 1,\n  \"last_alert\": {\n    \"a\": \"2025-12-31T23:00:00Z\",\n    \"b\": \"2026-01-02T03:04:05Z\"\n  }\n}\n"
	if string(data) != want {
		t.Errorf("Marshal =\n%s\nwant\n%s", data, want)
	}
	back, err := ReadState("s.json", data)
	if err != nil || len(back.LastAlert) != 2 || !back.LastAlert["a"].Equal(st.LastAlert["a"]) {
		t.Errorf("ReadState = %v, %v", back, err)
	}
	for src, msg := range map[string]string{
		`[]`:                                   "s.json:1:1: alert state is an array, not an object",
		`{"version":2,"last_alert":{}}`:        "s.json:1:12: alert state version 2 is not supported",
		`{"version":1}`:                        `s.json:1:1: alert state has no "last_alert"`,
		`{"version":1,"last_alert":{"a":1}}`:   `s.json:1:32: last alert of "a" is a number, want a time string`,
		`{"version":1,"last_alert":{"a":"x"}}`: `s.json:1:32: last alert of "a" is not an RFC 3339 time`,
		`{"version":1,`:                        "s.json:1:14: ",
	} {
		if _, err := ReadState("s.json", []byte(src)); err == nil || !strings.HasPrefix(err.Error(), msg) {
			t.Errorf("ReadState(%s) = %v, want %q", src, err, msg)
		}
	}
}

func writeTrace(t *testing.T, dir, skill string, ts int64) string {
	t.Helper()
	p := filepath.Join(dir, fmt.Sprintf("%s_%d.json", skill, ts))
	src := fmt.Sprintf(`{"skillName":%q,"timestamp":%d,"toolCalls":[],"finalText":"ok","stoppedReason":"completed"}`, skill, ts)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPrune(t *testing.T) {
	dir := t.TempDir()
	for ts := int64(1); ts <= 4; ts++ {
		writeTrace(t, dir, "a", ts)
	}
	writeTrace(t, dir, "b", 9)
	// The file name says a, the content says b: the content decides.
	os.WriteFile(filepath.Join(dir, "a_0.json"), []byte(`{"skillName":"b","timestamp":1,"toolCalls":[],"finalText":"","stoppedReason":"timeout"}`), 0o644)
	bad := filepath.Join(dir, "a_5.json")
	os.WriteFile(bad, []byte(`{"skillName":"a","timestamp":5`), 0o644)
	os.WriteFile(filepath.Join(dir, "session.jsonl"), []byte(`{"type":"session"}`), 0o644)
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	writeTrace(t, filepath.Join(dir, "sub"), "a", 0)
	os.Symlink(filepath.Join(dir, "a_1.json"), filepath.Join(dir, "a_link.json"))

	p := PlanPrune(dir, 2)
	files := func(es []PruneEntry) string {
		var out []string
		for _, e := range es {
			out = append(out, filepath.Base(e.File))
		}
		return strings.Join(out, " ")
	}
	if got := files(p.Keep); got != "a_4.json a_3.json b_9.json a_0.json" {
		t.Errorf("keep %s", got)
	}
	if got := files(p.Delete); got != "a_2.json a_1.json" {
		t.Errorf("delete %s", got)
	}
	if len(p.Errors) != 1 || !strings.Contains(p.Errors[0].Error(), "a_5.json:1:31: unexpected end of input") {
		t.Errorf("errors %v", p.Errors)
	}
	// A planned file that changed in between is left alone.
	os.WriteFile(filepath.Join(dir, "a_1.json"), []byte(`{"skillName":"a","timestamp":1,"toolCalls":[],"finalText":"changed","stoppedReason":"completed"}`), 0o644)
	deleted, errs := p.Apply()
	if files(deleted) != "a_2.json" || len(errs) != 1 || !strings.Contains(errs[0].Error(), "changed since it was read") {
		t.Errorf("deleted %s, errors %v", files(deleted), errs)
	}
	for _, keep := range []string{"a_1.json", "a_3.json", "a_4.json", "a_5.json", "a_0.json", "b_9.json", "session.jsonl", "a_link.json", filepath.Join("sub", "a_0.json")} {
		if _, err := os.Lstat(filepath.Join(dir, keep)); err != nil {
			t.Errorf("%s: %v", keep, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "a_2.json")); err == nil {
		t.Error("a_2.json was not deleted")
	}
	if p := PlanPrune(filepath.Join(dir, "missing"), 2); len(p.Errors) != 1 {
		t.Errorf("missing dir: %v", p.Errors)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	for ts := int64(1); ts <= 30; ts++ {
		writeTrace(t, dir, fmt.Sprintf("s%d", ts%3), ts)
	}
	os.WriteFile(filepath.Join(dir, "zz.json"), []byte(`{`), 0o644)
	paths, errs := Expand([]string{dir, filepath.Join("testdata", "sessions")})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	sums, errs := Load(paths, nil, Options{})
	if len(sums) != 34 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "zz.json:1:2: unexpected end of input") {
		t.Errorf("%d summaries, errors %v", len(sums), errs)
	}
	for i := 1; i < 30; i++ {
		if sums[i-1].File > sums[i].File {
			t.Errorf("summaries out of path order: %s before %s", sums[i-1].File, sums[i].File)
		}
	}
}
