package catalogrules

import (
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/rules"
)

const piSystem = `You help.\n\nThe following skills provide specialized instructions for specific tasks.\n\n<available_skills>\n  <skill>\n    <name>alpha</name>\n    <description>First skill, about testing.</description>\n    <location>/home/u/skills/alpha/SKILL.md</location>\n  </skill>\n  <skill>\n    <name>beta</name>\n    <description>Second skill, about databases.</description>\n    <location>/home/u/skills/beta/SKILL.md</location>\n  </skill>\n</available_skills>\nDate: today`

func capt(t *testing.T, system, user string) *capture.Capture {
	t.Helper()
	body := `{"model":"m","max_tokens":10,"system":"` + system + `","messages":[{"role":"user","content":"` + user + `"}]}`
	f, err := capture.Read("c.json", []byte(body), capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f.Captures[0]
}

// applied fakes a pipeline result in which SO101 or SO103 changed the
// capture.
func applied(orig, final *capture.Capture, rule *rules.Rule) *rules.Result {
	return &rules.Result{Original: orig, Final: final, Steps: []rules.Step{{Rule: rule, Applied: true}}}
}

func TestCatalogInvariantsCatchViolations(t *testing.T) {
	orig := capt(t, piSystem, "please test the database")
	block := capture.Quote(catalog.CompactBlocks([][]catalog.Skill{{{Name: "alpha", Description: "First skill, about testing."}, {Name: "beta", Description: "Second skill, about databases."}}}, 12000)[0])
	good := "You help.\\n\\n" + string(block[1:len(block)-1]) + "\\nDate: today"
	cases := []struct {
		name   string
		rule   *rules.Rule
		system string
		user   string
		by     *rules.Rule
		want   int
	}{
		{"marker once ok", markerOnce, good, "x", CompactIndex, 0},
		{"marker twice", markerOnce, good + "\\n" + catalog.Marker, "x", CompactIndex, 1},
		{"names once ok", namesOnce, good, "x", CompactIndex, 0},
		{"name missing", namesOnce, strings.Replace(good, "beta\\t", "gamma\\t", 1), "x", CompactIndex, 1},
		{"name twice", namesOnce, strings.Replace(good, "\\n</skill_index>", "\\nalpha\\n</skill_index>", 1), "x", CompactIndex, 1},
		{"no paths ok", noPaths, good, "x", CompactIndex, 0},
		{"path leaked", noPaths, strings.Replace(good, "first skill", "/home/u/skills/alpha/SKILL.md", 1), "x", CompactIndex, 1},
		{"directory too long", directoryBound, catalog.Marker + "\\n<skill_directory>" + strings.Repeat("x", 4100) + "</skill_directory>\\n<skill_resolver>r</skill_resolver>", "x", tagDirectory, 1},
		{"overlay verbatim ok", overlayVerbatim, good, "q\\n\\n<skill_prefetch catalog=\\\"0123456789abcdef\\\">\\nbeta: Second skill, about databases.\\n</skill_prefetch>", prefetch, 0},
		{"overlay paraphrased", overlayVerbatim, good, "q\\n\\n<skill_prefetch catalog=\\\"0123456789abcdef\\\">\\nbeta: Databases.\\n</skill_prefetch>", prefetch, 1},
		{"overlay out of order", overlayVerbatim, good, "q\\n\\n<skill_prefetch catalog=\\\"0123456789abcdef\\\">\\nbeta: Second skill, about databases.\\nalpha: First skill, about testing.\\n</skill_prefetch>", prefetch, 1},
		{"overlay in system", overlayLatestHuman, good + "\\n<skill_prefetch catalog=\\\"x\\\">\\n</skill_prefetch>", "q", prefetch, 1},
	}
	for _, tc := range cases {
		final := capt(t, tc.system, tc.user)
		diags, err := rules.Verify(applied(orig, final, tc.by), []*rules.Rule{tc.rule}, &rules.Env{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(diags) != tc.want {
			t.Errorf("%s: %d diagnostics %v, want %d", tc.name, len(diags), diags, tc.want)
		}
	}
}

func TestBrowseInvariantsHoldOnCapture(t *testing.T) {
	orig := capt(t, piSystem, "x")
	res := &rules.Result{Original: orig, Final: orig}
	diags, err := rules.Verify(res, []*rules.Rule{browseBound, paginationComplete}, &rules.Env{})
	if err != nil || len(diags) != 0 {
		t.Fatalf("%v %v", diags, err)
	}
}
