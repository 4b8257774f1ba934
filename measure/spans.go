package measure

import (
	"hash/maphash"
	"sync"
)

// spanCounter wraps c so that one measurement counts each distinct text
// once: the after-image of every applied step repeats most texts of the
// capture, and the rules' details count texts of the result again (the
// compact catalog is counted by SO101's after-image and by SO102's
// report). Texts are remembered by a 128-bit content hash and their
// length, not kept, so that the texts of the original capture can be
// collected as soon as they are counted.
func spanCounter(c Counter) Counter {
	if c == nil {
		return nil
	}
	if _, ok := c.(*memoCounter); ok {
		return c
	}
	return &memoCounter{c: c, seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}, n: map[spanKey]int{}}
}

type spanKey struct {
	h0, h1 uint64
	n      int
}

type memoCounter struct {
	c     Counter
	seeds [2]maphash.Seed
	mu    sync.Mutex
	n     map[spanKey]int
}

func (m *memoCounter) key(t string) spanKey {
	return spanKey{maphash.String(m.seeds[0], t), maphash.String(m.seeds[1], t), len(t)}
}

// CountAll counts the texts not counted before and looks up the others.
func (m *memoCounter) CountAll(texts []string) []int {
	out := make([]int, len(texts))
	keys := make([]spanKey, len(texts))
	var todo []string
	var at []int
	for i, t := range texts {
		keys[i] = m.key(t)
	}
	m.mu.Lock()
	for i, t := range texts {
		if n, ok := m.n[keys[i]]; ok {
			out[i] = n
			continue
		}
		todo = append(todo, t)
		at = append(at, i)
	}
	m.mu.Unlock()
	if len(todo) == 0 {
		return out
	}
	counts := m.c.CountAll(todo)
	m.mu.Lock()
	for k, n := range counts {
		out[at[k]] = n
		m.n[keys[at[k]]] = n
	}
	m.mu.Unlock()
	return out
}
