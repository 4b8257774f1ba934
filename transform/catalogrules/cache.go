package catalogrules

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog"
)

// A request's catalog is the same from turn to turn, so what the catalog
// rules derive from it (parsed skills, rendered blocks, the prefetch
// snapshot and its search structures) is kept in a small cache keyed by the
// catalog's raw bytes. Each rule derives what it needs from an entry once
// per configuration. Hashing the raw bytes costs far less than parsing and
// rendering (capture.CatalogDigest: keyed with seeds drawn at start-up, so
// catalogs cannot be crafted to collide).

// The cache holds at most cacheEntries catalogs and, past its newest
// entry, at most cacheBytes of their text, the least recently used going
// first: a directory of captures from a few dozen sessions finds each
// session's catalog again, and a process never holds more than a few
// catalogs of 100,000 skills.
const (
	cacheEntries = 64
	cacheBytes   = 64 << 20
)

// cacheKey is 128 bits of keyed hash over a capture's native catalogs.
type cacheKey [16]byte

type cacheEntry struct {
	cats []embedded
	// size is the bytes of the catalogs' text, what the budget counts.
	size int

	// What the rules derive, by configuration (see the methods).
	mu      sync.Mutex
	groups  map[string][][]catalog.Skill
	all     map[string][]catalog.Skill
	compact map[string]compactResult
	snaps   map[string]*catalog.Snapshot
	browse  map[browseKey]*browseFacts
}

// browseKey is a configuration of the browse invariants: the exclusions
// and the card profile that applies (nil for none).
type browseKey struct {
	exclude string
	profile *catalog.Profile
}

// compactResult is SO101's rendering of the entry's catalogs: one block per
// catalog and the figures of the intents it kept.
type compactResult struct {
	blocks []string
	stats  catalog.CompactStats
	// quoted holds each block as the inside of a JSON string, what the
	// rule splices into the request: quoted once, not on every request.
	quoted [][]byte
}

var catalogCache = struct {
	sync.Mutex
	m map[cacheKey]*cacheEntry
	// order lists the keys from the least to the most recently used.
	order []cacheKey
	size  int
}{m: map[cacheKey]*cacheEntry{}}

// catalogKey is the key of c's native catalogs (capture.CatalogDigest);
// ok is false when c has none.
func catalogKey(c *capture.Capture) (cacheKey, bool) {
	sum, ok := c.CatalogDigest()
	return cacheKey(sum), ok
}

// DropCache releases every cached catalog: what the catalog rules derived
// from them is derived again on next use. A long-running process whose
// catalogs changed can give the memory back; a benchmark measures first
// requests.
func DropCache() {
	catalogCache.Lock()
	clear(catalogCache.m)
	catalogCache.order = nil
	catalogCache.size = 0
	catalogCache.Unlock()
}

// cacheGet returns the entry of key, or nil, and marks it used.
func cacheGet(key cacheKey) *cacheEntry {
	catalogCache.Lock()
	defer catalogCache.Unlock()
	e := catalogCache.m[key]
	if e != nil {
		touch(key)
	}
	return e
}

// touch moves key to the most recently used end of the order.
func touch(key cacheKey) {
	o := catalogCache.order
	if len(o) > 0 && o[len(o)-1] == key {
		return
	}
	for i, k := range o {
		if k == key {
			copy(o[i:], o[i+1:])
			o[len(o)-1] = key
			return
		}
	}
}

// entryFor returns the cache entry of c's native catalogs, parsing them on
// a miss, and the catalogs re-pointed at c's segments; nil when c has no
// native catalog.
func entryFor(c *capture.Capture) (*cacheEntry, []embedded) {
	key, ok := catalogKey(c)
	if !ok {
		return nil, nil
	}
	return entryOf(c, key)
}

// entryOf is entryFor for c's key.
func entryOf(c *capture.Capture, key cacheKey) (*cacheEntry, []embedded) {
	if e := cacheGet(key); e != nil {
		return e, withSpans(c, e.cats)
	}
	cats := fromCapture(c)
	size := 0
	for _, e := range cats {
		size += len(e.Text)
	}
	return cachePut(key, &cacheEntry{cats: cats, size: size}), cats
}

// cachePut stores e under key unless an entry is there already, and
// returns the stored entry.
func cachePut(key cacheKey, e *cacheEntry) *cacheEntry {
	catalogCache.Lock()
	defer catalogCache.Unlock()
	if old, ok := catalogCache.m[key]; ok {
		touch(key)
		return old
	}
	catalogCache.m[key] = e
	catalogCache.order = append(catalogCache.order, key)
	catalogCache.size += e.size
	for len(catalogCache.order) > 1 && (len(catalogCache.order) > cacheEntries || catalogCache.size > cacheBytes) {
		oldest := catalogCache.order[0]
		catalogCache.size -= catalogCache.m[oldest].size
		delete(catalogCache.m, oldest)
		catalogCache.order = slices.Delete(catalogCache.order, 0, 1)
	}
	return e
}

