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

// TestCatalogCacheBounds: the cache finds again each of more catalogs than
// the old 16 entries held when they come round in turn, keeps the one used
// last when a newer entry pushes the count or the bytes over the bounds,
// and always keeps the newest entry, however large.
func TestCatalogCacheBounds(t *testing.T) {
	keys := make([]cacheKey, 24)
	entry := func(i, size int) (cacheKey, *cacheEntry) {
		var k cacheKey
		k[0], k[1] = byte(i), byte(i>>8)
		return k, &cacheEntry{size: size}
	}
	DropCache()
	defer DropCache()
	for i := range keys {
		k, e := entry(i, 1000)
		keys[i] = k
		cachePut(k, e)
	}
	for round := range 2 {
		for i, k := range keys {
			if cacheGet(k) == nil {
				t.Fatalf("round %d: catalog %d of %d in turn evicted", round, i, len(keys))
			}
		}
	}
	// Over the count: the least recently used goes, not the first put.
	cacheGet(keys[0])
	for i := len(keys); i < cacheEntries+1; i++ {
		k, e := entry(i, 1000)
		cachePut(k, e)
	}
	if cacheGet(keys[0]) == nil {
		t.Error("the entry used last was evicted before older ones")
	}
	if cacheGet(keys[1]) != nil {
		t.Error("the least recently used entry survived past cacheEntries")
	}
	// Over the bytes: one huge entry evicts every other, and stays.
	k, e := entry(999, cacheBytes+1)
	cachePut(k, e)
	if cacheGet(k) == nil {
		t.Fatal("the newest entry was evicted")
	}
	if n := len(catalogCache.m); n != 1 {
		t.Errorf("%d entries beside one over the byte budget, want none", n-1)
	}
	if catalogCache.size != cacheBytes+1 {
		t.Errorf("size %d, want %d", catalogCache.size, cacheBytes+1)
	}
}
