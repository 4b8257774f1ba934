package rules

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/skillopt/skillopt/internal/suggest"
)

// Registry is the explicit, ordered list of every rule and every family's
// settings. Its order is the default order of a pipeline. It resolves rule
// references for every command: pipeline selection, disable lists,
// severities in skillopt.toml and lint's --select/--ignore all go through
// Resolve.
type Registry struct {
	rules    []*Rule
	settings []Settings
	binding  *Binding
	families []Family
}

// Family is a named group of rules: a reference that is the family's name
// selects its rules ("catalog", "invariant", "lint"). A rule may belong to
// several families (SO411 is a catalog rule and an invariant).
type Family struct {
	Name string
	// Doc says in a few words what the family holds.
	Doc   string
	Rules []*Rule
}

var idPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(SO[1-9][0-9]{2}|SK[0-9]{3}|AG[0-9]{3})$`) })

// NamePattern returns the form of rule names: lower-case words joined by
// dots and dashes, the first word naming the family
// ("catalog.compact-index"). It is compiled on first use.
var NamePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9]*(?:[.-][a-z0-9]+)+$`) })

// NewRegistry validates rs and settings: IDs well formed and unique,
// names unique, a summary and a Run for every rule, requirements the
// registry holds and that form no cycle, options that bind (no key
// declared twice, every key documented), and families whose names are
// one lower-case word, name no rule, and hold only rules of the registry.
func NewRegistry(rs []*Rule, settings []Settings, families ...Family) (*Registry, error) {
	seenID := map[string]bool{}
	seenName := map[string]bool{}
	for _, r := range rs {
		switch {
		case !idPattern().MatchString(r.ID):
			return nil, fmt.Errorf("rule %q: ID must be SOnnn, SKnnn or AGnnn", r.ID)
		case seenID[r.ID]:
			return nil, fmt.Errorf("rule %s: ID used twice", r.ID)
		case !NamePattern().MatchString(r.Name) || seenName[r.Name]:
			return nil, fmt.Errorf("rule %s: name %q malformed or used twice", r.ID, r.Name)
		case strings.TrimSpace(r.Doc) == "":
			return nil, fmt.Errorf("rule %s: no documentation", r.ID)
		case r.Run == nil:
			return nil, fmt.Errorf("rule %s: no Run", r.ID)
		}
		seenID[r.ID], seenName[r.Name] = true, true
	}
	if err := checkRequires(rs); err != nil {
		return nil, err
	}
	if err := checkFamilies(rs, families); err != nil {
		return nil, err
	}
	reg := &Registry{rules: rs, settings: settings, families: families}
	b, err := Bind(reg.Owners())
	if err != nil {
		return nil, err
	}
	reg.binding = b
	for _, r := range rs {
		for _, k := range r.Reads {
			if !b.declares(k) {
				return nil, fmt.Errorf("rule %s reads %s, which no rule or family declares", r.ID, k)
			}
		}
	}
	return reg, nil
}

