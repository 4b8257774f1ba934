package trace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The fuzz targets' inputs are capped: the readers are linear, and large
// inputs only slow the search down.
const fuzzMax = 1 << 16

func FuzzReadTrace(f *testing.F) {
	f.Add([]byte(goodTrace))
	f.Add([]byte(`{"skillName":"s","timestamp":1,"toolCalls":[{"toolName":"t","args":{"a":[1,"\u00e9"]},"resultPreview":"\ud83d\ude00 [...truncated, 12 total chars]","isError":true}],"finalText":"Error","stoppedReason":"timeout"}`))
	f.Add([]byte(`{"skillName":"s","timestamp":-1.5e3,"route":{"confidence":0.49},"toolCalls":[],"finalText":" ","stoppedReason":"completed"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > fuzzMax {
			return
		}
		r, err := ReadTrace("f.json", data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.File != "f.json" || !strings.HasPrefix(err.Error(), "f.json") {
				t.Fatalf("error %v (%T) does not name the file", err, err)
			}
			if r != nil {
				t.Fatal("a run and an error")
			}
			return
		}
		if blank(r.Skill) || r.Source != SourceTrace {
			t.Fatalf("run %+v", r)
		}
		for i, c := range r.Calls {
			if c.Index != i || c.ResultChars < 0 || c.TotalChars < 0 {
				t.Fatalf("call %d: %+v", i, c)
			}
		}
		checkRun(t, r)
	})
}

func FuzzReadSession(f *testing.F) {
	for _, name := range []string{"flaky-v1.jsonl"} {
		data, err := os.ReadFile(filepath.Join("testdata", "sessions", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("{\"type\":\"session\"}\r\n{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"/skill:a\"}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > fuzzMax {
			return
		}
		runs, err := ReadSession("f.jsonl", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.jsonl") {
				t.Fatalf("error %v does not name the file", err)
			}
			return
		}
		for i, r := range runs {
			if r.File != fmt.Sprintf("f.jsonl#%d", i+1) || r.Source != SourceSession || skillName(r.Skill) == "" {
				t.Fatalf("run %d: %+v", i+1, r)
			}
			checkRun(t, r)
		}
	})
}

func FuzzReadState(f *testing.F) {
	f.Add([]byte(`{"version":1,"last_alert":{"a":"2026-01-01T00:00:00Z","b":"2026-05-11T09:30:00.5+02:00"}}`))
	f.Add([]byte(`{"version":1,"last_alert":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > fuzzMax {
			return
		}
		st, err := ReadState("s.json", data)
		if err != nil {
			return
		}
		// What reads must survive a round trip.
		back, err := ReadState("s.json", st.Marshal())
		if err != nil || len(back.LastAlert) != len(st.LastAlert) {
			t.Fatalf("round trip: %v, %d of %d", err, len(back.LastAlert), len(st.LastAlert))
		}
		for k, v := range st.LastAlert {
			if !back.LastAlert[k].Equal(v) {
				t.Fatalf("%s: %v became %v", k, v, back.LastAlert[k])
			}
		}
	})
}

// checkRun classifies and lays out a run that was read, checking what must
// hold of any verdict.
func checkRun(t *testing.T, r *Run) {
	t.Helper()
	for _, o := range []Options{{}, {Disabled: allOff, AllowedProviders: []string{"x"}}} {
		v := Classify(r, o)
		switch {
		case v.Outcome == Failure && len(v.Signals) == 0,
			v.Outcome != Failure && len(v.Signals) != 0,
			v.Confidence <= 0 || v.Confidence > 1:
			t.Fatalf("verdict %+v", v)
		}
		for _, s := range v.Signals {
			if s.Prefix() == "" || s.Name == "" {
				t.Fatalf("signal %+v", s)
			}
		}
		if j, n := JudgeHistory(v, false, []bool{false, true}, 10); j != NoRegression || n != 0 {
			t.Fatalf("two runs judged a regression: %s %d", j, n)
		}
	}
	vw := ViewOf(r, Options{})
	if len(vw.Calls) != len(r.Calls) || vw.DurationMs < 0 {
		t.Fatalf("view %+v", vw)
	}
	for _, c := range vw.Calls {
		if len([]rune(c.Args)) > ArgsChars || c.OffsetMs < 0 {
			t.Fatalf("view call %+v", c)
		}
	}
}
