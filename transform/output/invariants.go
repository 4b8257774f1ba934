package output

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/reduce"
	"github.com/skillopt/skillopt/rules"
)

// The invariants of the output and history rules (SO420–SO425). They read
// the transformed capture and the archive; each reports what breaks a
// promise of SO301–SO306.

// labelKind says which rule's recovery text a string is.
type labelKind int

const (
	kindSmart labelKind = iota + 1
	kindColumnar
	kindDuplicate
	kindOverflow
	kindHistory
)

// labelled is one provider-visible recovery text of a capture.
type labelled struct {
	pointer string
	text    string
	kind    labelKind
	handle  string
}

// labels finds the recovery texts of c: reduced, columnar, duplicate and
// overflow tool results, and history markers.
func labels(c *capture.Capture) []labelled {
	d := c.Doc
	var out []labelled
	for _, r := range toolResults(c) {
		for _, t := range r.texts {
			text := d.Str(t)
			hs := archive.FindHandles(text)
			if len(hs) == 0 {
				continue
			}
			l := labelled{pointer: d.Pointer(t), text: text}
			switch {
			case reduce.IsColumnar(text):
				l.kind, l.handle = kindColumnar, reduce.ColumnarHandle(text)
			case reduce.IsDuplicateLabel(text):
				l.kind, l.handle = kindDuplicate, hs[len(hs)-1]
			case reduce.IsOverflow(text):
				l.kind, l.handle = kindOverflow, hs[0]
			case reduce.ReducerOf(text) != "":
				l.kind, l.handle = kindSmart, hs[len(hs)-1]
			default:
				continue
			}
			out = append(out, l)
		}
	}
	if arr := messagesNode(c); arr != capture.NoNode {
		for m := range d.Children(arr) {
			for i := range d.Walk(m) {
				if d.Kind(i) == capture.String && strings.HasPrefix(d.Str(i), middlePrefix) {
					if hs := archive.FindHandles(d.Str(i)); len(hs) > 0 {
						out = append(out, labelled{pointer: d.Pointer(i), text: d.Str(i), kind: kindHistory, handle: hs[0]})
					}
				}
			}
		}
	}
	return out
}

// evidenceKept is SO420.
var evidenceKept = &rules.Rule{
	ID:       "SO420",
	Title:    "Reduced tool results keep their evidence",
	Why:      "A reduction is only safe if every error line, frame and file position of the original is still there for the model to act on.",
	Since:    rules.FirstVersion,
	Name:     "invariant.output-evidence",
	Kind:     rules.Invariant,
	Severity: rules.Error,
	Reads:    []string{"output.head_lines", "output.tail_lines", "output.context_lines", "output.max_line_bytes"},
	Doc: "Every reduced tool result still contains the protected evidence of its original. " +
		"For each result SO301 reduced, the original is read back from the archive and the evidence of the reducer named in the label (error and failure lines, frames, file:line references, " +
		"exit codes, failing tests, summaries, expected/actual) must appear verbatim in the reduced text; for each SO302 columnar form, every string token of the original that is evidence must " +
		"appear verbatim in the form. Overflow previews (SO304) are bounded by design and are not checked.",
	Run: func(p *rules.Pass) error {
		store := storeOf(p)
		opts := reduceOptions(SettingsOf(p.Env))
		for _, l := range labels(p.Result.Final) {
			if l.kind != kindSmart && l.kind != kindColumnar {
				continue
			}
			orig, err := store.Get(l.handle)
			if err != nil {
				continue // SO421 reports unresolvable handles
			}
			var miss []string
			if l.kind == kindSmart {
				miss = reduce.Missing(reduce.Evidence(reduce.ReducerOf(l.text), string(orig), opts), reduce.StripSmartLabel(l.text))
			} else {
				miss = reduce.MissingTokens(reduce.ColumnarEvidence(string(orig)), l.text)
			}
			if len(miss) > 0 {
				p.Reportf(l.pointer, "%d evidence string(s) of the original are missing from the reduction, first %q", len(miss), clip(miss[0]))
			}
		}
		return nil
	},
}

