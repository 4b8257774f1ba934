// Package reduce shrinks command output while keeping its protected
// evidence verbatim: error and failure lines, stack frames, file:line
// references, exit codes, failing test names, test summaries and
// expected/actual pairs. Format-aware reducers (go test and its -json
// events, JUnit XML, pytest and unittest, node/TAP/jest, cargo and rustc,
// compiler diagnostics, git log and diff stat, ls -l listings, package
// lists, logs) are tried before the
// generic one; each declines input it does not recognise. Every elided run
// of lines is replaced by a marker that counts the lines and names their
// line numbers, so an exact range can be asked for later.
//
// The package also holds the lossless columnar codec for homogeneous JSON
// arrays and the final-output sanitizer. It works on text only and knows
// nothing about captures or the archive.
package reduce

import "strings"

// Options tunes the line-based reducers.
type Options struct {
	// HeadLines and TailLines are kept at the start and end of output the
	// generic reducer does not otherwise understand.
	HeadLines, TailLines int
	// ContextLines are kept before and after each error line.
	ContextLines int
	// MaxLineBytes cuts longer lines that are not evidence in the middle
	// (on UTF-8 character boundaries); 0 never cuts.
	MaxLineBytes int
}

// Result is a reduction.
type Result struct {
	Text    string // the reduced text (no recovery label)
	Reducer string // the reducer that produced it
	Lines   int    // lines in the original
	Kept    int    // original lines kept verbatim
}

type reducer struct {
	name   string
	detect func(d *doc) bool
	plan   func(d *doc, o Options) *plan
}

// formats lists the format-aware reducers in the order they are tried.
var formats = []reducer{
	{"go-test-json", detectGoJSON, planGoJSON},
	{"go-test", detectGoTest, planGoTest},
	{"junit", detectJUnit, planJUnit},
	{"python-test", detectPyTest, planPyTest},
	{"js-test", detectJSTest, planJSTest},
	{"cargo", detectCargo, planCargo},
	{"compiler", detectDiag, planDiag},
	{"git-log", detectGitLog, planGitLog},
	{"diffstat", detectDiffStat, planDiffStat},
	{"listing", detectListing, planListing},
	{"packages", detectPackages, planPackages},
	{"log", detectLog, planLog},
}

var generic = reducer{"generic", func(*doc) bool { return true }, planGeneric}

func byName(name string) (reducer, bool) {
	for _, r := range formats {
		if r.name == name {
			return r, true
		}
	}
	if name == generic.name {
		return generic, true
	}
	return reducer{}, false
}

// Reduce reduces text with the first format-aware reducer that recognises
// it, falling back to the generic reducer when none does or when the
// recognised format cannot be made smaller; the generic reducer then keeps
// the recognised format's evidence too. ok is false when no reducer makes
// the text smaller.
func Reduce(text string, o Options) (Result, bool) {
	d := newDoc(text)
	for _, r := range formats {
		if !r.detect(d) {
			continue
		}
		if res, ok := run(r, d, o); ok {
			return res, true
		}
		return run(genericKeeping(r), d, o)
	}
	return run(generic, d, o)
}

// genericKeeping is the generic reducer that also protects the lines the
// format reducer r protects.
func genericKeeping(r reducer) reducer {
	return reducer{generic.name, generic.detect, func(d *doc, o Options) *plan {
		p := planGeneric(d, o)
		f := r.plan(d, o)
		for i, m := range f.mark {
			if m == protect {
				p.set(i, protect)
			}
		}
		if f.evidence != nil {
			in := map[string]bool{}
			for _, e := range f.evidence {
				in[e] = true
			}
			for i := range d.lines {
				if in[d.line(i)] {
					p.set(i, protect)
				}
			}
		}
		return p
	}}
}

func run(r reducer, d *doc, o Options) (Result, bool) {
	p := planWith(r, d, o)
	out, kept := d.render(p, o)
	if len(out) >= len(d.text) {
		return Result{}, false
	}
	return Result{Text: out, Reducer: r.name, Lines: d.n(), Kept: kept}, true
}

