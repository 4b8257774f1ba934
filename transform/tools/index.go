package tools

import (
	"bytes"
	"hash/maphash"
	"sort"
	"strings"
	"sync"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/rank"
	"github.com/skillopt/skillopt/transform"
)

// Bounds of the tool index: every declaration contributes at most this
// much, however large its schema, so indexing work grows linearly with the
// number of tools and never with hostile schema sizes.
const (
	toolMaxDescBytes   = 2048 // description prefix read per tool
	toolMaxSchemaNodes = 2048 // schema nodes visited per tool
	toolMaxSchemaTerms = 256  // schema terms kept per tool
	toolMaxQueryBytes  = 4096 // human text read for the query
	toolMaxQueryTerms  = 64   // distinct query terms kept
	toolMaxIndexed     = 10000
)

// Field weights: a word in the tool's name says more than one in its
// description, which says more than a parameter name or description.
var toolFields = []rank.Field{
	{Name: "name", Weight: 3, B: 0.3},
	{Name: "description", Weight: 1.5, B: 0.75},
	{Name: "schema", Weight: 0.6, B: 0.75},
}

// toolExactBoost is added to a tool whose full name the query spells out, so an
// explicit request for a tool always ranks it first.
const toolExactBoost = 100

// toolSiblingBoost is the share of the best score among a tool's siblings (tools
// of the same server) added to its own: the tools of one MCP server are
// used together, so a strong match for one lifts the others above unrelated
// servers' tools.
const toolSiblingBoost = 0.35

// toolSynonyms are groups of words developers use interchangeably; every member
// also counts as the group's first entry, on both the query and the tool
// side. Multi-word entries expand to all their words.
var toolSynonyms = [][]string{
	{"pull request", "pr", "merge request", "mr"},
	{"repository", "repo"},
	{"kubernetes", "k8s", "kube", "kubectl"},
	{"postgresql", "postgres", "pg", "psql"},
	{"database", "db"},
	{"message", "msg"},
	{"issue", "ticket"},
	{"workflow", "ci", "pipeline"},
	{"environment", "env"},
	{"configuration", "config", "cfg"},
	{"namespace", "ns"},
	{"service", "svc"},
	{"error", "exception"},
	{"documentation", "docs"},
	{"directory", "dir", "folder"},
	{"screenshot", "screen capture"},
	{"javascript", "js"},
	{"typescript", "ts"},
}

// toolSynonymOf maps a normalised term to the normalised terms of its group's
// head (built on first use).
var toolSynonymOf = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, g := range toolSynonyms {
		head := toolBaseTerms(g[0])
		for _, w := range g[1:] {
			ts := toolBaseTerms(w)
			if len(ts) == 1 {
				m[ts[0]] = head
			}
		}
	}
	return m
})

// toolBaseTerms tokenizes and stems text without synonyms or stop words.
func toolBaseTerms(text string) []string {
	var out []string
	rank.Tokens(strings.ToLower(text), func(t string) { out = append(out, rank.Stem(t)) })
	return out
}

// toolNormalize returns the terms one token stands for: none for a stop
// word, else its stem and the stems of its synonym group's head.
func toolNormalize(tok string) []string {
	if rank.IsStopWord(tok) {
		return nil
	}
	t := rank.Stem(tok)
	if syn, ok := toolSynonymOf()[t]; ok {
		return append([]string{t}, syn...)
	}
	return []string{t}
}

// toolAppendTerms appends the normalised terms of text to out: tokens (split
// at camelCase only for identifiers; prose is lower-cased first so "GitHub"
// stays one word), stop words dropped, stemmed, synonyms added. At most
// limit terms are appended (limit <= 0: no limit).
func toolAppendTerms(out []string, text string, identifier bool, limit int) []string {
	start := len(out)
	rank.AppendTokens(text, identifier, nil, func(tok []byte) {
		if limit <= 0 || len(out)-start < limit {
			out = append(out, toolNormalize(string(tok))...)
		}
	})
	return out
}

// toolQueryTerms returns the distinct normalised terms of a query text.
func toolQueryTerms(text string) []string {
	if len(text) > toolMaxQueryBytes {
		text = text[:toolMaxQueryBytes]
	}
	terms := toolAppendTerms(nil, text, false, 0)
	if toolMentionsChannel(text) {
		// "#deploys" names a chat channel in every chat tool's convention.
		terms = append(terms, "channel")
	}
	q := rank.TermsQuery(terms).Terms
	if len(q) > toolMaxQueryTerms {
		q = q[:toolMaxQueryTerms]
	}
	return q
}

// toolMentionsChannel reports whether text mentions a chat channel as
// "#name" (a word start, then a letter).
func toolMentionsChannel(text string) bool {
	for i := 0; i+1 < len(text); i++ {
		if text[i] == '#' && (i == 0 || text[i-1] == ' ' || text[i-1] == '\n' || text[i-1] == '(') {
			if c := text[i+1]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
				return true
			}
		}
	}
	return false
}