// handlesResolve is SO421.
var handlesResolve = &rules.Rule{
	ID:       "SO421",
	Title:    "Every handle resolves to its exact original",
	Why:      "A handle promises that the original can be retrieved byte for byte; one that resolves to nothing, or to other bytes, means content was lost.",
	Since:    rules.FirstVersion,
	Name:     "invariant.handles-resolve",
	Kind:     rules.Invariant,
	Severity: rules.Error,
	Doc: "Every handle the output and history rules leave in a capture resolves in the archive to the exact original. " +
		"Each handle in a recovery label, columnar form, duplicate reference, overflow note or history marker must name an archived object whose SHA-256 still matches, " +
		"and for every tool result the pipeline replaced, the archived bytes must equal the result's original text byte for byte (line endings included), so `skillopt archive get` reproduces it. " +
		"A capture that carries handles needs the archive it was transformed with.",
	Run: func(p *rules.Pass) error {
		store := storeOf(p)
		for _, l := range labels(p.Result.Final) {
			if _, err := store.Get(l.handle); err != nil {
				p.Reportf(l.pointer, "handle does not resolve: %v", err)
			}
		}
		// Exact recovery of what this pipeline replaced.
		for _, ch := range outputChanges(p.Result) {
			before, after, ok := changedStrings(p.Result, ch.Pointer)
			if !ok {
				continue
			}
			for _, h := range archive.FindHandles(after) {
				if strings.Contains(before, h) {
					continue
				}
				got, err := store.Get(h)
				if err != nil {
					continue // reported above
				}
				if !bytes.Equal(got, []byte(before)) {
					p.Reportf(ch.Pointer, "archive get %s returns %d bytes that differ from the %d-byte original", h, len(got), len(before))
				}
			}
		}
		return nil
	},
}

// noArchivePath is SO422.
var noArchivePath = &rules.Rule{
	ID:       "SO422",
	Title:    "Provider-visible text does not reveal the archive's location",
	Why:      "Recovery texts should carry only opaque handles; a path would leak the host's layout to the provider.",
	Since:    rules.FirstVersion,
	Name:     "invariant.no-archive-path",
	Kind:     rules.Invariant,
	Severity: rules.Error,
	Doc: "Provider-visible text never says where the archive is. " +
		"After transformation, the capture must not mention the archive directory (its absolute path, or the path as configured when that has more than one component) or an object's file name more often than the original did: " +
		"recovery texts carry only opaque handles. A path counts where it stands as a path, not inside a longer name or word, so a one-word archive directory such as \"arch\" is looked for as its absolute path only.",
	Run: func(p *rules.Pass) error {
		needles := []string{}
		if dir := archiveDir(storeOf(p)); dir != "" {
			if clean := filepath.Clean(dir); strings.ContainsRune(filepath.ToSlash(clean), '/') && clean != "/" {
				needles = append(needles, dir, filepath.ToSlash(dir))
			}
			if abs, err := filepath.Abs(dir); err == nil {
				needles = append(needles, abs, filepath.ToSlash(abs))
			}
		}
		for _, l := range labels(p.Result.Final) {
			if sum, err := archive.ParseHandle(l.handle); err == nil {
				needles = append(needles, fmt.Sprintf("%x", sum[:]))
			}
		}
		before, after := p.Result.Original.Body, p.Result.Final.Body
		// Names (an object's digest, a folder's name) are counted in one
		// pass over each body; paths with separators one by one.
		var names []string
		var paths []string
		for _, n := range distinctStrings(needles) {
			if isName(n) {
				names = append(names, n)
			} else {
				paths = append(paths, n)
			}
		}
		nb, na := nameCounts(before, names), nameCounts(after, names)
		for _, n := range names {
			if na[n] > nb[n] {
				p.Reportf("", "the transformed capture mentions the archive location %q", clip(n))
			}
		}
		for _, n := range paths {
			if pathCount(after, n) > pathCount(before, n) {
				p.Reportf("", "the transformed capture mentions the archive location %q", clip(n))
			}
			// JSON escapes "/" optionally; check the escaped spelling too.
			if esc := strings.ReplaceAll(n, "/", `\/`); esc != n && pathCount(after, esc) > pathCount(before, esc) {
				p.Reportf("", "the transformed capture mentions the archive location %q", clip(n))
			}
		}
		return nil
	},
}

