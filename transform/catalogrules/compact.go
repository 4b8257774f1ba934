package catalogrules

import (
	"fmt"
	"slices"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/transform"
)

// isSearchDesc reports whether a skill_search description is skillopt's.
func isSearchDesc(desc string) bool { return desc == SearchTool().Description }

// CompactIndex is SO101.
var CompactIndex = &rules.Rule{
	ID:       "SO101",
	Title:    "Replace the skill catalog with a compact index",
	Why:      "A native catalog repeats every skill's full description and file location on every request, although the model needs only enough to pick one. The compact index keeps every name routable through skill_search for far fewer tokens, and stays byte-identical across requests so prompt caches keep hitting.",
	Since:    rules.FirstVersion,
	Name:     "catalog.compact-index",
	Kind:     rules.Transform,
	Severity: rules.Info,
	// The catalog's full descriptions and locations leave the request.
	Engine: rules.Engine{Lossy: true},
	Doc: "Replaces each native skill catalog with a compact, query-independent TSV index of names and short intents. " +
		"Pi's <available_skills> block and its preamble list every skill with its full description and file location on every request. " +
		"The compact index keeps every eligible name, adds a routing phrase per skill while the shared catalog.budget_chars budget allows " +
		"(intents yield, names never), carries no filesystem path, and declares a skill_search tool through which the model searches, " +
		"browses and loads skills. Unchanged catalog and configuration give byte-identical blocks on every request, and skill_search is the same declaration on every request, " +
		"in front of the last tool that carries an Anthropic cache_control breakpoint, so the provider's cached prefix keeps covering every tool. " +
		"With catalog.resolver = false (a host policy withholds skill_search), or when the request already has a tool named skill_search that skillopt did not declare, the native catalog stays.",
	Reads:  []string{"catalog.budget_chars", "catalog.exclude", "catalog.profile", "catalog.resolver"},
	Detail: detail,
	Run: func(p *rules.Pass) error {
		set := SettingsOf(p.Env)
		if !set.Resolver {
			return nil // the host withholds skill_search: the native catalog stays
		}
		e, cats := entryFor(p.Capture)
		if e == nil {
			p.Idle("no native skill catalog")
			return nil
		}
		compact := e.compactResult(set.BudgetChars, set.Exclude)
		if set.Profile != "" {
			if prof, err := currentProfile(p, e.eligible(set.Exclude)); err != nil {
				return err
			} else if prof != nil {
				// Current cards: the tag directory (SO102) applies.
				p.Idle("a current card profile: the tag directory (SO102) replaces the catalog")
				return nil
			}
		}
		return replaceQuoted(p, cats, compact.quoted)
	},
}

// eligibleGroups filters each catalog's skills: excluded names go, and a
// name already listed by an earlier catalog is not listed again.
func eligibleGroups(cats []embedded, exclude []string) [][]catalog.Skill {
	total := len(exclude)
	for _, e := range cats {
		total += len(e.Skills)
	}
	seen := make(map[string]bool, total)
	for _, n := range exclude {
		seen[n] = true
	}
	groups := make([][]catalog.Skill, len(cats))
	for i, e := range cats {
		// The catalog's own slice while every skill is kept (the usual
		// case); a copy once one is left out.
		copied := false
		for j, sk := range e.Skills {
			if seen[sk.Name] || sk.DisableModelInvocation {
				if !copied {
					groups[i] = append(make([]catalog.Skill, 0, len(e.Skills)-1), e.Skills[:j]...)
					copied = true
				}
				continue
			}
			seen[sk.Name] = true
			if copied {
				groups[i] = append(groups[i], sk)
			}
		}
		if !copied {
			groups[i] = e.Skills[:len(e.Skills):len(e.Skills)]
		}
	}
	return groups
}

// replaceCatalogs edits every string holding a catalog so that catalog i
// becomes blocks[i] (the rest of the string stays byte-identical), and
// declares skill_search when the capture does not have it yet.
func replaceCatalogs(p *rules.Pass, cats []embedded, blocks []string) error {
	return replaceQuoted(p, cats, quoteBlocks(blocks))
}

// replaceQuoted is replaceCatalogs for blocks given as the insides of
// JSON strings (quoteBlocks).
func replaceQuoted(p *rules.Pass, cats []embedded, quoted [][]byte) error {
	c := p.Capture
	d := c.Doc
	byNode := map[capture.Node][]int{}
	var nodes []capture.Node
	for i, e := range cats {
		n := e.Segment.Node
		if _, ok := byNode[n]; !ok {
			nodes = append(nodes, n)
		}
		byNode[n] = append(byNode[n], i)
	}
	slices.Sort(nodes)
	var edits []rules.Edit
	for _, n := range nodes {
		node := d.Nodes[n]
		raw := d.Src[node.Start:node.End]
		size := int(node.End - node.Start)
		for _, i := range byNode[n] {
			size += len(quoted[i]) - (cats[i].Segment.End - cats[i].Segment.Start)
		}
		out := make([]byte, 1, max(size, 2))
		out[0] = '"'
		prev := int(node.Start) + 1
		for _, i := range byNode[n] {
			seg := cats[i].Segment
			out = append(out, d.Src[prev:seg.Start]...)
			out = append(out, quoted[i]...)
			prev = seg.End
		}
		out = append(out, d.Src[prev:node.End]...)
		if string(out) == string(raw) {
			continue
		}
		edits = append(edits, rules.Edit{Pointer: d.Pointer(n), NewJSON: out, Message: fmt.Sprintf("%d skills in a compact index", len(cats[byNode[n][0]].Skills))})
	}
	if len(edits) == 0 {
		p.Idle("the catalog is already in that form")
		return nil
	}
	switch transform.DeclaredAs(c, catalog.SearchToolName, isSearchDesc) {
	case transform.Foreign:
		// Its text would send the model to a tool that does something else.
		p.Reportf("", "native catalog left in place: the request already has a tool named %s that skillopt did not declare", catalog.SearchToolName)
		return nil
	case transform.Absent:
		e, err := transform.Declare(c, SearchTool())
		if err != nil {
			p.Reportf("", "native catalog left in place: cannot declare %s: %v", catalog.SearchToolName, err)
			p.Idle("cannot declare %s: %v", catalog.SearchToolName, err)
			return nil
		}
		edits = append(edits, e)
	}
	for _, e := range edits {
		p.Edit(e)
	}
	return nil
}
