package tokens

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
	"unsafe"
)

func TestNew(t *testing.T) {
	for _, n := range encodingNames {
		c, err := New(n)
		if err != nil || c == nil {
			t.Fatalf("New(%q) = %v, %v", n, c, err)
		}
		if c.Encoding() != n {
			t.Errorf("Encoding() = %q, want %q", c.Encoding(), n)
		}
	}
	for _, n := range []string{"", "gpt2", "O200K_BASE", "p50k_base"} {
		_, err := New(n)
		if err == nil {
			t.Fatalf("New(%q) succeeded", n)
		}
		for _, v := range encodingNames {
			if !strings.Contains(err.Error(), v) {
				t.Errorf("error %q does not list %s", err, v)
			}
		}
	}
}

func TestEveryByteIsAToken(t *testing.T) {
	for _, e := range encodings {
		e.load()
		t.Logf("%s: %d tokens, indexed in %v", e.name, e.vocab.len(), e.loadTime)
		for b := 0; b < 256; b++ {
			if e.vocab.rank(string([]byte{byte(b)})) == noRank {
				t.Errorf("%s: byte %#x is not a token", e.name, b)
			}
		}
	}
}

// The embedded vocabularies hold exactly the library's tokens and ranks
// (regenerate them with go generate when the library changes).
func TestEmbeddedVocabularyMatchesLibrary(t *testing.T) {
	for _, e := range encodings {
		e.load()
		lib := libraryVocabulary(t, e.name)
		if len(lib) != e.vocab.len() {
			t.Fatalf("%s: embedded %d tokens, library %d", e.name, e.vocab.len(), len(lib))
		}
		for tok, r := range lib {
			if got := e.vocab.rank(tok); got != uint32(r) {
				t.Fatalf("%s: token %q: embedded rank %d, library %d", e.name, tok, got, r)
			}
		}
		for _, s := range []string{"", "not a single token at all", "\xff\xfe", "zzzzzzzzzzzzzzzzzzzzzzzz"} {
			if _, ok := lib[s]; !ok && e.vocab.rank(s) != noRank {
				t.Errorf("%s: %q found in the embedded vocabulary only", e.name, s)
			}
		}
	}
}

func TestDamagedVocabulary(t *testing.T) {
	for _, data := range []string{"", "\x05", "\x80\x80", o200kData[:1000], o200kData + "x"} {
		var v vocab
		if err := v.init(data, 1); err == nil {
			t.Errorf("%.20q: no error", data)
		}
	}
	// Offsets that go back and a slot past the last rank: only the whole
	// check, which the embedded files pass, reads that far.
	var v vocab
	if err := v.init(o200kData, 1); err != nil {
		t.Fatal(err)
	}
	for name, damage := range map[string]func(b []byte){
		"offset": func(b []byte) { b[4*7+1] = 0xff },
		"slot":   func(b []byte) { b[len(b)-4], b[len(b)-3], b[len(b)-2] = 0xff, 0xff, b[len(b)-2]|0x3f }, // rank 2^22-1
	} {
		w := v
		w.off, w.slots = append([]byte(nil), v.off...), append([]byte(nil), v.slots...)
		target := w.off
		if name == "slot" {
			target = w.slots
		}
		damage(target)
		if _, err := w.check(); err == nil {
			t.Errorf("damaged %s: no error", name)
		}
	}
}

// TestVocabularyWhole reads every embedded vocabulary whole: it is sound,
// and its longest token is the one its encoding declares.
func TestVocabularyWhole(t *testing.T) {
	for _, e := range encodings {
		e.load()
		n, err := e.vocab.check()
		if err != nil {
			t.Fatalf("%s: %v", e.name, err)
		}
		if n != e.maxLen {
			t.Errorf("%s: longest token %d bytes, the encoding declares %d", e.name, n, e.maxLen)
		}
	}
}

func TestClassTables(t *testing.T) {
	tablesOnce.Do(initTables)
	if byteClass[0x80] != notASCII || byteClass['a'] != asciiClass['a'] {
		t.Fatal("byteClass not initialised")
	}
	for r := rune(0); r < 0x10000; r++ {
		want := classOfSlow(r)
		if r == 0x7f {
			want = 0
		}
		if got := bmpClass[r]; got != want {
			t.Fatalf("class of %U = %08b, want %08b", r, got, want)
		}
		if r < utf8.RuneSelf && asciiClass[r] != want {
			t.Fatalf("ASCII class of %U = %08b, want %08b", r, asciiClass[r], want)
		}
	}
}