// Evidence returns the protected evidence the named reducer keeps verbatim
// when it reduces text: every string in it must appear in the reduction.
// An extraction (ExtractReducer) keeps the evidence the smart reduction
// would; an unknown reducer name yields the generic reducer's evidence.
func Evidence(reducerName, text string, o Options) []string {
	if reducerName == ExtractReducer {
		_, ev := smartEvidence(newDoc(text), o)
		return ev
	}
	r, ok := byName(reducerName)
	if !ok {
		r = generic
	}
	d := newDoc(text)
	return planWith(r, d, o).evidenceOf(d)
}

// planWith is r's plan with the passes every reducer shares: runtime
// frames of traces that reach user code are elided (unless the reducer
// lists its evidence itself), and kept blocks that copy earlier kept
// blocks are collapsed.
func planWith(r reducer, d *doc, o Options) *plan {
	p := r.plan(d, o)
	if p.evidence == nil {
		p.trimRuntimeFrames(d)
	}
	p.keepShortRuns(d)
	p.collapseRepeats(d)
	return p
}

// Missing returns the evidence strings that out does not contain.
func Missing(evidence []string, out string) []string {
	if len(evidence) == 0 {
		return nil
	}
	lines := make(map[string]bool)
	for _, l := range strings.Split(out, "\n") {
		lines[strings.TrimSuffix(l, "\r")] = true
	}
	var miss []string
	for _, e := range evidence {
		if !lines[e] && !strings.Contains(out, e) {
			miss = append(miss, e)
		}
	}
	return miss
}

// HasEvidence reports whether any line of text is protected evidence for
// the generic reducer: an error, a frame, a source reference, an exit code,
// a summary or an expected/actual pair.
func HasEvidence(text string) bool {
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		if classify(line) != 0 {
			return true
		}
	}
	return false
}

func planGeneric(d *doc, o Options) *plan {
	p := newPlan(d)
	p.universal(d, 0, d.n(), o)
	p.headTail(o.HeadLines, o.TailLines)
	return p
}

// universal applies the generic evidence rules to lines [from, to):
// evidence lines are protected, error lines get context, and the lines that
// belong to a stack trace with them (a Go frame's function line, a Python
// frame's source line) are kept.
func (p *plan) universal(d *doc, from, to int, o Options) {
	for i := from; i < to; i++ {
		line := d.line(i)
		f := classify(line)
		if f == 0 {
			continue
		}
		p.set(i, protect)
		if errorish(f) || f&flagExit != 0 {
			p.keepRange(max(i-o.ContextLines, from), min(i+o.ContextLines+1, to))
		}
		if f&flagFrame != 0 && strings.HasPrefix(strings.TrimLeft(line, " "), "File \"") && i+1 < to {
			p.set(i+1, keep) // the source line of a Python frame
		}
		if f&flagFileRef != 0 && strings.HasPrefix(line, "\t") && i > from && !strings.HasPrefix(d.line(i-1), "\t") {
			p.set(i-1, protect) // the function line of a Go frame
		}
	}
}

// Detection looks at a sample of the lines: the first sampleHead and the
// last sampleTail, which is enough to recognise a format and keeps
// detection cheap on large outputs.
const sampleHead, sampleTail = 400, 100

// sample returns the line indices detection looks at.
func (d *doc) sample() []int {
	if d.samp != nil {
		return d.samp
	}
	n := d.n()
	if n <= sampleHead+sampleTail {
		d.samp = make([]int, n)
		for i := range d.samp {
			d.samp[i] = i
		}
		return d.samp
	}
	d.samp = make([]int, 0, sampleHead+sampleTail)
	for i := 0; i < sampleHead; i++ {
		d.samp = append(d.samp, i)
	}
	for i := n - sampleTail; i < n; i++ {
		d.samp = append(d.samp, i)
	}
	return d.samp
}

// count returns how many sampled lines satisfy f.
func count(d *doc, f func(i int) bool) int {
	n := 0
	for _, i := range d.sample() {
		if f(i) {
			n++
		}
	}
	return n
}

// nonBlank returns the number of non-blank sampled lines.
func nonBlank(d *doc) int {
	return count(d, func(i int) bool { return !d.blank(i) })
}

// sampled returns the number of sampled lines.
func sampled(d *doc) int { return len(d.sample()) }
