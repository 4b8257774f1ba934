package tokens

import "hash/maphash"

// Long pieces. The split patterns leave runs of letters, of punctuation and
// of white space unbounded, so one piece can be megabytes long ("-----…",
// "[{},{},…]", "aaaa…"), and merging it whole costs O(n log n) time and
// about 20 bytes of working memory per byte. A piece longer than
// pieceWindow is therefore encoded in windows, each at most pieceWindow
// bytes long:
//
//   - merge the first pieceWindow bytes of what is left of the piece as if
//     they were the whole piece;
//   - keep the tokens of the result that end at most windowKeep bytes into
//     the window (at least one token), and count them;
//   - go on from the end of the last token kept.
//
// What is left once it fits one window is merged whole. Time and memory are
// linear in the length of the piece, and identical windows (long runs of
// one character, or of a short pattern, repeat the same window again and
// again) are merged once per piece.
//
// The count is exact when each position where the kept tokens of a window
// end is also a token boundary of the piece merged whole: merging never
// joins parts across a boundary of its result, so the merges on either side
// of it happen in the same order as when each side is merged alone, and
// the counts add up. Merging a window differs from merging the whole piece
// only through the merges that would have joined its last part with the
// text after the window; such a difference changes the kept tokens only if
// it carries back over more than windowMargin bytes (four times the longest
// token, 128 bytes in both encodings) through a chain of merges, each made
// possible by the one before. Runs of one character or of a short pattern,
// and the long pieces of ordinary text, have no such chain: the tests check
// them against merging whole, with windows much smaller than these. A count
// may differ from the reference only for a piece longer than pieceWindow
// bytes made to have such a chain. The library the package follows merges
// every piece whole, in O(n log n) time and linear but large memory.
const (
	pieceWindow  = 4096
	windowMargin = 512
	windowKeep   = pieceWindow - windowMargin
)

// bpeWindowed counts the tokens of a piece longer than window bytes as
// described above, keeping the tokens that end within keep bytes of each
// window.
func bpeWindowed(e *encoding, piece string, window, keep int) int {
	total := 0
	var sc *mergeScratch
	var memo windowMemo
	for len(piece) > window {
		win := piece[:window]
		h := maphash.String(memoSeed, win)
		m := &memo[h%uint64(len(memo))]
		if m.hash != h || m.key != win {
			if sc == nil {
				sc = scratchPool.Get().(*mergeScratch)
			}
			adv, n := keptTokens(e, win, keep, sc)
			*m = windowEntry{hash: h, key: win, adv: adv, n: n}
		}
		total += m.n
		piece = piece[m.adv:]
	}
	if sc != nil {
		scratchPool.Put(sc)
	}
	return total + bpeCount(e, piece)
}

// keptTokens merges win and returns the length and the number of the
// leading tokens that end at most keep bytes into it, at least one.
func keptTokens(e *encoding, win string, keep int, sc *mergeScratch) (adv, n int) {
	mergeLarge(e, win, sc)
	i := int32(0)
	for {
		j := sc.nodes[i].next
		if n > 0 && int(j) > keep || j < 0 {
			return int(i), n
		}
		n++
		i = j
	}
}

// windowMemo remembers the windows already counted in one piece, by hash:
// a long run of one character, or of a short pattern, repeats a handful of
// windows, each merged once. The keys are parts of the piece, so the memo
// copies nothing.
type windowMemo [16]windowEntry

type windowEntry struct {
	hash   uint64
	key    string
	adv, n int
}

var memoSeed = maphash.MakeSeed()
