package reviewdiff

import (
	"math/rand/v2"
	"testing"
)

// checkRuns verifies that runs match equal items of a and b in order and
// returns how many items they match.
func checkRuns(t testing.TB, a, b []uint32, runs []match) int {
	t.Helper()
	x, y, total := 0, 0, 0
	for _, r := range runs {
		if r.n <= 0 || r.x < x || r.y < y || r.x+r.n > len(a) || r.y+r.n > len(b) {
			t.Fatalf("run %+v out of order or range (after %d, %d; lengths %d, %d)", r, x, y, len(a), len(b))
		}
		for k := range r.n {
			if a[r.x+k] != b[r.y+k] {
				t.Fatalf("run %+v matches %d with %d", r, a[r.x+k], b[r.y+k])
			}
		}
		x, y = r.x+r.n, r.y+r.n
		total += r.n
	}
	return total
}

func seqSame(a, b []uint32) func(x, y int) bool {
	return func(x, y int) bool { return a[x] == b[y] }
}

func TestAlign(t *testing.T) {
	for _, tc := range []struct {
		name    string
		a, b    []uint32
		matched int
	}{
		{"equal", []uint32{1, 2, 3}, []uint32{1, 2, 3}, 3},
		{"empty", nil, []uint32{1, 2}, 0},
		{"insert in the middle", []uint32{1, 2, 3, 4}, []uint32{1, 2, 9, 3, 4}, 4},
		{"shift", []uint32{1, 2, 3}, []uint32{2, 3, 4}, 2},
		{"replace", []uint32{1, 2, 3}, []uint32{1, 7, 3}, 2},
		{"different", []uint32{1, 2, 3}, []uint32{4, 5, 6}, 0},
	} {
		al := alignSeqs(tc.a, tc.b, seqSame(tc.a, tc.b))
		if !al.ok {
			t.Errorf("%s: not aligned", tc.name)
			continue
		}
		if got := checkRuns(t, tc.a, tc.b, al.runs); got != tc.matched {
			t.Errorf("%s: %d items matched, want %d (%+v)", tc.name, got, tc.matched, al.runs)
		}
	}
}

// A match whose hashes are equal but whose items are not is dropped.
func TestAlignChecksMatches(t *testing.T) {
	a, b := []uint32{1, 5, 5, 5, 2}, []uint32{1, 5, 5, 5, 2}
	same := func(x, y int) bool { return x != 2 }
	al := alignSeqs(a, b, same)
	n := 0
	for _, r := range al.runs {
		for k := range r.n {
			if r.x+k == 2 {
				t.Fatalf("kept the false match: %+v", al.runs)
			}
		}
		n += r.n
	}
	if n != 4 {
		t.Fatalf("matched %d items, want 4: %+v", n, al.runs)
	}
}

// Myers' algorithm finds an alignment as long as the exact one.
func TestMyersIsShortest(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		a := randomSeq(r, r.IntN(40), 4)
		b := mutate(r, a, r.IntN(6), 4)
		budget := 1 << 30
		ms, ok := myers(a, b, &budget, budget)
		if !ok {
			t.Fatalf("myers gave up on %v %v", a, b)
		}
		if got, want := checkRuns(t, a, b, ms), checkRuns(t, a, b, exactLCS(a, b)); got != want {
			t.Fatalf("myers matched %d, the LCS is %d: %v %v", got, want, a, b)
		}
	}
}

// Long sequences with scattered edits align by anchors; sequences with
// nothing in common beyond alignMax do not align.
func TestAlignLong(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const n = 200_000
	a := make([]uint32, n)
	for k := range a {
		a[k] = uint32(k)
	}
	b := mutate(r, a, 3000, 1<<30)
	al := alignSeqs(a, b, seqSame(a, b))
	if !al.ok {
		t.Fatal("a few thousand edits in a long sequence did not align")
	}
	if got := checkRuns(t, a, b, al.runs); got < n-6000 {
		t.Fatalf("matched %d of %d", got, n)
	}
	c := make([]uint32, n)
	for k := range c {
		c[k] = uint32(n + k)
	}
	if al := alignSeqs(a, c, seqSame(a, c)); al.ok {
		t.Fatal("two long sequences with nothing in common aligned")
	}
	perm := make([]uint32, n)
	for k, p := range r.Perm(n) {
		perm[k] = uint32(p)
	}
	if al := alignSeqs(a, perm, seqSame(a, perm)); al.ok {
		t.Fatal("a long shuffled sequence aligned")
	}
}

func randomSeq(r *rand.Rand, n int, alphabet uint32) []uint32 {
	s := make([]uint32, n)
	for k := range s {
		s[k] = r.Uint32N(alphabet)
	}
	return s
}

// mutate applies edits random insertions, deletions and replacements.
func mutate(r *rand.Rand, s []uint32, edits int, alphabet uint32) []uint32 {
	out := append([]uint32(nil), s...)
	for range edits {
		p := r.IntN(len(out) + 1)
		switch r.IntN(3) {
		case 0:
			out = append(out[:p], append([]uint32{r.Uint32N(alphabet) + 1<<31}, out[p:]...)...)
		case 1:
			if p < len(out) {
				out = append(out[:p], out[p+1:]...)
			}
		default:
			if p < len(out) {
				out[p] = r.Uint32N(alphabet) + 1<<31
			}
		}
	}
	return out
}

// FuzzAlign: any alignment matches equal items in order, and one of two
// short sequences is as long as their longest common subsequence.
func FuzzAlign(f *testing.F) {
	f.Add([]byte{1, 2, 3}, []byte{1, 3})
	f.Add([]byte{}, []byte{5})
	f.Add([]byte{1, 1, 1, 1, 2}, []byte{2, 1, 1, 1, 1})
	f.Fuzz(func(t *testing.T, sa, sb []byte) {
		a, b := make([]uint32, len(sa)), make([]uint32, len(sb))
		for k, c := range sa {
			a[k] = uint32(c % 8)
		}
		for k, c := range sb {
			b[k] = uint32(c % 8)
		}
		al := alignSeqs(a, b, seqSame(a, b))
		if !al.ok {
			if len(a)+len(b) <= alignMax {
				t.Fatal("short sequences not aligned")
			}
			return
		}
		got := checkRuns(t, a, b, al.runs)
		if len(a)*len(b) <= exactCells {
			if want := checkRuns(t, a, b, exactLCS(a, b)); got != want {
				t.Fatalf("matched %d, the LCS is %d", got, want)
			}
		}
	})
}

func alignSeqs(a, b []uint32, same func(x, y int) bool) alignment {
	return align(len(a), len(b), func(x int) uint32 { return a[x] }, func(y int) uint32 { return b[y] }, same, false)
}