// isName reports whether s is made of path bytes only (no separator).
func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !pathByte(s[i]) {
			return false
		}
	}
	return true
}

// nameCounts is pathCount of each of names in body, in one pass: a name
// stands on its own where a maximal run of path bytes is the name, or the
// name and a final dot.
func nameCounts(body []byte, names []string) map[string]int {
	out := map[string]int{}
	if len(names) == 0 {
		return out
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	for i := 0; i < len(body); {
		if !pathByte(body[i]) {
			i++
			continue
		}
		j := i
		for j < len(body) && pathByte(body[j]) {
			j++
		}
		run := body[i:j]
		if want[string(run)] {
			out[string(run)]++
		} else if len(run) > 1 && run[len(run)-1] == '.' && want[string(run[:len(run)-1])] {
			out[string(run[:len(run)-1])]++
		}
		i = j
	}
	return out
}

// pathCount counts the places where path stands in body as a path of its
// own: not preceded or followed by a character that would make it part of
// a longer name ("arch" in "search" or "archive" is not the folder "arch").
func pathCount(body []byte, path string) int {
	n := 0
	for i := 0; ; {
		k := bytes.Index(body[i:], []byte(path))
		if k < 0 {
			return n
		}
		at := i + k
		end := at + len(path)
		if (at == 0 || !pathByte(body[at-1])) && (end == len(body) || !pathByte(body[end]) || body[end] == '.' && (end+1 == len(body) || !pathByte(body[end+1]))) {
			n++
		}
		i = at + 1
	}
}

// pathByte reports whether b may continue a file name.
func pathByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '-' || b == '.' || b >= 0x80
}

// smaller is SO423.
var smaller = &rules.Rule{
	ID:       "SO423",
	Title:    "Output and history rules make things smaller",
	Why:      "Every replacement these rules make must pay for itself, including the retrieve_output declaration it may add.",
	Since:    rules.FirstVersion,
	Name:     "invariant.output-smaller",
	Kind:     rules.Invariant,
	Severity: rules.Error,
	Doc: "Every value an output or history rule replaced got smaller, and so did every step. " +
		"Each replacement an SO3xx rule made (a tool result, an assistant text, a history array) must be fewer bytes than what it replaced, and each applied SO3xx step must shrink the body, " +
		"counting the retrieve_output declaration it adds.",
	Run: func(p *rules.Pass) error {
		for _, s := range p.Result.Steps {
			if !strings.HasPrefix(s.Rule.ID, "SO3") || !s.Applied {
				continue
			}
			if s.Saved() <= 0 {
				p.Reportf("", "%s was applied without a saving (%d → %d bytes)", s.Rule.ID, s.BytesBefore, s.BytesAfter)
			}
			for _, ch := range s.Changes {
				if isAddition(ch) {
					continue
				}
				if ch.BytesAfter >= ch.BytesBefore {
					p.Reportf(ch.Pointer, "%s replaced %d bytes with %d", s.Rule.ID, ch.BytesBefore, ch.BytesAfter)
				}
			}
		}
		return nil
	},
}

