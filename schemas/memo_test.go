package schemas

import (
	"bytes"
	"strings"
	"testing"
)

// memoBody is an Anthropic request whose message is long enough for the
// memo; text fills its content.
func memoBody(text, role string) []byte {
	return []byte(`{"model":"claude-sonnet-4-5","max_tokens":100,"messages":[{"role":"` + role + `","content":[{"type":"text","text":"` + text + `"}]}]}`)
}

// TestMemoRemembersOnlyWhatWasValid: an element validated once is not
// evaluated again, but a changed element is, and an invalid one is always
// reported, however often it comes.
func TestMemoRemembersOnlyWhatWasValid(t *testing.T) {
	text := strings.Repeat("a long history turn ", 30)
	valid := memoBody(text, "user")
	check := func(body []byte) []Error {
		t.Helper()
		errs, err := Validate("anthropic", body)
		if err != nil {
			t.Fatal(err)
		}
		return errs
	}
	if errs := check(valid); len(errs) != 0 {
		t.Fatalf("valid body: %v", errs)
	}
	before := memo.hitCount()
	if errs := check(valid); len(errs) != 0 {
		t.Fatalf("valid body, again: %v", errs)
	}
	if memo.hitCount() == before {
		t.Error("the same message validated twice was evaluated twice")
	}
	// The same length and almost the same bytes: evaluated, and refused.
	bad := memoBody(text, "usex")
	for range 2 {
		if errs := check(bad); len(errs) == 0 {
			t.Fatal("a message with an unknown role passed")
		}
	}
}

// TestMemoComparesBytes: a hit needs the very bytes, not only their hash.
func TestMemoComparesBytes(t *testing.T) {
	m := &validMemo{}
	k := memoKey{s: &schema{}, hash: 42}
	m.add(k, []byte(`{"role":"user"}`))
	if m.has(k, []byte(`{"role":"xxxx"}`)) {
		t.Error("different bytes under the same key were taken as seen")
	}
	if !m.has(k, []byte(`{"role":"user"}`)) {
		t.Error("the same bytes were not found")
	}
	if m.has(memoKey{s: &schema{}, hash: 42}, []byte(`{"role":"user"}`)) {
		t.Error("the same bytes under another schema were taken as seen")
	}
}

// TestMemoSampleKey: elements that differ only between the sampled bytes
// share a key, and the bytes still tell them apart.
func TestMemoSampleKey(t *testing.T) {
	m := &validMemo{seed: memo.seed}
	a := []byte(`{"role":"user","content":"` + strings.Repeat("x", 1000) + `"}`)
	b := bytes.Clone(a)
	b[len(b)/2+3]++ // between two probes
	if m.sampleHash(a) != m.sampleHash(b) {
		t.Fatal("a byte between the probes changed the key")
	}
	c := bytes.Clone(a)
	c[len(c)-5]++ // in the sampled tail
	if m.sampleHash(a) == m.sampleHash(c) {
		t.Fatal("a sampled byte did not change the key")
	}
	if m.sampleHash(a) == m.sampleHash(a[:len(a)-1]) {
		t.Fatal("the length did not change the key")
	}
	s := &schema{}
	m.add(memoKey{s, m.sampleHash(a)}, a)
	if m.has(memoKey{s, m.sampleHash(b)}, b) {
		t.Fatal("an element sharing a key was taken for the one remembered")
	}
	if !m.has(memoKey{s, m.sampleHash(a)}, a) {
		t.Fatal("the remembered element was not found")
	}
}
