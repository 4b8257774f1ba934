// Package tokens counts the tokens that OpenAI's byte-pair encodings
// o200k_base and cl100k_base produce for a text.
//
// # Exactness
//
// Counts are exact with respect to github.com/tiktoken-go/tokenizer and the
// vocabulary it embeds: Count(s) equals len(ids) for the ids the library's
// Encode(s) returns in its default error mode, for every string s (invalid
// UTF-8 included) none of whose pieces (see below) is longer than 4096
// bytes, and for the longer pieces of ordinary text (see Long pieces).
// There are no special tokens: text such as "<|endoftext|>" is encoded as
// ordinary text.
//
// The text is first split into pieces by a hand-written scanner equivalent to
// the encoding's split pattern as the library evaluates it, then each piece
// is encoded by byte-pair merging (a piece that is itself a vocabulary entry
// is one token). The library's pattern matcher differs from the regular
// expression engines of OpenAI's tiktoken in two ways, and so does this
// package, to stay identical to the library:
//
//   - In a run of white space that contains line breaks, \s*[\r\n]+ ends
//     after the first run of \r and \n, so "\n\n  \n" is split into "\n\n"
//     and "  \n" where tiktoken keeps "\n\n  \n" whole.
//   - U+007F (DEL) matches no alternative of the pattern: it is skipped and
//     yields no token, where tiktoken treats it as punctuation.
//
// # Long pieces
//
// A piece longer than 4096 bytes (a run of megabytes of "-", of "a" or of
// "[{},{},…]" is one piece) is merged in windows of 4096 bytes, keeping
// from each window the tokens that end in its first 3584 bytes, so that
// counting takes time and memory linear in the text whatever its shape. The
// count of such a piece equals the library's unless merges near the end of
// a window, which the text after it would have changed, carry back over
// the last 512 bytes of the window; runs of one character or of a short
// pattern and the long pieces of ordinary text do not (the tests check
// them), so only a piece built for it can be counted differently.
//
// # Invalid UTF-8
//
// Every byte that does not begin a valid UTF-8 sequence is read as U+FFFD,
// one per byte, as the library does: it splits the text as U+FFFD (which is
// neither letter, number nor space, so it behaves as punctuation), and its
// piece is encoded with each such byte replaced by the three bytes EF BF BD.
//
// # Cost
//
// The vocabulary is the library's, embedded with its lookup table (4.3 MB
// for o200k_base, 2.1 MB for cl100k_base), so loading it only checks the
// file's shape, on the first Count or CountAll of an encoding or in the
// background after Preload; its pages are read as lookups reach them.
// Importing the package and New cost nothing. Each Counter keeps the counts
// of the pieces it has seen in fixed-size caches of about 4 MB at most,
// mapped on huge pages where Linux allows it.
package tokens

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// Counter counts tokens for one encoding. It is safe for concurrent use.
// Reusing a Counter keeps its cache of piece counts warm.
type Counter struct {
	enc       *encoding
	cacheOnce sync.Once
	cache     *caches
}

// Encodings returns the names of the supported encodings.
func Encodings() []string {
	names := make([]string, len(encodings))
	for i, e := range encodings {
		names[i] = e.name
	}
	return names
}

// New returns a counter for the named encoding, "o200k_base" or
// "cl100k_base".
func New(encoding string) (*Counter, error) {
	for _, e := range encodings {
		if e.name == encoding {
			return &Counter{enc: e}, nil
		}
	}
	return nil, fmt.Errorf("tokens: unknown encoding %q (valid: %s)", encoding, strings.Join(Encodings(), ", "))
}

// Encoding returns the name of the counter's encoding.
func (c *Counter) Encoding() string { return c.enc.name }

// Preload starts loading the vocabulary in the background and returns at
// once, so that loading can overlap other work; the first Count waits for it
// to finish. The vocabulary is shared by all counters of an encoding and is
// loaded once per process.
func (c *Counter) Preload() {
	go c.enc.prepare()
}

func (c *Counter) init() {
	c.enc.load()
	c.cacheOnce.Do(func() { c.cache = newCaches() })
}

// Count returns the number of tokens the encoding produces for text.
func (c *Counter) Count(text string) int {
	c.init()
	return c.count(text)
}

func (c *Counter) count(text string) int {
	// The slot caches may live outside the Go heap, released when c.cache
	// is collected: c stays reachable until every write to them is done.
	defer runtime.KeepAlive(c)
	if c.enc.o200k {
		return c.countO200k(text)
	}
	return c.countCl100k(text)
}

func (c *Counter) countO200k(text string) int {
	n := 0
	for i := 0; i < len(text); {
		j, ok := nextO200k(text, i)
		if ok {
			n += c.countPiece(text[i:j])
		}
		i = j
	}
	return n
}

func (c *Counter) countCl100k(text string) int {
	n := 0
	for i := 0; i < len(text); {
		j, ok := nextCl100k(text, i)
		if ok {
			n += c.countPiece(text[i:j])
		}
		i = j
	}
	return n
}