// toolIndex ranks the function declarations of one capture.
type toolIndex struct {
	idx   *rank.Index
	names []string // document number → tool name
	lower []string // lower-case names for exact matching
	group []int    // document number → server group, -1 for none
}

// toolIndexCache keeps the indexes of recently seen tool sets: consecutive
// requests of one session carry the same declarations, so ranking a new
// request usually costs only the search.
var toolIndexCache struct {
	sync.Mutex
	seeds   [2]maphash.Seed
	entries []toolCachedIndex
}

type toolCachedIndex struct {
	sum [2]uint64
	idx *toolIndex
}

const toolIndexCacheSize = 16

func init() { toolIndexCache.seeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()} }

// toolBuildIndex indexes the function declarations of decls (a bounded
// walk of each schema), reusing a cached index for identical declarations.
func toolBuildIndex(d *capture.Doc, decls []transform.ToolDecl) *toolIndex {
	// Two independently seeded 64-bit hashes of the declarations identify
	// a tool set without keeping a copy of it.
	var h [2]maphash.Hash
	for k := range h {
		h[k].SetSeed(toolIndexCache.seeds[k])
	}
	for i := range decls {
		if decls[i].Function {
			for k := range h {
				h[k].Write(d.Raw(decls[i].Node))
				h[k].WriteByte(0)
			}
		}
	}
	sum := [2]uint64{h[0].Sum64(), h[1].Sum64()}
	toolIndexCache.Lock()
	for _, e := range toolIndexCache.entries {
		if e.sum == sum {
			toolIndexCache.Unlock()
			return e.idx
		}
	}
	toolIndexCache.Unlock()
	// Sizes from the declarations' bytes: roughly one distinct term per 48
	// bytes and one posting per 12.
	size := 0
	for i := range decls {
		if decls[i].Function {
			size += decls[i].Bytes(d)
		}
	}
	b := rank.NewIDBuilder(toolFields...)
	b.Reserve(size/48, size/12)
	tt := newToolTermer(b, size)
	ti := &toolIndex{}
	var name, desc, schema []int32
	for i := range decls {
		t := &decls[i]
		if !t.Function || len(ti.names) >= toolMaxIndexed {
			continue
		}
		name = tt.add(name[:0], []byte(t.Name), true, 0)
		desc = tt.addString(desc[:0], d, t.Desc, false, toolMaxDescBytes, 0)
		schema = toolSchemaTerms(tt, schema[:0], d, t.Params)
		b.Add(name, desc, schema)
		ti.names = append(ti.names, t.Name)
		ti.lower = append(ti.lower, strings.ToLower(t.Name))
	}
	ti.idx = b.Build()
	ti.group = toolServerGroups(ti.names)
	toolIndexCache.Lock()
	if len(toolIndexCache.entries) >= toolIndexCacheSize {
		toolIndexCache.entries = toolIndexCache.entries[1:]
	}
	toolIndexCache.entries = append(toolIndexCache.entries, toolCachedIndex{sum: sum, idx: ti})
	toolIndexCache.Unlock()
	return ti
}

// toolServerGroups assigns each tool the group of tools from the same
// server, recognised by a name prefix: "mcp__server__tool" and
// "server__tool" (Claude Code and MCP gateways), "server.tool", or
// "server_tool" when at least three tools share a first word that is not a
// common verb.
func toolServerGroups(names []string) []int {
	prefixes := make([]string, len(names))
	count := map[string]int{}
	for i, n := range names {
		prefixes[i] = toolServerPrefix(n)
		count[prefixes[i]]++
	}
	ids := map[string]int{}
	out := make([]int, len(names))
	for i, p := range prefixes {
		out[i] = -1
		if p == "" || count[p] < 2 || (strings.HasSuffix(p, "_") && !strings.HasSuffix(p, "__") && count[p] < 3) {
			continue
		}
		id, ok := ids[p]
		if !ok {
			id = len(ids)
			ids[p] = id
		}
		out[i] = id
	}
	return out
}

// toolServerPrefix returns the server part of a tool name including its
// separator ("mcp__github__", "slack_"), or "".
func toolServerPrefix(name string) string {
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		if i := strings.Index(rest, "__"); i > 0 {
			return name[:len("mcp__")+i+2]
		}
		return ""
	}
	if i := strings.Index(name, "__"); i > 0 {
		return name[:i+2]
	}
	if i := strings.IndexByte(name, '.'); i > 0 {
		return name[:i+1]
	}
	if i := strings.IndexByte(name, '_'); i > 0 && !toolVerbs()[strings.ToLower(name[:i])] {
		return name[:i+1]
	}
	return ""
}

// toolVerbs are first words of tool names that name an action, not a
// server (built on first use).
var toolVerbs = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`get list create update delete remove add set put post send read write run exec execute
	query search find fetch open close start stop show describe check explain apply patch move copy rename upload download
	make new edit view load save submit merge scale restart`) {
		m[w] = true
	}
	return m
})

