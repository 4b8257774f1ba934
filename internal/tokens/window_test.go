package tokens

import (
	"os"
	"strings"
	"testing"
)

// wholeCount merges piece whole, whatever its length: the reference for
// bpeWindowed.
func wholeCount(e *encoding, piece string) int {
	if len(piece) < smallPiece {
		return bpeCount(e, piece)
	}
	return mergeLarge(e, piece, new(mergeScratch))
}

func loadedEncoding(t testing.TB, name string) *encoding {
	t.Helper()
	c, err := New(name)
	if err != nil {
		t.Fatal(err)
	}
	c.init()
	return c.enc
}

// windowSizes are the windows the tests try: the package's, and smaller
// ones that leave less room for merges to differ (a margin of one longest
// token, then half of one), so that agreement there is stronger evidence.
var windowSizes = []struct{ window, keep int }{
	{pieceWindow, windowKeep},
	{256, 128},
	{128, 64},
}

// runPatterns are repeated to make long pieces: single characters of each
// class, and short patterns of the kind that make up pathological input.
var runPatterns = func() []string {
	p := []string{"\t", "\n", "\r\n", "é", "中", "😀", "\u00a0", "\ufffd", "\u0301",
		"{},", "[{}],", "-=", "=-", "ab", "abc", "a b", "</>", "_-", "\"},{\"", ". ", "*-", "0,", "1.5,", "\\n"}
	for c := byte(' '); c < 0x7f; c++ {
		p = append(p, string(c))
	}
	return p
}()

// TestWindowedRuns checks that counting long runs of a character or of a
// short pattern in windows gives the count of merging them whole.
func TestWindowedRuns(t *testing.T) {
	lengths := []int{pieceWindow + 1, 2*pieceWindow + 37}
	if long() {
		lengths = append(lengths, 5*pieceWindow+1001, 16*pieceWindow+3)
	}
	for _, enc := range encodingNames {
		e := loadedEncoding(t, enc)
		for _, p := range runPatterns {
			for _, n := range lengths {
				piece := strings.Repeat(p, n/len(p)+1)[:n]
				want := wholeCount(e, piece)
				for _, w := range windowSizes {
					if got := bpeWindowed(e, piece, w.window, w.keep); got != want {
						t.Errorf("%s: %d bytes of %q in windows of %d keeping %d: %d tokens, merged whole %d",
							enc, n, p, w.window, w.keep, got, want)
					}
				}
			}
		}
	}
}

// TestWindowedCanDiffer shows that the comparison above can fail: with a
// window shorter than a token of the piece merged whole, 80 "/" are
// counted differently.
func TestWindowedCanDiffer(t *testing.T) {
	e := loadedEncoding(t, "o200k_base")
	piece := strings.Repeat("/", 80)
	if a, b := bpeWindowed(e, piece, 64, 32), wholeCount(e, piece); a == b {
		t.Errorf("windows of 64 bytes keeping 32 count %d tokens, as many as merging whole", a)
	}
}

// TestWindowedCorpus checks every piece of the corpus longer than the
// smaller test windows: counted in windows, it has the count of merging it
// whole. Pieces that long are rare in ordinary text, so every file is read.
func TestWindowedCorpus(t *testing.T) {
	dir := corpusDir(t)
	files := corpusFiles(t, dir)
	min := windowSizes[len(windowSizes)-1].window
	for _, enc := range encodingNames {
		e := loadedEncoding(t, enc)
		n, bytes := 0, 0
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, piece := range longPieces(enc, string(data), min) {
				n++
				bytes += len(piece)
				want := wholeCount(e, piece)
				for _, w := range windowSizes {
					if len(piece) <= w.window {
						continue
					}
					if got := bpeWindowed(e, piece, w.window, w.keep); got != want {
						t.Errorf("%s: %s: piece of %d bytes in windows of %d keeping %d: %d tokens, merged whole %d: %s",
							enc, f, len(piece), w.window, w.keep, got, want, excerpt(piece))
					}
				}
			}
		}
		t.Logf("%s: %d pieces longer than %d bytes (%d bytes) in %d files", enc, n, min, bytes, len(files))
		if n == 0 {
			t.Errorf("%s: no piece longer than %d bytes in the corpus", enc, min)
		}
	}
}

// longPieces returns the pieces of text longer than min bytes, with
// invalid UTF-8 replaced as for encoding.
func longPieces(enc, text string, min int) []string {
	tablesOnce.Do(initTables)
	var out []string
	for i := 0; i < len(text); {
		var j int
		var ok bool
		if enc == "o200k_base" {
			j, ok = nextO200k(text, i)
		} else {
			j, ok = nextCl100k(text, i)
		}
		if ok && j-i > min {
			out = append(out, replaceInvalid(text[i:j]))
		}
		i = j
	}
	return out
}

// TestLongPiecesMatchLibrary compares whole texts made of long pieces with
// the library.
func TestLongPiecesMatchLibrary(t *testing.T) {
	n := 3*pieceWindow + 5
	texts := []string{
		strings.Repeat("-", n),
		strings.Repeat("a", n),
		"[" + strings.Repeat("{},", n/3) + "{}]",
		strings.Repeat("é", n/2),
		"x " + strings.Repeat("=", n) + "\n" + strings.Repeat("Ab", n/2) + " " + strings.Repeat(" ", n) + "y",
		pseudoRandom(n, "abcdefghijklmnopqrstuvwxyz"),
		pseudoRandom(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
		pseudoRandom(n, "!#$%&()*+,-./:;<=>?@[]^_{|}~"),
		strings.Repeat("\xff", n/4),
	}
	for _, enc := range encodingNames {
		for _, s := range texts {
			check(t, enc, s, "long pieces")
		}
	}
}

// FuzzWindowed repeats its input into a piece several windows long and
// compares counting it in windows with merging it whole.
func FuzzWindowed(f *testing.F) {
	for _, p := range []string{"-", "{},", "ab", "é", " ", "a\u0301", "[{\"a\":1}],", "+-*/"} {
		f.Add(p)
	}
	encs := map[string]*encoding{}
	for _, enc := range encodingNames {
		encs[enc] = loadedEncoding(f, enc)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if p == "" || len(p) > 64 {
			t.Skip()
		}
		n := 2*pieceWindow + 100
		piece := strings.Repeat(p, n/len(p)+1)[:n]
		for _, enc := range encodingNames {
			e := encs[enc]
			if a, b := bpeWindowed(e, piece, pieceWindow, windowKeep), wholeCount(e, piece); a != b {
				t.Errorf("%s: %q repeated to %d bytes: %d tokens in windows, %d merged whole", enc, p, n, a, b)
			}
		}
	})
}

// pseudoRandom returns n bytes drawn from alphabet by a fixed generator.
func pseudoRandom(n int, alphabet string) string {
	b := make([]byte, n)
	x := uint32(7)
	for i := range b {
		x = x*1664525 + 1013904223
		b[i] = alphabet[(x>>16)%uint32(len(alphabet))]
	}
	return string(b)
}