var familyName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9]*$`) })

// checkFamilies refuses a family that is malformed, empty, named twice,
// named like a rule, or holds a rule outside rs.
func checkFamilies(rs []*Rule, families []Family) error {
	in := make(map[*Rule]bool, len(rs))
	names := map[string]bool{}
	for _, r := range rs {
		in[r] = true
		names[strings.ToLower(r.ID)], names[r.Name] = true, true
	}
	seen := map[string]bool{}
	for _, f := range families {
		switch {
		case !familyName().MatchString(f.Name):
			return fmt.Errorf("family %q: name must be one lower-case word", f.Name)
		case seen[f.Name]:
			return fmt.Errorf("family %s: named twice", f.Name)
		case names[f.Name]:
			return fmt.Errorf("family %s: a rule has that name", f.Name)
		case len(f.Rules) == 0:
			return fmt.Errorf("family %s: no rules", f.Name)
		}
		seen[f.Name] = true
		for _, r := range f.Rules {
			if !in[r] {
				return fmt.Errorf("family %s: rule %s is not in the registry", f.Name, r.ID)
			}
		}
	}
	return nil
}

// Families returns the registry's families, in the order declared.
func (g *Registry) Families() []Family { return g.families }

// family returns the rules of the family named ref, in registry order, and
// whether there is one.
func (g *Registry) family(ref string) ([]*Rule, bool) {
	for _, f := range g.families {
		if strings.EqualFold(f.Name, ref) {
			of := make(map[*Rule]bool, len(f.Rules))
			for _, r := range f.Rules {
				of[r] = true
			}
			var out []*Rule
			for _, r := range g.rules {
				if of[r] {
					out = append(out, r)
				}
			}
			return out, true
		}
	}
	return nil, false
}

// checkRequires refuses a requirement outside rs and a cycle of
// requirements.
func checkRequires(rs []*Rule) error {
	in := make(map[*Rule]bool, len(rs))
	for _, r := range rs {
		in[r] = true
	}
	const (
		visiting = 1
		done     = 2
	)
	state := map[*Rule]int{}
	var visit func(r *Rule, path []string) error
	visit = func(r *Rule, path []string) error {
		path = append(path, r.ID)
		switch state[r] {
		case visiting:
			return fmt.Errorf("rule %s: requirement cycle %s", path[0], strings.Join(path, " → "))
		case done:
			return nil
		}
		state[r] = visiting
		for _, q := range r.Requires {
			if q == nil || !in[q] {
				id := "nil"
				if q != nil {
					id = q.ID
				}
				return fmt.Errorf("rule %s requires %s, which the registry does not hold", r.ID, id)
			}
			if err := visit(q, path); err != nil {
				return err
			}
		}
		state[r] = done
		return nil
	}
	for _, r := range rs {
		if err := visit(r, nil); err != nil {
			return err
		}
	}
	return nil
}

// OptionsOf lists the keys a rule reads: its own options, then the family
// settings it names in Reads, described from their declarations.
func (g *Registry) OptionsOf(r *Rule) []Option {
	out := OptionsOf(r)
	all := g.binding.Options()
	for _, k := range r.Reads {
		for _, o := range all {
			if o.Name() == k {
				out = append(out, o)
			}
		}
	}
	return out
}

// Owners lists every declaration of options: family settings first, then
// each rule's.
func (g *Registry) Owners() []Owner {
	var out []Owner
	for _, s := range g.settings {
		out = append(out, Owner(s))
	}
	for _, r := range g.rules {
		if r.Options != nil {
			out = append(out, Owner{Name: r.ID + " " + r.Name, Doc: r.Summary(), Options: r.Options})
		}
	}
	return out
}

// Binding returns the options binding of every owner.
func (g *Registry) Binding() *Binding { return g.binding }

// Lookup returns the rule a reference names exactly: its ID in any case,
// or its name; nil if none.
func (g *Registry) Lookup(ref string) *Rule {
	ref = strings.TrimSpace(ref)
	for _, r := range g.rules {
		if strings.EqualFold(r.ID, ref) || strings.EqualFold(r.Name, ref) {
			return r
		}
	}
	return nil
}

// Match returns the rules a reference names, in registry order: one rule
// for an ID (any case) or a name; every rule of a family for the family's
// name ("catalog", "invariant", "lint"); every rule for an ID prefix
// ("SO1", "so2", "SK0") or a name prefix ending at a dot ("request",
// "history."). Opt-in rules are named by their ID or name only. An unknown
// reference is an error.
func (g *Registry) Match(ref string) ([]*Rule, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return nil, fmt.Errorf("empty rule reference")
	}
	if r := g.Lookup(ref); r != nil {
		return []*Rule{r}, nil
	}
	up := strings.ToUpper(ref)
	lowName := strings.TrimSuffix(strings.ToLower(ref), ".") + "."
	var out []*Rule
	fam, matched := g.family(strings.TrimSuffix(ref, "."))
	if matched {
		for _, r := range fam {
			if !r.Engine.Opt {
				out = append(out, r)
			}
		}
		return out, nil
	}
	for _, r := range g.rules {
		if strings.HasPrefix(r.ID, up) || strings.HasPrefix(r.Name, lowName) {
			matched = true
			if !r.Engine.Opt {
				out = append(out, r)
			}
		}
	}
	if !matched {
		return nil, &UnknownRuleError{Ref: ref, Suggest: g.suggest(ref)}
	}
	return out, nil
}

// UnknownRuleError is a reference that names no rule.
type UnknownRuleError struct {
	Ref     string
	Suggest string // closest ID or name, or ""
}

func (e *UnknownRuleError) Error() string {
	msg := fmt.Sprintf("unknown rule %q", e.Ref)
	if e.Suggest != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", e.Suggest)
	}
	return msg + " (see `skillopt rules`)"
}

// suggest returns the ID or name closest to ref, when close enough to be a
// typo.
func (g *Registry) suggest(ref string) string {
	cands := make([]string, 0, 2*len(g.rules))
	for _, r := range g.rules {
		cands = append(cands, r.ID, r.Name)
	}
	for _, f := range g.families {
		cands = append(cands, f.Name)
	}
	return suggest.Closest(ref, cands, 2)
}

// Resolve turns references into rules, in the order given; duplicates are
// kept once, at their first position. A rule's requirements come with it,
// before it (in dependency order), unless they are already there.
func (g *Registry) Resolve(refs []string) ([]*Rule, error) {
	var out []*Rule
	seen := map[*Rule]bool{}
	var add func(r *Rule)
	add = func(r *Rule) {
		if seen[r] {
			return
		}
		seen[r] = true
		for _, q := range r.Requires {
			add(q)
		}
		out = append(out, r)
	}
	for _, ref := range refs {
		if strings.TrimSpace(ref) == "" {
			continue
		}
		rs, err := g.Match(ref)
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			add(r)
		}
	}
	return out, nil
}

// Levels are severities per rule ID after [rules.severity] and disable
// lists: a rule that is off has no entry in Severity and is in Off.
type Levels struct {
	Severity map[string]Severity
	Off      map[string]bool
}

// Level returns a rule's severity and whether it runs at all.
func (l *Levels) Level(r *Rule) (Severity, bool) {
	if l != nil && l.Off[r.ID] {
		return Unset, false
	}
	return l.Resolve(r, Unset), true
}

// Resolve is the one resolution of a diagnostic's severity: the severity
// configured for r wins; else reported, when set; else r's default.
func (l *Levels) Resolve(r *Rule, reported Severity) Severity {
	if l != nil {
		if s, ok := l.Severity[r.ID]; ok && s != Unset {
			return s
		}
	}
	if reported != Unset {
		return reported
	}
	return r.Severity
}

// Levels resolves severity overrides (reference → "error", "warning",
// "info" or "off") and disable lists. Overrides apply from the broadest
// reference to the most specific, so {"SO2" = "off", "SO201" = "warning"}
// turns every SO2 rule off but SO201; equally specific references apply in
// key order. Opt-in rules are reached through prefixes here too: a
// severity is not a selection.
func (g *Registry) Levels(severity map[string]string, disable []string) (*Levels, error) {
	l := &Levels{Severity: map[string]Severity{}, Off: map[string]bool{}}
	type item struct {
		ref, level string
		rules      []*Rule
	}
	var items []item
	for ref, level := range severity {
		rs, err := g.MatchAll(ref)
		if err != nil {
			return nil, fmt.Errorf("rules.severity: %w", err)
		}
		items = append(items, item{ref, strings.ToLower(strings.TrimSpace(level)), rs})
	}
	sort.Slice(items, func(i, j int) bool {
		if len(items[i].rules) != len(items[j].rules) {
			return len(items[i].rules) > len(items[j].rules)
		}
		return items[i].ref < items[j].ref
	})
	for _, it := range items {
		for _, r := range it.rules {
			if it.level == "off" {
				l.Off[r.ID] = true
				delete(l.Severity, r.ID)
				continue
			}
			s, err := ParseSeverity(it.level)
			if err != nil {
				return nil, fmt.Errorf("rules.severity.%s: %w", it.ref, err)
			}
			delete(l.Off, r.ID)
			l.Severity[r.ID] = s
		}
	}
	for _, ref := range disable {
		if strings.TrimSpace(ref) == "" {
			continue
		}
		rs, err := g.MatchAll(ref)
		if err != nil {
			return nil, fmt.Errorf("disable: %w", err)
		}
		for _, r := range rs {
			l.Off[r.ID] = true
		}
	}
	return l, nil
}

// MatchAll is Match including opt-in rules: what a severity, a disable
// list or a listing of rules reaches.
func (g *Registry) MatchAll(ref string) ([]*Rule, error) {
	if _, err := g.Match(ref); err != nil {
		return nil, err
	}
	if r := g.Lookup(ref); r != nil {
		return []*Rule{r}, nil
	}
	if fam, ok := g.family(strings.TrimSuffix(strings.TrimSpace(ref), ".")); ok {
		return fam, nil
	}
	up := strings.ToUpper(strings.TrimSpace(ref))
	lowName := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(ref)), ".") + "."
	var out []*Rule
	for _, r := range g.rules {
		if strings.HasPrefix(r.ID, up) || strings.HasPrefix(r.Name, lowName) {
			out = append(out, r)
		}
	}
	return out, nil
}

// Select returns the rules of kind k that refs name and the rules they
// require, minus those the levels turn off, in the order given (a rule
// after what it requires). "none" selects nothing. A selected rule whose
// requirement is turned off is an error, and so is a reference that names
// only rules of other kinds.
func (g *Registry) Select(refs []string, l *Levels, kinds ...Kind) ([]*Rule, error) {
	if len(refs) == 1 && strings.EqualFold(strings.TrimSpace(refs[0]), "none") {
		return nil, nil
	}
	rs, err := g.Resolve(refs)
	if err != nil {
		return nil, err
	}
	// A reference whose rules are all of other kinds selects nothing here:
	// say so rather than run an empty selection.
	for _, ref := range refs {
		if strings.TrimSpace(ref) == "" {
			continue
		}
		named, _ := g.Match(ref)
		if len(named) > 0 && !slices.ContainsFunc(named, func(r *Rule) bool { return slices.Contains(kinds, r.Kind) }) {
			return nil, fmt.Errorf("%q names no %s rule (it names %s rules)", strings.TrimSpace(ref), kindList(kinds), named[0].Kind)
		}
	}
	var out []*Rule
	for _, r := range rs {
		if _, on := l.Level(r); !on {
			continue
		}
		for _, q := range r.Requires {
			if _, on := l.Level(q); !on {
				return nil, fmt.Errorf("rule %s requires %s, which the configuration turns off", r.ID, q.ID)
			}
		}
		for _, k := range kinds {
			if r.Kind == k {
				out = append(out, r)
				break
			}
		}
	}
	return out, nil
}

// kindList reads "transform or check".
func kindList(kinds []Kind) string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.String()
	}
	return strings.Join(names, " or ")
}

// OfKind returns every rule of the kinds, minus those turned off, in
// registry order.
func (g *Registry) OfKind(l *Levels, kinds ...Kind) []*Rule {
	var out []*Rule
	for _, r := range g.rules {
		if _, on := l.Level(r); !on {
			continue
		}
		for _, k := range kinds {
			if r.Kind == k {
				out = append(out, r)
				break
			}
		}
	}
	return out
}