var edgeCases = []string{
	"",
	" ",
	"a",
	"<|endoftext|>",
	"<|endoftext|><|fim_prefix|><|endofprompt|>",
	"hello <|endoftext|> world",
	// Contractions in mixed case.
	"I'm you're we've they'll he'd it's don't",
	"I'M YOU'RE WE'VE THEY'LL HE'D IT'S DON'T",
	"i'M yOu'Re We'vE tHeY'lL hE'd It'S dOn'T",
	"'s 't 're 've 'm 'll 'd 'S 'T 'RE 'VE 'M 'LL 'D",
	"'s't're've'm'll'd",
	"'l 'L 'lx 'r 've' 'x ''s '''", "abc'", "abc'l", "ABC'Re'", "x'ſ X'ſ 'ſ",
	"O'Neil McDonald's ROCK'N'ROLL",
	// Digit runs of length 1 to 7.
	"1", "12", "123", "1234", "12345", "123456", "1234567",
	"a1b22c333d4444e55555f666666g7777777",
	" 1 12 123 1234 12345 123456 1234567 ",
	"3.14159 1,000,000 0x1F 1e-10 ²³ ½ Ⅻ ٣٤٥ ۱۲۳",
	// Line breaks.
	"a\r\nb", "\r\n", "\r\n\r\n", "a\r\n\r\n\r\nb", "\n", "\n\n\n", "\r\r\n\n\r",
	"a  \r\n  \r\n b", "x \n \n \n y", "\t\n\t\n", "line\n\n  \n\n\tnext",
	// Trailing spaces before a line break and at the end.
	"end   \nnext", "end \t \nnext", "end   ", "end\t\t", "   ", "a \n", "a   b", "a    \tb",
	" \u00a0 x", "\u3000x", "a\u2003\u2003b", "\u0085x", "x\u2028y\u2029z",
	// Punctuation.
	"!!!", " ...\n\n", "a/b//c", "path/to/file\n", "//\n//", " //\n", "#!/bin/sh\n", "{\"a\":[1,2]}",
	"=== --- *** ___", "a++ b-- c** ", ":\r\n:", " ?!\r\n/x",
	// Emoji and ZWJ sequences.
	"👍", "👍🏽", "👨‍👩‍👧‍👦", "🏳️‍🌈", "I ❤️ NY", "a👍b", " 👍 ", "🇺🇸🇬🇧",
	// Combining marks.
	"e\u0301", "\u0301", "\u0301abc", "\u0301ABC", "a\u0301\u0302b", "A\u0301B",
	" \u0301x", "x \u0301 y", "\u0301\u0301", "Ǆǅǆ ǅa ǅA", "ʰʰa ʰA", "aʰ Aʰ",
	"ﬁnance ﬀ", "İstanbul ıi", "ß ẞ", "Ωmega ωMEGA",
	// CJK, Arabic, Hangul, others.
	"中文字符测试", "日本語のテキストです。", "한국어 텍스트입니다", "مرحبا بالعالم",
	"العربية: ١٢٣", "עברית", "हिन्दी पाठ", "ไทย", "Ελληνικά", "Русский Текст",
	"混合text中文and English",
	// Invalid UTF-8.
	"\xff", "\xff\xfe", "a\xffb", "\xc3", "\xc3(", "\xe2\x82", "\xe2\x82(",
	"\xed\xa0\x80", "\xf0\x9f\x98", "\xf0\x9f\x98 x", "\xc0\xaf", "abc\x80def",
	" \xff", "\xff ", "\xffabc", "a\xff\xfe\xfdb", "'\xff", "x'\xffs",
	"\x80\x80\x80\x80",
	// Control characters and DEL.
	"\x00", "a\x00b", "\x7f", "a\x7fb", " \x7f ", "\x7f\x7fx", "x\x7f'sy", "\x1b[0m",
	"\x0b\x0c", "a\x0bb", "\x01abc",
	// Other.
	"\ufeffBOM", "\ufffd", "a\ufffdb", strings.Repeat("ab", 100), strings.Repeat("z", 300),
	strings.Repeat("é", 200), strings.Repeat("😀", 100), strings.Repeat(" ", 1000) + "x",
	strings.Repeat("a ", 50) + strings.Repeat("\n", 50),
}

func TestEdgeCases(t *testing.T) {
	for _, enc := range encodingNames {
		for _, s := range edgeCases {
			check(t, enc, s, "edge case")
		}
	}
}

func TestManySpaces(t *testing.T) {
	big := strings.Repeat(" ", 100000)
	for _, enc := range encodingNames {
		check(t, enc, big, "100000 spaces")
		check(t, enc, big+"x", "100000 spaces + x")
		check(t, enc, "x"+big+"\n", "x + 100000 spaces + newline")
	}
}

