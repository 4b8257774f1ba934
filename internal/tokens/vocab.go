package tokens

import (
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/tiktoken-go/tokenizer"
)

// encoding holds the lazily loaded data of one supported encoding. The
// vocabulary is shared by all counters of the encoding and is read-only once
// loaded.
type encoding struct {
	name  string
	lib   tokenizer.Encoding
	o200k bool // o200k_base split pattern; cl100k_base otherwise

	once     sync.Once
	ranks    map[string]uint         // token bytes -> rank (= token id)
	pairs    *[1 << 16]atomic.Uint32 // see pairRank
	shared   bool                    // ranks is the library's own map
	loadTime time.Duration
	err      error
}

var encodings = []*encoding{
	{name: "o200k_base", lib: tokenizer.O200kBase, o200k: true},
	{name: "cl100k_base", lib: tokenizer.Cl100kBase},
}

// load makes the vocabulary and the character tables available. It runs the
// library's vocabulary initialisation once per encoding.
func (e *encoding) load() {
	e.prepare()
	if e.err != nil {
		panic(e.err)
	}
}

func (e *encoding) prepare() {
	e.once.Do(func() {
		start := time.Now()
		tablesOnce.Do(initTables)
		cd, err := tokenizer.Get(e.lib)
		if err != nil {
			e.err = fmt.Errorf("tokens: loading %s: %w", e.name, err)
			return
		}
		if m := libraryRanks(cd); m != nil {
			e.ranks, e.shared = m, true
		} else {
			e.ranks = decodeRanks(cd)
		}
		e.pairs = new([1 << 16]atomic.Uint32)
		if e.err == nil && len(e.ranks) < 256 {
			e.err = fmt.Errorf("tokens: %s: vocabulary has %d entries", e.name, len(e.ranks))
		}
		e.loadTime = time.Since(start)
	})
}

// libraryRanks returns the codec's own token-to-rank map, which the library
// builds from its embedded vocabulary and never modifies afterwards. Reading
// it avoids building a second copy of a 200,000-entry map. It returns nil if
// the codec does not have the expected layout, in which case decodeRanks is
// used instead.
func libraryRanks(cd tokenizer.Codec) map[string]uint {
	v := reflect.ValueOf(cd)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	f := v.Elem().FieldByName("vocabulary")
	if !f.IsValid() || f.Kind() != reflect.Map ||
		f.Type().Key().Kind() != reflect.String || f.Type().Elem().Kind() != reflect.Uint ||
		f.Type().Key().PkgPath() != "" || f.Type().Elem().PkgPath() != "" {
		return nil
	}
	m := *(*map[string]uint)(unsafe.Pointer(f.UnsafeAddr()))
	if len(m) == 0 {
		return nil
	}
	return m
}

// decodeRanks rebuilds the token-to-rank map through the codec's exported
// Decode, one token id at a time. Ids of ordinary tokens are dense from 0.
func decodeRanks(cd tokenizer.Codec) map[string]uint {
	m := make(map[string]uint, 1<<17)
	ids := []uint{0}
	for id := uint(0); ; id++ {
		ids[0] = id
		s, err := cd.Decode(ids)
		if err != nil || s == "" {
			break
		}
		m[s] = id
	}
	return m
}
