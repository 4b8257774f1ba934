package lint

import (
	"fmt"
	"sort"
	"strings"

	"github.com/skillopt/skillopt/rules"
)

// Selection is the rule selection of the command line, as ruff's flags of
// the same names: Select replaces the rules the configuration leaves on by
// the rules it names, ExtendSelect adds rules, Ignore turns rules off.
// References take every form the configuration takes (ID, ID prefix, name,
// any case), and ALL names every lint rule. The most specific reference
// wins; between a selection and an ignore naming the same rules, the
// ignore wins.
type Selection struct {
	Select, ExtendSelect, Ignore []string
}

// Empty reports whether the selection changes nothing.
func (s Selection) Empty() bool {
	return len(s.Select) == 0 && len(s.ExtendSelect) == 0 && len(s.Ignore) == 0
}

// Apply narrows or widens levels (from Levels) by the selection. A
// reference that names no rule, or no lint rule, is an error naming the
// flag.
func (s Selection) Apply(reg *rules.Registry, l *rules.Levels) error {
	if s.Empty() {
		return nil
	}
	type item struct {
		flag, ref string
		on        bool
		ids       []string
	}
	var items []item
	for _, group := range []struct {
		flag string
		refs []string
		on   bool
	}{{"--select", s.Select, true}, {"--extend-select", s.ExtendSelect, true}, {"--ignore", s.Ignore, false}} {
		for _, ref := range group.refs {
			ref = strings.TrimSpace(ref)
			if ref == "" {
				continue
			}
			var ids []string
			if strings.EqualFold(ref, "ALL") {
				for _, r := range all() {
					ids = append(ids, r.ID)
				}
			} else {
				rs, err := reg.Match(ref)
				if err != nil {
					return fmt.Errorf("%s: %w", group.flag, err)
				}
				for _, r := range rs {
					if r.Kind == rules.Lint {
						ids = append(ids, r.ID)
					}
				}
				if len(ids) == 0 {
					return fmt.Errorf("%s: %q names no lint rule (SKnnn or AGnnn)", group.flag, ref)
				}
			}
			items = append(items, item{group.flag, ref, group.on, ids})
		}
	}
	if len(s.Select) > 0 {
		// Only what --select names runs.
		for _, r := range all() {
			l.Off[r.ID] = true
		}
	}
	// Broadest first, so that the most specific reference wins; at equal
	// breadth an ignore comes last.
	sort.SliceStable(items, func(i, j int) bool {
		if len(items[i].ids) != len(items[j].ids) {
			return len(items[i].ids) > len(items[j].ids)
		}
		return items[i].on && !items[j].on
	})
	for _, it := range items {
		for _, id := range it.ids {
			if it.on {
				delete(l.Off, id)
			} else {
				l.Off[id] = true
			}
		}
	}
	return nil
}