// alphabet holds characters that exercise every distinction the split
// patterns make.
var alphabet = []string{
	"a", "s", "l", "e", "B", "'", " ", "\n", "\r", "\t", "1", ".", "/",
	"\x7f", "\u00e9", "\u0301", "\u01c5", "\u02b0", "\u4e2d", "\u017f",
	"\u00a0", "\u00b2", "\xff", "\U0001F600", "\u0660",
}

// TestExhaustiveShort checks every string of up to two characters of the
// alphabet, and of three in long runs.
func TestExhaustiveShort(t *testing.T) {
	n := len(alphabet)
	total := n + n*n
	if long() {
		total += n * n * n
	}
	for _, enc := range encodingNames {
		fails := 0
		for i := 0; i < total && fails < 10; i++ {
			var b strings.Builder
			for k := i; ; k = k/n - 1 {
				b.WriteString(alphabet[k%n])
				if k < n {
					break
				}
			}
			if !check(t, enc, b.String(), "short") {
				fails++
			}
		}
	}
}

func TestRandomStrings(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	iters := 3000
	if testing.Short() {
		iters = 300
	}
	for _, enc := range encodingNames {
		fails := 0
		for i := 0; i < iters && fails < 10; i++ {
			var b strings.Builder
			for k := rng.IntN(24); k >= 0; k-- {
				b.WriteString(alphabet[rng.IntN(len(alphabet))])
			}
			if !check(t, enc, b.String(), "random") {
				fails++
			}
		}
	}
}

// TestCorpusJSON compares counts with the library's on corpus files and
// their string values: every 8th file, every file in long runs.
func TestCorpusJSON(t *testing.T) {
	dir := corpusDir(t)
	files := corpusFiles(t, dir, ".json", ".jsonl", ".har")
	if len(files) == 0 {
		t.Skip("no JSON files in corpus")
	}
	files = sample(files, 8)
	values := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		strs, err := jsonStrings(data)
		if err != nil {
			t.Errorf("%s: %v", f, err)
		}
		rel, _ := filepath.Rel(dir, f)
		for _, enc := range encodingNames {
			check(t, enc, string(data), rel)
			for _, s := range strs {
				check(t, enc, s, rel+" (string value)")
			}
		}
		values += len(strs)
	}
	t.Logf("%d JSON files, %d string values", len(files), values)
}

// TestBenchText checks the benchmark text: its first 256 KiB, all of it in
// long runs.
func TestBenchText(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	size := 256 << 10
	if long() {
		size = benchSize
	}
	text, src := benchText(size)
	for _, enc := range encodingNames {
		check(t, enc, text, src)
	}
}

// TestCorpusSkills compares counts on every 8th skill file of the corpus,
// every one in long runs.
func TestCorpusSkills(t *testing.T) {
	dir := filepath.Join(corpusDir(t), "skills")
	files := corpusFiles(t, dir)
	if len(files) == 0 {
		t.Skip("no skill files in corpus")
	}
	files = sample(files, 8)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, f)
		for _, enc := range encodingNames {
			check(t, enc, string(data), rel)
		}
	}
	t.Logf("%d skill files", len(files))
}

func TestCountAll(t *testing.T) {
	text := generatedText(400 << 10)
	texts := []string{"", "hello", text, text[:1000], "a'b", text[5 : 200<<10]}
	for i := 0; i < 500; i++ {
		texts = append(texts, text[i*7:i*7+i])
	}
	for _, enc := range encodingNames {
		c, _ := New(enc)
		got := c.CountAll(texts)
		for i, s := range texts {
			if want := refFor(t, enc).count.Count(s); got[i] != want {
				t.Fatalf("%s: CountAll[%d] = %d, Count = %d", enc, i, got[i], want)
			}
		}
		if len(c.CountAll(nil)) != 0 {
			t.Fatal("CountAll(nil) not empty")
		}
	}
}

