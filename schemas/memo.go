package schemas

import (
	"bytes"
	"hash/maphash"
	"sync"
)

// A session sends its history again on every request, and the engine
// validates a body once per transform step: most array elements a request
// holds (messages, content blocks, tool declarations) have been validated
// before, byte for byte. Validity is a function of the element's bytes and
// the schema applied to it (the view's flags aside, which the memo leaves
// out), so an element whose exact bytes a schema accepted before is
// accepted again without evaluating it. The memo keeps a copy of each
// element and compares it with the new bytes: a hit is exact, never a
// hash match alone. Failures are never remembered, so every error is
// always found and positioned by evaluation.
//
// The key hashes the element's length and a sample of its bytes, not all
// of them: the comparison reads every byte anyway, and a second pass to
// hash them cost as much again. Two elements that share a key (same
// length, same sampled bytes) take turns in the memo; neither is ever
// taken for the other.

const (
	// memoMinBytes: smaller elements are cheaper to evaluate than to
	// hash and compare.
	memoMinBytes = 256
	// memoMaxEntry and memoMaxBytes bound one copy and all of them; a
	// full memo starts again empty.
	memoMaxEntry = 4 << 20
	memoMaxBytes = 32 << 20
)

type memoKey struct {
	s    *schema
	hash uint64
}

type validMemo struct {
	mu    sync.Mutex
	seed  maphash.Seed
	m     map[memoKey][]byte
	bytes int
	hits  int // read by tests
}

var memo = &validMemo{seed: maphash.MakeSeed()}

// evalElem is eval for an element of an array, through the memo.
func (e *evaluator) evalElem(s *schema, v vnode) []leaf {
	if e.gemini || e.budget > 0 || v.wrap || v.elem || v.opaque {
		return e.eval(s, v)
	}
	raw := e.d.Raw(v.i)
	if len(raw) < memoMinBytes || len(raw) > memoMaxEntry {
		return e.eval(s, v)
	}
	k := memoKey{s, memo.sampleHash(raw)}
	if memo.has(k, raw) {
		return nil
	}
	ls := e.eval(s, v)
	if ls == nil {
		memo.add(k, raw)
	}
	return ls
}

// memoSample is how many bytes the key hashes at each end of an element,
// and at each of memoProbes places between them.
const (
	memoSample = 32
	memoProbes = 16
)

// sampleHash hashes the length of raw and a sample of its bytes: its
// first and last memoSample bytes and eight at each of memoProbes evenly
// spaced places. raw has at least memoMinBytes bytes.
func (m *validMemo) sampleHash(raw []byte) uint64 {
	var h maphash.Hash
	h.SetSeed(m.seed)
	var n [8]byte
	for i := range n {
		n[i] = byte(len(raw) >> (8 * i))
	}
	h.Write(n[:])
	h.Write(raw[:memoSample])
	h.Write(raw[len(raw)-memoSample:])
	step := (len(raw) - 8) / (memoProbes + 1)
	for k := 1; k <= memoProbes; k++ {
		h.Write(raw[k*step : k*step+8])
	}
	return h.Sum64()
}

// hitCount is the number of hits so far, for tests.
func (m *validMemo) hitCount() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.hits
}

func (m *validMemo) has(k memoKey, raw []byte) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if b, ok := m.m[k]; ok && bytes.Equal(b, raw) {
		m.hits++
		return true
	}
	return false
}

func (m *validMemo) add(k memoKey, raw []byte) {
	cp := bytes.Clone(raw)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil || m.bytes+len(cp) > memoMaxBytes {
		m.m, m.bytes = map[memoKey][]byte{}, 0
	}
	if old, ok := m.m[k]; ok {
		m.bytes -= len(old)
	}
	m.m[k] = cp
	m.bytes += len(cp)
}