// withSpans returns the cached catalogs re-pointed at this capture's
// segments (same bytes, possibly other positions).
func withSpans(c *capture.Capture, cached []embedded) []embedded {
	out := make([]embedded, 0, len(cached))
	k := 0
	for _, s := range c.Segments() {
		if s.Kind == capture.SecCatalog && k < len(cached) {
			e := cached[k]
			e.Segment = s
			out = append(out, e)
			k++
		}
	}
	return out
}

// excludeKey identifies a list of excluded names.
func excludeKey(exclude []string) string { return strings.Join(exclude, "\x00") }

// compactBlocks returns SO101's blocks for the entry's catalogs and the
// figures of the intents they keep.
func (e *cacheEntry) compactBlocks(budget int, exclude []string) ([]string, catalog.CompactStats) {
	r := e.compactResult(budget, exclude)
	return r.blocks, r.stats
}

// compactResult returns SO101's rendering of the entry's catalogs,
// computing it on first use.
func (e *cacheEntry) compactResult(budget int, exclude []string) compactResult {
	key := strconv.Itoa(budget) + "\x00" + excludeKey(exclude)
	e.mu.Lock()
	defer e.mu.Unlock()
	if r, ok := e.compact[key]; ok {
		return r
	}
	var r compactResult
	r.blocks, r.stats = catalog.Compact(e.groupsLocked(exclude), budget)
	r.quoted = quoteBlocks(r.blocks)
	if e.compact == nil {
		e.compact = map[string]compactResult{}
	}
	e.compact[key] = r
	return r
}

// quoteBlocks returns each block as the inside of a JSON string.
func quoteBlocks(blocks []string) [][]byte {
	out := make([][]byte, len(blocks))
	for i, b := range blocks {
		q := capture.Quote(b)
		out[i] = q[1 : len(q)-1 : len(q)-1]
	}
	return out
}

// groupsLocked returns eligibleGroups of the entry's catalogs.
func (e *cacheEntry) groupsLocked(exclude []string) [][]catalog.Skill {
	key := excludeKey(exclude)
	if g, ok := e.groups[key]; ok {
		return g
	}
	g := eligibleGroups(e.cats, exclude)
	if e.groups == nil {
		e.groups = map[string][][]catalog.Skill{}
	}
	e.groups[key] = g
	return g
}

// eligible returns the eligible skills of every catalog of the entry, in
// order.
func (e *cacheEntry) eligible(exclude []string) []catalog.Skill {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.eligibleLocked(exclude)
}

func (e *cacheEntry) eligibleLocked(exclude []string) []catalog.Skill {
	key := excludeKey(exclude)
	if all, ok := e.all[key]; ok {
		return all
	}
	groups := e.groupsLocked(exclude)
	var all []catalog.Skill
	if len(groups) == 1 {
		all = groups[0]
	} else {
		for _, g := range groups {
			all = append(all, g...)
		}
	}
	if e.all == nil {
		e.all = map[string][]catalog.Skill{}
	}
	e.all[key] = all
	return all
}

// snapshot returns the snapshot SO103 ranks: the eligible skills without a
// profile. Its search structures are built by its first search and kept
// with it.
// browseFacts returns what paging through the entry's eligible skills
// shows under prof (see browseFactsOf), computing it on first use.
func (e *cacheEntry) browseFacts(exclude []string, prof *catalog.Profile) *browseFacts {
	key := browseKey{excludeKey(exclude), prof}
	e.mu.Lock()
	defer e.mu.Unlock()
	if f, ok := e.browse[key]; ok {
		return f
	}
	f := pageThrough(catalog.NewSnapshot(e.eligibleLocked(exclude), catalog.Options{Profile: prof}))
	if e.browse == nil {
		e.browse = map[browseKey]*browseFacts{}
	}
	e.browse[key] = f
	return f
}

func (e *cacheEntry) snapshot(exclude []string) *catalog.Snapshot {
	e.mu.Lock()
	defer e.mu.Unlock()
	key := excludeKey(exclude)
	if s, ok := e.snaps[key]; ok {
		return s
	}
	s := catalog.NewSnapshot(e.eligibleLocked(exclude), catalog.Options{})
	if e.snaps == nil {
		e.snaps = map[string]*catalog.Snapshot{}
	}
	e.snaps[key] = s
	return s
}