// TestChunking checks that counting the chunks CountAll cuts a text into
// gives the count of the whole text.
func TestChunking(t *testing.T) {
	var texts []string
	texts = append(texts, generatedText(100<<10), strings.Repeat("word'", 3000)+" x y",
		strings.Repeat("中文字符\n", 3000), strings.Repeat(".\n/x\n\n  \n\r\n a'\nll", 2000),
		strings.Repeat("ab'\ns \u0301\n\x7f\n\xff\n", 2000))
	if dir := filepath.Join("..", "..", "..", "shared", "corpus"); dirExists(dir) {
		for _, f := range sample(corpusFiles(t, dir, ".md", ".json", ".jsonl"), 4) {
			data, err := os.ReadFile(f)
			if err == nil {
				texts = append(texts, string(data))
			}
		}
	}
	for _, enc := range encodingNames {
		c := refFor(t, enc).count
		for _, s := range texts {
			for _, size := range []int{64, 1000} {
				jobs := makeJobs([]string{s}, size)
				sum := 0
				end := 0
				for _, j := range jobs {
					if j.hi >= 0 {
						sum += c.Count(s)
						end = len(s)
						continue
					}
					if j.from != end {
						t.Fatalf("chunks not contiguous")
					}
					end = j.to
					sum += c.Count(s[j.from:j.to])
				}
				if end != len(s) {
					t.Fatalf("chunks end at %d of %d", end, len(s))
				}
				if want := c.Count(s); sum != want {
					t.Fatalf("%s: chunked count %d, whole %d (%s)", enc, sum, want, excerpt(s))
				}
			}
		}
	}
}

func dirExists(dir string) bool {
	st, err := os.Stat(dir)
	return err == nil && st.IsDir()
}

func TestConcurrentUse(t *testing.T) {
	text := generatedText(64 << 10)
	for _, enc := range encodingNames {
		c, _ := New(enc)
		want := refFor(t, enc).libCount(t, text)
		var wg sync.WaitGroup
		for g := 0; g < 2*runtime.GOMAXPROCS(0)+2; g++ {
			wg.Go(func() {
				for k := 0; k < 3; k++ {
					if got := c.Count(text); got != want {
						t.Errorf("%s: concurrent Count = %d, want %d", enc, got, want)
					}
				}
			})
		}
		wg.Wait()
	}
}

func TestCountDoesNotAllocate(t *testing.T) {
	text := generatedText(32 << 10)
	for _, enc := range encodingNames {
		c, _ := New(enc)
		c.Count(text)
		if a := testing.AllocsPerRun(5, func() { c.Count(text) }); a != 0 {
			t.Errorf("%s: warm Count allocates %v times per call", enc, a)
		}
	}
}

// TestCacheConsistency hammers one set of each cache with writers of
// different pieces and checks that readers only ever see a piece with its
// own count.
func TestCacheConsistency(t *testing.T) {
	c := newCaches()
	keys := make([]string, 64)
	for i := range keys {
		keys[i] = strings.Repeat(string(rune('a'+i%26)), 2+i%20)
	}
	want := func(i int) int { return 1 + i%200 }
	tiny := &c.tiny.sets[0]
	short := &c.short.sets[0]
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 9))
			for range 200000 {
				i := rng.IntN(len(keys))
				k := keys[i]
				w0, w1, w2 := pieceWords(k)
				if len(k) <= tinyMax {
					if n, ok := c.tiny.get(tiny, w0, len(k)); ok && n != want(i) {
						t.Errorf("tiny cache: %q has count %d, want %d", k, n, want(i))
						return
					}
					c.tiny.put(tiny, rng.Uint64(), w0, len(k), want(i))
				} else {
					if n, ok := c.short.get(short, w0, w1, w2, len(k)); ok && n != want(i) {
						t.Errorf("short cache: %q has count %d, want %d", k, n, want(i))
						return
					}
					c.short.put(short, rng.Uint64(), w0, w1, w2, len(k), want(i))
				}
			}
		})
	}
	wg.Wait()
}

func TestPieceWords(t *testing.T) {
	for n := 1; n <= shortMax; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(0xa0 + i)
		}
		var want [3]uint64
		for i, c := range b {
			want[i/8] |= uint64(c) << (8 * (i % 8))
		}
		w0, w1, w2 := pieceWords(string(b))
		if [3]uint64{w0, w1, w2} != want {
			t.Errorf("pieceWords of %d bytes = %x %x %x, want %x", n, w0, w1, w2, want)
		}
	}
}

// libraryVocabulary returns the library's own token-to-rank map, read from
// its codec (the map is unexported).
func libraryVocabulary(t *testing.T, name string) map[string]uint {
	t.Helper()
	v := reflect.ValueOf(refFor(t, name).codec)
	f := v.Elem().FieldByName("vocabulary")
	if !f.IsValid() || f.Kind() != reflect.Map {
		t.Fatalf("%s: the library codec has no vocabulary map", name)
	}
	return *(*map[string]uint)(unsafe.Pointer(f.UnsafeAddr()))
}

// len returns the number of tokens.
func (v *vocab) len() int { return v.count }
