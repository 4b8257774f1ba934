package ruledoc_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/golden"
	"github.com/skillopt/skillopt/internal/ruledoc"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/rules"
)

// TestRuleDocs keeps examples.json and docs/rules/ in step with the rule
// values and their test cases (go test ./internal/ruledoc -update
// regenerates both).
func TestRuleDocs(t *testing.T) {
	examples := map[string]*ruledoc.Example{}
	var pages []ruledoc.Page
	for _, r := range ruleset.All() {
		e, err := exampleOf(r)
		if err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
		if e != nil {
			examples[r.ID] = e
		}
		p := ruledoc.PageOf(r, ruleset.Registry().OptionsOf(r))
		p.Example = e // what the cases give now, not what was embedded
		pages = append(pages, p)
	}
	data, err := json.MarshalIndent(examples, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "examples.json", append(data, '\n'))

	files := map[string][]byte{"README.md": []byte(ruledoc.Index(pages))}
	for _, p := range pages {
		files[p.ID+".md"] = []byte(p.Markdown(1))
	}
	golden.CheckDir(t, filepath.Join("..", "..", "docs", "rules"), files)
}

// TestRuleFields: every rule says what it is, why it exists and since
// when, and every rule with input of its own has an example. The message
// says what to add, where.
func TestRuleFields(t *testing.T) {
	for _, r := range ruleset.All() {
		where := whereIs(r)
		if r.Title == "" {
			t.Errorf("%s has no Title: add Title: \"…\" to its rules.Rule value (%s): what it finds or does in a few words, no trailing period", r.ID, where)
		} else if strings.HasSuffix(r.Title, ".") {
			t.Errorf("%s: its Title %q ends with a period (%s)", r.ID, r.Title, where)
		}
		if r.Why == "" {
			t.Errorf("%s has no Why: add Why: \"…\" to its rules.Rule value (%s): one or two sentences on what goes wrong without the rule, or what it saves", r.ID, where)
		}
		if r.Since == "" {
			t.Errorf("%s has no Since: add Since: \"X.Y.Z\" to its rules.Rule value (%s), the version of skillopt being prepared (rules.FirstVersion for the rules of the first release)", r.ID, where)
		}
		if r.Kind == rules.Invariant {
			continue
		}
		e, err := exampleOf(r)
		if err != nil {
			t.Errorf("%s: %v", r.ID, err)
		} else if e == nil {
			t.Errorf("%s has no example: its documentation shows its first case where it fires, and testdata/rules/%s/ has none; add one (%s), then run go test ./internal/ruledoc -update", r.ID, r.ID, casesHint(r))
		}
	}
}

func casesHint(r *rules.Rule) string {
	if r.Kind == rules.Lint {
		return "a tree.txtar the rule reports on, in a folder not named valid*; go test ./catalog/lint -update writes its want.txt"
	}
	return "an input.json the rule fires on; go test ./internal/ruleset -update writes its want.txt"
}

// whereIs names the file that defines the rule's Run, relative to the
// module, or the package of a lint rule (whose Run the lint engine sets).
func whereIs(r *rules.Rule) string {
	if r.Kind == rules.Lint || r.Run == nil {
		return "in catalog/lint, the file of its topic"
	}
	f := runtime.FuncForPC(reflect.ValueOf(r.Run).Pointer())
	if f == nil {
		return "in its family's package"
	}
	file, _ := f.FileLine(f.Entry())
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	if rel, err := filepath.Rel(root, file); err == nil && !strings.HasPrefix(rel, "..") {
		return "in " + filepath.ToSlash(rel)
	}
	return fmt.Sprintf("in %s", file)
}
