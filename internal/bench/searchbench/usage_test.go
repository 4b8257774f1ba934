package searchbench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skillopt/skillopt/internal/golden"
	"github.com/skillopt/skillopt/transform/catalogrules"
)

// usageDir holds execution traces of the skills the tuning part asks for
// (grade 2), one run each: usage evidence for the held-out part that no
// held-out label made.
var usageDir = filepath.Join("testdata", "usage-tuning")

// usageTime is when the traces' runs finished.
var usageTime = time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)

// writeUsage writes usageDir from the set.
func writeUsage(t *testing.T, c *Corpus, set *Set) {
	seen := map[string]bool{}
	var names []string
	for _, q := range set.Queries {
		if q.HeldOut {
			continue
		}
		for k, g := range q.Relevant {
			if g == 2 && !seen[k] {
				seen[k] = true
				names = append(names, c.Snap.Skills[c.byKey[k]].Name)
			}
		}
	}
	slices.Sort(names)
	if err := os.RemoveAll(usageDir); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(usageDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, n := range names {
		data, err := json.MarshalIndent(map[string]any{"skillName": n, "timestamp": usageTime.UnixMilli(), "toolCalls": []any{}, "finalText": "done", "stoppedReason": "completed"}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(usageDir, fmt.Sprintf("%03d-%s.json", i, strings.ReplaceAll(n, "/", "_"))), append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestUsageEvidence measures the full ranking with the tuning part's
// skills as usage evidence. On the tuning part the gain is circular (the
// usage names the answers); the held-out part shows what it does to
// queries whose answers the usage may or may not name. The held-out
// metrics must not fall below those without usage.
func TestUsageEvidence(t *testing.T) {
	c := openCorpus(t)
	set, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if golden.Update() {
		writeUsage(t, c, set)
	}
	without, err := Run(c, set)
	if err != nil {
		t.Fatal(err)
	}
	u, errs := catalogrules.ReadUsage([]string{usageDir}, usageTime.Add(24*time.Hour))
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	c.Usage = u
	with, err := Run(c, set)
	c.Usage = nil
	if err != nil {
		t.Fatal(err)
	}
	// The held-out queries whose answers the usage names, and the others.
	for _, named := range []bool{true, false} {
		var mo, mw [2]float64
		n := 0
		for _, q := range set.Queries {
			in := false
			for k, g := range q.Relevant {
				in = in || g == 2 && u[c.Snap.Skills[c.byKey[k]].Name] > 0
			}
			if !q.HeldOut || in != named {
				continue
			}
			n++
			_, r1, _, _, rr := c.score(q, Full)
			mo[0], mo[1] = mo[0]+r1, mo[1]+rr
			c.Usage = u
			_, r1, _, _, rr = c.score(q, Full)
			c.Usage = nil
			mw[0], mw[1] = mw[0]+r1, mw[1]+rr
		}
		if n > 0 {
			t.Logf("held-out, answer used %v (%d queries): R@1 %.3f->%.3f MRR %.3f->%.3f", named, n, mo[0]/float64(n), mw[0]/float64(n), mo[1]/float64(n), mw[1]/float64(n))
		}
	}
	for i, w := range with.Metrics {
		o := without.Metrics[i]
		if w.Ranker != Full {
			continue
		}
		t.Logf("%s full: R@1 %.3f->%.3f R@3 %.3f->%.3f R@5 %.3f->%.3f MRR %.3f->%.3f nDCG %.3f->%.3f", w.Part, o.R1, w.R1, o.R3, w.R3, o.R5, w.R5, o.MRR, w.MRR, o.NDCG10, w.NDCG10)
		if w.Part == HeldOut && (w.R1 < o.R1-tolerance || w.MRR < o.MRR-tolerance || w.R5 < o.R5-tolerance) {
			t.Errorf("held-out with usage fell: %+v, without %+v", w, o)
		}
	}
}
