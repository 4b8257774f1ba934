package catalogbench

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/internal/bench/synth"
)

// HostContextBytes is about how much text a coding agent's system prompt
// holds besides the skill catalog: its own instructions, then the
// project's context files. The synthetic request gets that much generated
// text before its skills section.
const HostContextBytes = 22 << 10

// HistoryTurns is the model requests of the synthetic session so far: the
// request replays HistoryTurns-1 exchanges (an assistant tool call, its
// result and a user follow-up) before the latest user turn.
const HistoryTurns = 4

// hostContext returns about size bytes of generated project context: the
// kind of AGENTS.md a repository gives its coding agent (layout, commands,
// conventions, review notes), deterministic in seed.
func hostContext(size int, seed int64) string {
	r := rand.New(rand.NewPCG(uint64(seed), 0x686f7374))
	pick := func(list []string) string { return list[r.IntN(len(list))] }
	var b strings.Builder
	b.Grow(size + 512)
	b.WriteString("# Project context\n\nThe instructions below come from the repository's own context files. Follow them unless the user asks otherwise.\n\n## AGENTS.md\n\n")
	for section := 0; b.Len() < size; section++ {
		area := ctxAreas[section%len(ctxAreas)]
		fmt.Fprintf(&b, "### %s %s\n\n", strings.ToUpper(area[:1])+area[1:], pick(ctxHeadings))
		for range 2 + r.IntN(3) {
			dir := pick(ctxDirs) + "/" + area
			fmt.Fprintf(&b, "- `%s/` %s %s %s; %s.\n", dir, pick(ctxVerbs), pick(ctxObjects), pick(ctxQualifiers), pick(ctxReasons))
		}
		fmt.Fprintf(&b, "\nRun `%s` before pushing; it %s. %s\n\n", pick(ctxCommands)+" ./"+area+"/...", pick(ctxChecks), pick(ctxNotes))
		for range 3 + r.IntN(4) {
			fmt.Fprintf(&b, "- %s %s %s, %s.\n", pick(ctxRules), pick(ctxObjects), pick(ctxQualifiers), pick(ctxReasons))
		}
		b.WriteString("\n")
	}
	return b.String()
}

var (
	ctxAreas    = []string{"ledger", "billing", "payout", "audit", "export", "settle", "gateway", "scheduler", "notify", "reports", "identity", "storage"}
	ctxHeadings = []string{"package", "service", "module", "pipeline", "workers"}
	ctxDirs     = []string{"internal", "cmd", "pkg", "services", "tools"}
	ctxVerbs    = []string{"holds", "owns", "wraps", "exposes", "schedules", "validates", "persists", "streams"}
	ctxObjects  = []string{"the batch writer", "the retry queue", "the HTTP handlers", "the database migrations", "the protobuf contracts", "the metrics exporters",
		"the configuration loader", "the feature flags", "the reconciliation job", "the export formats", "the audit trail", "the rate limiter"}
	ctxQualifiers = []string{"for every tenant", "behind an interface", "with its own tests", "through the shared client", "in one transaction", "without global state",
		"under a context deadline", "in deterministic order"}
	ctxReasons = []string{"other services import it", "finance reads its output every night", "changes here need a second reviewer", "the on-call runbook depends on it",
		"its behaviour is part of the public API", "it runs in the hot path", "staging and production share it", "the nightly job replays it"}
	ctxCommands = []string{"make test", "go test -race", "make lint", "go vet", "make integration", "buf lint"}
	ctxChecks   = []string{"takes about two minutes", "needs the local database from docker compose", "fails on formatting drift", "also runs the golden files",
		"checks the generated code is current"}
	ctxNotes = []string{"Never edit generated files by hand; regenerate them.", "Keep commits small and describe why, not what.", "Ask before adding a dependency.",
		"Log with the structured logger only.", "Money is integer cents everywhere; never use floats.", "Time zones are UTC inside the service."}
	ctxRules = []string{"Prefer", "Avoid", "Document", "Test", "Keep", "Review", "Benchmark", "Name"}
)

// realisticBody returns body (a synthetic Anthropic request from
// synth.Capture) with HostContextBytes of project context inserted into
// its system text, just before the skills section.
func realisticBody(body []byte, seed int64) ([]byte, error) {
	at := bytes.Index(body, []byte(synth.SkillsPreamble))
	if at < 0 || bytes.Contains(body[at+1:], []byte(synth.SkillsPreamble)) {
		return nil, errors.New("synthetic request does not hold its skills section exactly once")
	}
	q := capture.Quote(hostContext(HostContextBytes, seed) + "\n")
	q = q[1 : len(q)-1] // the string's content, without its quotes
	out := make([]byte, 0, len(body)+len(q))
	out = append(out, body[:at]...)
	out = append(out, q...)
	return append(out, body[at:]...), nil
}