// idempotent is SO424.
var idempotent = &rules.Rule{
	ID:       "SO424",
	Title:    "The output and history rules are idempotent",
	Why:      "A second pass that changed the result again, or a handle pointing to another handle, would make requests drift from turn to turn and break prompt caches.",
	Since:    rules.FirstVersion,
	Name:     "invariant.output-idempotent",
	Kind:     rules.Invariant,
	Severity: rules.Error,
	Doc: "A second pass of the output and history rules changes nothing, and no handle names a text that already carried one. " +
		"The SO3xx rules of the pipeline are run again over their own result and must return it byte for byte; and the archived original behind every reduction, " +
		"columnar form, duplicate reference or overflow note must not itself be a skillopt recovery text (no handle of a handle).",
	Run: func(p *rules.Pass) error {
		var again []*rules.Rule
		for _, s := range p.Result.Steps {
			if strings.HasPrefix(s.Rule.ID, "SO3") {
				again = append(again, s.Rule)
			}
		}
		if len(again) > 0 {
			res, err := rules.Run(p.Result.Final, again, p.Env)
			if err != nil {
				return err
			}
			if !bytes.Equal(res.Final.Body, p.Result.Final.Body) {
				p.Reportf("", "a second pass of %d output rule(s) changed the body (%d → %d bytes)", len(again), len(p.Result.Final.Body), len(res.Final.Body))
			}
		}
		store := storeOf(p)
		for _, l := range labels(p.Result.Final) {
			if l.kind == kindHistory {
				continue
			}
			orig, err := store.Get(l.handle)
			if err != nil {
				continue
			}
			if hs := archive.FindHandles(string(orig)); len(hs) > 0 {
				p.Reportf(l.pointer, "the original behind %s already carries handle %s", l.handle, hs[0])
			}
		}
		return nil
	},
}

// columnarRoundTrip is SO425.
var columnarRoundTrip = &rules.Rule{
	ID:       "SO425",
	Title:    "Columnar forms decode to their original",
	Why:      "The columnar form claims to be lossless; decoding it must give exactly the original array.",
	Since:    rules.FirstVersion,
	Name:     "invariant.columnar-round-trip",
	Kind:     rules.Invariant,
	Severity: rules.Error,
	Doc: "Every columnar form decodes back to exactly its archived original. " +
		"Decoding the columns, rows and absent cells of each SO302 form must give the original JSON array under JSON semantics: the same rows in the same order, " +
		"the same members, strings equal after decoding, numbers spelled identically.",
	Run: func(p *rules.Pass) error {
		store := storeOf(p)
		for _, l := range labels(p.Result.Final) {
			if l.kind != kindColumnar {
				continue
			}
			back, err := reduce.DecodeColumnar(l.text)
			if err != nil {
				p.Reportf(l.pointer, "columnar form does not decode: %v", err)
				continue
			}
			orig, err := store.Get(l.handle)
			if err != nil {
				continue
			}
			if eq, err := reduce.EqualJSON(string(orig), back); err != nil || !eq {
				p.Reportf(l.pointer, "columnar form decodes to a different value than its original")
			}
		}
		return nil
	},
}

// archiveDir returns the folder of an archive on disk, or of the store an
// in-memory archive reads through; "" when there is none.
func archiveDir(k archive.Keeper) string {
	if d, ok := k.(interface{ Dir() string }); ok {
		return d.Dir()
	}
	return ""
}

// outputChanges lists the replacements SO3xx rules made.
func outputChanges(res *rules.Result) []rules.Change {
	var out []rules.Change
	for _, s := range res.Steps {
		if !strings.HasPrefix(s.Rule.ID, "SO3") || !s.Applied {
			continue
		}
		for _, ch := range s.Changes {
			if !isAddition(ch) {
				out = append(out, ch)
			}
		}
	}
	return out
}

// isAddition reports whether a change added a value (an appended element
// or an inserted member) instead of replacing one.
func isAddition(ch rules.Change) bool {
	return ch.BytesBefore == 0 || strings.HasSuffix(ch.Pointer, "/-")
}

// changedStrings returns the string at pointer before the pipeline and
// after it, when both are strings.
func changedStrings(res *rules.Result, ptr string) (string, string, bool) {
	a, err := res.Original.Doc.Lookup(ptr)
	if err != nil || res.Original.Doc.Kind(a) != capture.String {
		return "", "", false
	}
	b, err := res.Final.Doc.Lookup(ptr)
	if err != nil || res.Final.Doc.Kind(b) != capture.String {
		return "", "", false
	}
	return res.Original.Doc.Str(a), res.Final.Doc.Str(b), true
}

func distinctStrings(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "…"
	}
	return s
}
