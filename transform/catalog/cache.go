package catalogrules

import (
	"crypto/sha256"
	"strconv"
	"strings"
	"sync"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog"
)

// A request's catalog is the same from turn to turn, so what the catalog
// rules derive from it (parsed skills, rendered blocks) is kept in a small
// cache keyed by the catalog's raw bytes and the settings that shape the
// result. Hashing the raw bytes costs far less than parsing and rendering.

const cacheEntries = 16

type cacheEntry struct {
	cats   []catalog.Embedded
	blocks []string // rendered replacement blocks, one per catalog
	stats  catalog.CompactStats
}

var catalogCache = struct {
	sync.Mutex
	m     map[[32]byte]*cacheEntry
	order [][32]byte
}{m: map[[32]byte]*cacheEntry{}}

// catalogKey hashes the raw bytes of every native catalog of c plus extra
// settings; ok is false when c has no catalog.
func catalogKey(c *capture.Capture, extra ...string) (key [32]byte, ok bool) {
	h := sha256.New()
	for _, s := range c.Segments() {
		if s.Kind == capture.SecCatalog {
			h.Write([]byte(strconv.Itoa(s.End - s.Start)))
			h.Write(s.Bytes(c.Doc))
			ok = true
		}
	}
	h.Write([]byte(strings.Join(extra, "\x00")))
	copy(key[:], h.Sum(nil))
	return key, ok
}

func cacheGet(key [32]byte) *cacheEntry {
	catalogCache.Lock()
	defer catalogCache.Unlock()
	return catalogCache.m[key]
}

func cachePut(key [32]byte, e *cacheEntry) {
	catalogCache.Lock()
	defer catalogCache.Unlock()
	if _, ok := catalogCache.m[key]; ok {
		return
	}
	if len(catalogCache.order) == cacheEntries {
		delete(catalogCache.m, catalogCache.order[0])
		catalogCache.order = catalogCache.order[1:]
	}
	catalogCache.m[key] = e
	catalogCache.order = append(catalogCache.order, key)
}

// withSpans returns the cached catalogs re-pointed at this capture's
// segments (same bytes, possibly other positions).
func withSpans(c *capture.Capture, cached []catalog.Embedded) []catalog.Embedded {
	out := make([]catalog.Embedded, 0, len(cached))
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