// Variants makes a request different in its latest human text only: the
// body cut around that string, and the texts to put in its place.
type Variants struct {
	Name     string
	Provider capture.Provider
	head     []byte
	tail     []byte
	queries  []string
	next     int
}

// NewVariants cuts body (one request of provider, which holds a catalog
// whose skills are given) around its latest human text and draws count
// distinct texts from the skills' names and descriptions, deterministic in
// seed.
func NewVariants(name string, body []byte, provider capture.Provider, skills []catalog.Skill, count int, seed int64) (*Variants, error) {
	f, err := capture.Read(name, body, capture.Options{Provider: provider})
	if err != nil {
		return nil, err
	}
	if len(f.Captures) != 1 {
		return nil, fmt.Errorf("%s: %d requests in the body, want one", name, len(f.Captures))
	}
	c := f.Captures[0]
	node := latestHuman(c)
	if node == capture.NoNode {
		return nil, fmt.Errorf("%s: no human text to vary", name)
	}
	n := c.Doc.Nodes[node]
	if len(skills) == 0 {
		return nil, fmt.Errorf("%s: no skill in the catalog to draw requests from", name)
	}
	return &Variants{Name: name, Provider: c.Provider, head: c.Body[:n.Start], tail: c.Body[n.End:], queries: Queries(skills, count, seed)}, nil
}

// Next returns the next request body; after the last text it starts over.
func (v *Variants) Next() []byte {
	v.next++
	return v.At(v.next - 1)
}

// At returns the body with the i-th text (modulo Len), whatever Next has
// handed out.
func (v *Variants) At(i int) []byte {
	q := capture.Quote(v.queries[i%len(v.queries)])
	out := make([]byte, 0, len(v.head)+len(q)+len(v.tail))
	out = append(out, v.head...)
	out = append(out, q...)
	return append(out, v.tail...)
}

// Len is how many distinct texts there are.
func (v *Variants) Len() int { return len(v.queries) }

// latestHuman is the string node of the latest text a person typed (the
// last human segment, or the last text string inside it), or capture.NoNode; it is the
// text the prefetch overlay (SO103) reads.
func latestHuman(c *capture.Capture) capture.Node {
	segs := c.Segments()
	d := c.Doc
	for k := len(segs) - 1; k >= 0; k-- {
		s := segs[k]
		if s.Prov != capture.ProvHuman {
			continue
		}
		if d.Kind(s.Node) == capture.String {
			return s.Node
		}
		best := capture.NoNode
		for i := s.Node; i < d.Nodes[s.Node].Skip; i++ {
			if d.Kind(i) == capture.String {
				if key := d.Key(i); key == "text" || key == "content" {
					best = i
				}
			}
		}
		if best != capture.NoNode {
			return best
		}
	}
	return capture.NoNode
}

// Queries draws count distinct user requests, each aimed at a skill of
// the catalog: words of its name and of its description in one of a few
// phrasings, deterministic in seed.
func Queries(skills []catalog.Skill, count int, seed int64) []string {
	r := rand.New(rand.NewPCG(uint64(seed), 0x71756572))
	seen := make(map[string]bool, count)
	out := make([]string, 0, count)
	for tries := 0; len(out) < count; tries++ {
		sk := skills[r.IntN(len(skills))]
		name := strings.Join(strings.FieldsFunc(sk.Name, func(c rune) bool { return c == '-' || c == '_' || c == ':' || c == '/' }), " ")
		words := contentWords(sk.Description)
		var pick []string
		for range min(len(words), 2+r.IntN(3)) {
			pick = append(pick, words[r.IntN(len(words))])
		}
		q := fmt.Sprintf(queryForms[r.IntN(len(queryForms))], name, strings.Join(pick, " "))
		if tries > 4*count {
			q = fmt.Sprintf("%s (request %d)", q, len(out)+1) // a tiny catalog
		}
		if !seen[q] {
			seen[q] = true
			out = append(out, q)
		}
	}
	return out
}

var queryForms = []string{
	"Can you %s for me? It is about %s.",
	"I need help with %s: %s, please keep the change small.",
	"Next step: %s. Look at %s first and tell me what you find.",
	"Please %s again, this time covering %s.",
	"%s is failing in CI; check the %s part and fix it.",
}

// contentWords are the lower-case words of at least four letters of s.
func contentWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(c rune) bool { return !unicode.IsLetter(c) }) {
		if len(w) >= 4 {
			out = append(out, strings.ToLower(w))
		}
	}
	if len(out) == 0 {
		out = []string{"this"}
	}
	return out
}