// countPiece returns the number of tokens of one piece. Pieces are cached by
// their bytes as they appear in the text; invalid UTF-8 is replaced only
// when a piece's count is computed.
func (c *Counter) countPiece(piece string) int {
	if len(piece) == 1 && piece[0] < utf8.RuneSelf {
		return 1 // every byte is a token
	}
	if len(piece) <= tinyMax {
		w0, _, _ := pieceWords(piece)
		set, h := c.cache.tiny.set(w0, len(piece))
		if n, ok := c.cache.tiny.get(set, w0, len(piece)); ok {
			return n
		}
		n := c.countUncached(piece)
		c.cache.tiny.put(set, h, w0, len(piece), n)
		return n
	}
	if len(piece) <= shortMax {
		w0, w1, w2 := pieceWords(piece)
		set, h := c.cache.short.set(w0, w1, w2, len(piece))
		if n, ok := c.cache.short.get(set, w0, w1, w2, len(piece)); ok {
			return n
		}
		n := c.countUncached(piece)
		c.cache.short.put(set, h, w0, w1, w2, len(piece), n)
		return n
	}
	piece = replaceInvalid(piece)
	if c.enc.vocab.rank(piece) != noRank {
		return 1
	}
	if len(piece) > longMax {
		return bpeCount(c.enc, piece)
	}
	if n, ok := c.cache.long.get(piece); ok {
		return n
	}
	n := bpeCount(c.enc, piece)
	c.cache.long.put(piece, n)
	return n
}

func (c *Counter) countUncached(piece string) int {
	piece = replaceInvalid(piece)
	if c.enc.vocab.rank(piece) != noRank {
		return 1
	}
	return bpeCount(c.enc, piece)
}

// replaceInvalid replaces every byte of s that does not start a valid UTF-8
// sequence with U+FFFD, as converting s to runes and back does.
func replaceInvalid(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+w])
		}
		i += w
	}
	return b.String()
}

// parallelMin is the total input size, in bytes, from which CountAll uses
// more than one goroutine.
const parallelMin = 64 << 10

// chunkSize is the target size, in bytes, of one unit of parallel work.
const chunkSize = 32 << 10

// job is a unit of CountAll work: either the whole texts [lo, hi), or the
// bytes [from, to) of text lo when hi is -1.
type job struct {
	lo, hi   int
	from, to int
}

// CountAll returns the token count of every text: result[i] is
// Count(texts[i]). Large inputs are spread over GOMAXPROCS goroutines; a
// long text is cut at piece boundaries so that it can be shared too.
func (c *Counter) CountAll(texts []string) []int {
	c.init()
	res := make([]int, len(texts))
	total := 0
	for _, t := range texts {
		total += len(t)
	}
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 || total < parallelMin {
		for i, t := range texts {
			res[i] = c.count(t)
		}
		return res
	}
	jobs := makeJobs(texts, chunkSize)
	if workers > len(jobs) {
		workers = len(jobs)
	}
	partial := make([]int, len(jobs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				k := int(next.Add(1) - 1)
				if k >= len(jobs) {
					return
				}
				j := jobs[k]
				if j.hi < 0 {
					partial[k] = c.count(texts[j.lo][j.from:j.to])
					continue
				}
				for i := j.lo; i < j.hi; i++ {
					res[i] = c.count(texts[i])
				}
			}
		})
	}
	wg.Wait()
	for k, j := range jobs {
		if j.hi < 0 {
			res[j.lo] += partial[k]
		}
	}
	return res
}

// makeJobs groups short texts into jobs of about size bytes and cuts long
// texts into chunks of about size bytes at safe boundaries.
func makeJobs(texts []string, size int) []job {
	var jobs []job
	lo, acc := 0, 0
	flush := func(hi int) {
		if hi > lo {
			jobs = append(jobs, job{lo: lo, hi: hi})
		}
	}
	for i, t := range texts {
		if len(t) <= 2*size {
			acc += len(t)
			if acc >= size {
				flush(i + 1)
				lo, acc = i+1, 0
			}
			continue
		}
		flush(i)
		lo, acc = i+1, 0
		from := 0
		for from < len(t) {
			to := len(t)
			if len(t)-from > 2*size {
				to = cutPoint(t, from+size)
			}
			jobs = append(jobs, job{lo: i, hi: -1, from: from, to: to})
			from = to
		}
	}
	flush(len(texts))
	return jobs
}

// cutPoint returns the first position p at or after i where a piece of
// either encoding always ends, or len(s) if there is none. Two kinds of
// position qualify:
//
//   - p holds a space and p-1 an ASCII lower-case letter: a piece holding
//     that letter is a letter run, which ends where the letters end unless a
//     contraction follows, and no contraction starts with a space.
//   - p-1 holds a line feed and p holds neither \r, \n nor '/': a piece
//     holding a line break ends with the run of line breaks it is in (or the
//     run of [\r\n/] that follows punctuation).
//
// Splitting a text at such a position does not change its count.
func cutPoint(s string, i int) int {
	for p := max(i, 1); p < len(s); p++ {
		switch c := s[p]; {
		case c == ' ' && s[p-1]-'a' < 26:
			return p
		case s[p-1] == '\n' && c != '\r' && c != '\n' && c != '/':
			return p
		}
	}
	return len(s)
}
