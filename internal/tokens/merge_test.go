package tokens

import "testing"

// TestMergeTable: both encodings merge through the table of pair ranks,
// and its answers are the vocabulary's, for pairs met again and for pairs
// that share a slot.
func TestMergeTable(t *testing.T) {
	for _, name := range encodingNames {
		c, _ := New(name)
		c.init()
		e := c.enc
		if e.merges == nil {
			t.Fatalf("%s: no merge table", name)
		}
		for b := range 256 {
			if got, want := e.byteRank[b], e.rankOf(string([]byte{byte(b)})); got != want {
				t.Fatalf("%s: byteRank[%d] = %d, want %d", name, b, got, want)
			}
		}
		// 300 x 300 pairs, more than the table has slots, twice: answers
		// first looked up, then remembered or replaced by another pair.
		const n = 300
		for range 2 {
			for a := uint32(0); a < n; a++ {
				for b := uint32(0); b < n; b++ {
					s := e.vocab.token(a) + e.vocab.token(b)
					if got, want := e.mergeRank(a, b, s), e.rankOf(s); got != want {
						t.Fatalf("%s: mergeRank(%d, %d) = %d, want %d", name, a, b, got, want)
					}
				}
			}
		}
	}
}