// toolSchemaTerms walks a parameter schema (bounded) and appends the terms
// of its property names, titles, descriptions and string enum values.
func toolSchemaTerms(tt *toolTermer, out []int32, d *capture.Doc, params capture.Node) []int32 {
	if params == capture.NoNode {
		return out
	}
	start := len(out)
	end := min(d.Nodes[params].Skip, params+toolMaxSchemaNodes)
	for i, parent := range d.Walk(params) {
		if i >= end || len(out)-start >= toolMaxSchemaTerms {
			break
		}
		left := toolMaxSchemaTerms - (len(out) - start)
		n := &d.Nodes[i]
		switch {
		case d.IsMember(i) && toolKeyIs(d, parent, "properties"):
			// A property: its name is an identifier.
			key := d.RawKey(i)
			if bytes.IndexByte(key, '\\') >= 0 {
				key = []byte(d.Key(i))
			}
			out = tt.add(out, key, true, left)
		case n.Kind == capture.String && (toolKeyIs(d, i, "description") || toolKeyIs(d, i, "title")):
			out = tt.addString(out, d, i, false, 512, left)
		case n.Kind == capture.String && toolKeyIs(d, parent, "enum"):
			out = tt.addString(out, d, i, true, 64, left)
		}
	}
	return out
}

// toolHit is one ranked tool.
type toolHit struct {
	doc  int
	Name string
	// Score ranks: BM25F, exact-name boost and sibling boost. Raw is the
	// evidence of the tool's own text (BM25F and exact-name boost only).
	Score, Raw float64
	Matched    int
	// Exact is set when the query spells out the tool's full name.
	Exact bool
}

// search ranks the tools allowed by keep (nil: all) for the query text,
// best first; ties order by declaration order. Sibling boosts are computed
// over every tool, so a strong match for a kept tool still lifts its
// deferred siblings.
func (ti *toolIndex) search(query string, terms []string, keep func(name string) bool) []toolHit {
	hits := ti.idx.Search(rank.Query{Terms: terms}, 0)
	byDoc := make(map[int]int, len(hits))
	all := make([]toolHit, 0, len(hits))
	for _, h := range hits {
		byDoc[h.Doc] = len(all)
		all = append(all, toolHit{doc: h.Doc, Name: ti.names[h.Doc], Score: h.Score, Raw: h.Score, Matched: h.Matched})
	}
	// A query that is a tool's name finds it, however short or unusual the
	// name; longer names also count when the text mentions them.
	whole := strings.ToLower(strings.TrimSpace(query))
	if len(query) > toolMaxQueryBytes {
		query = query[:toolMaxQueryBytes]
	}
	lq := strings.ToLower(query)
	for doc, name := range ti.lower {
		if name != whole && (len(name) < 3 || !toolContainsWord(lq, name)) {
			continue
		}
		j, ok := byDoc[doc]
		if !ok {
			j = len(all)
			byDoc[doc] = j
			all = append(all, toolHit{doc: doc, Name: ti.names[doc]})
		}
		all[j].Score += toolExactBoost
		all[j].Raw += toolExactBoost
		all[j].Exact = true
	}
	ti.boostSiblings(all)
	out := all[:0]
	for _, h := range all {
		if keep == nil || keep(h.Name) {
			out = append(out, h)
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].Score != out[b].Score {
			return out[a].Score > out[b].Score
		}
		return out[a].doc < out[b].doc
	})
	return out
}

// boostSiblings adds toolSiblingBoost times the best score among each hit's
// other hits of the same server group (from the scores before boosting).
func (ti *toolIndex) boostSiblings(hits []toolHit) {
	type top struct {
		best, second float64
		bestDoc      int
	}
	groups := map[int]*top{}
	for _, h := range hits {
		g := ti.group[h.doc]
		if g < 0 {
			continue
		}
		t, ok := groups[g]
		if !ok {
			t = &top{bestDoc: -1}
			groups[g] = t
		}
		s := h.Raw
		if h.Exact {
			s -= toolExactBoost // a sibling named exactly lifts the others by its text only
		}
		switch {
		case s > t.best:
			t.second, t.best, t.bestDoc = t.best, s, h.doc
		case s > t.second:
			t.second = s
		}
	}
	for i := range hits {
		g := ti.group[hits[i].doc]
		if g < 0 {
			continue
		}
		t := groups[g]
		other := t.best
		if t.bestDoc == hits[i].doc {
			other = t.second
		}
		hits[i].Score += toolSiblingBoost * other
	}
}

// toolContainsWord reports whether s contains w bounded by characters that
// cannot continue an identifier.
func toolContainsWord(s, w string) bool {
	for from := 0; ; {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return false
		}
		i += from
		j := i + len(w)
		if (i == 0 || !toolIdentByte(s[i-1])) && (j == len(s) || !toolIdentByte(s[j])) {
			return true
		}
		from = i + 1
	}
}

func toolIdentByte(c byte) bool {
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
