package catalogrules

import (
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/bench/synth"
	"github.com/skillopt/skillopt/rules"
)

// TestCatalogCache: SO101 and SO103 share one entry per catalog, found
// again by a capture of the same bytes; DropCache forgets it; a capture
// without a catalog has no key.
func TestCatalogCache(t *testing.T) {
	body, err := synth.Capture("anthropic", synth.Skills(50, 7), 1)
	if err != nil {
		t.Fatal(err)
	}
	read := func() *capture.Capture {
		f, err := capture.Read("c.json", body, capture.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return f.Captures[0]
	}
	DropCache()
	c := read()
	res, err := rules.Run(c, []*rules.Rule{CompactIndex, prefetch}, nil)
	if err != nil || !res.Steps[0].Applied {
		t.Fatal("SO101 not applied", err)
	}
	key, ok := catalogKey(c)
	if !ok {
		t.Fatal("no key for a capture with a catalog")
	}
	e := cacheGet(key)
	if e == nil || len(e.snaps) != 1 || len(e.compact) != 1 {
		t.Fatalf("entry %+v: want SO101's blocks and SO103's snapshot in one entry", e)
	}
	// Another capture of the same bytes finds the same entry.
	if key2, _ := catalogKey(read()); key2 != key {
		t.Fatal("same catalog, another key")
	}
	if _, ok := catalogKey(res.Final); ok {
		t.Fatal("the compacted capture still has a catalog key")
	}
	DropCache()
	if cacheGet(key) != nil {
		t.Fatal("DropCache kept the entry")
	}
}
