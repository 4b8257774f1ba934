package lint

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/skillopt/skillopt/internal/atomicfile"
	"github.com/skillopt/skillopt/internal/untrusted"
)

// tokenCacheVersion names the file format and the counting it stores; a
// file of another version is ignored.
const tokenCacheVersion = "skillopt-lint-tokens/1"

// maxTokenCacheEntries bounds the cache file: entries used by the run come
// first, then older ones up to the bound.
const maxTokenCacheEntries = 50000

// tokenCache remembers the exact token count of SKILL.md bodies by their
// SHA-256, across runs: a pre-commit hook re-lints mostly unchanged files,
// and counting is most of a run's work. A missing, unreadable or foreign
// file is an empty cache; a failed save is ignored. Counts are exact
// either way.
type tokenCache struct {
	path string
	mu   sync.Mutex
	old  map[[16]byte]int
	used map[[16]byte]int
	// order keeps old entries in file order (most recently used first).
	order [][16]byte
	dirty bool
}

// openTokenCache reads the cache of an encoding in dir; dir "" disables
// caching (nil).
func openTokenCache(dir, encoding string) *tokenCache {
	if dir == "" {
		return nil
	}
	c := &tokenCache{path: filepath.Join(dir, "lint-tokens-"+encoding), old: map[[16]byte]int{}, used: map[[16]byte]int{}}
	data, err := readCapped(c.path, 8<<20)
	if err != nil {
		return c
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	if !sc.Scan() || sc.Text() != tokenCacheVersion+" "+encoding {
		return c
	}
	for sc.Scan() {
		key, count, ok := strings.Cut(sc.Text(), " ")
		var k [16]byte
		n, err := strconv.Atoi(count)
		if !ok || err != nil || n < 0 || len(key) != 32 {
			return &tokenCache{path: c.path, old: map[[16]byte]int{}, used: map[[16]byte]int{}}
		}
		if _, err := hex.Decode(k[:], []byte(key)); err != nil {
			return &tokenCache{path: c.path, old: map[[16]byte]int{}, used: map[[16]byte]int{}}
		}
		if _, dup := c.old[k]; !dup {
			c.old[k] = n
			c.order = append(c.order, k)
		}
	}
	return c
}

func bodyKey(body []byte) [16]byte {
	sum := sha256.Sum256(body)
	var k [16]byte
	copy(k[:], sum[:16])
	return k
}

// get returns the cached count of a body.
func (c *tokenCache) get(k [16]byte) (int, bool) {
	if c == nil {
		return 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if n, ok := c.used[k]; ok {
		return n, true
	}
	n, ok := c.old[k]
	if ok {
		c.used[k] = n
	}
	return n, ok
}

// put records a count.
func (c *tokenCache) put(k [16]byte, n int) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.used[k] = n
	c.dirty = true
}

// warm reports whether the cache holds any count (a cold cache means the
// tokenizer will be needed, so it is worth loading early).
func (c *tokenCache) warm() bool { return c != nil && len(c.old) > 0 }

// save writes the used entries, then older ones, atomically, when the run
// counted anything new.
func (c *tokenCache) save() error {
	if c == nil || !c.dirty {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	keys := make([][16]byte, 0, len(c.used))
	for k := range c.used {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return bytes.Compare(keys[i][:], keys[j][:]) < 0 })
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s\n", tokenCacheVersion, strings.TrimPrefix(filepath.Base(c.path), "lint-tokens-"))
	n := 0
	for _, k := range keys {
		fmt.Fprintf(&b, "%x %d\n", k, c.used[k])
		n++
	}
	for _, k := range c.order {
		if n >= maxTokenCacheEntries {
			break
		}
		if _, ok := c.used[k]; ok {
			continue
		}
		fmt.Fprintf(&b, "%x %d\n", k, c.old[k])
		n++
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(c.path, b.Bytes(), 0o644)
}

// readCapped reads at most limit bytes of a regular file.
func readCapped(name string, limit int64) ([]byte, error) {
	f, _, err := untrusted.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}
