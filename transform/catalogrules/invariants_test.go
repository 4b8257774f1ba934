package catalogrules

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/internal/config"
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
	label := strings.Trim(string(capture.Quote(prefetchLabel)), `"`)
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
		{"overlay verbatim ok", overlayVerbatim, good, "q\\n\\n<skill_prefetch catalog=\\\"0123456789abcdef\\\">\\n" + label + "\\nbeta: Second skill, about databases.\\n</skill_prefetch>", prefetch, 0},
		{"overlay paraphrased", overlayVerbatim, good, "q\\n\\n<skill_prefetch catalog=\\\"0123456789abcdef\\\">\\n" + label + "\\nbeta: Databases.\\n</skill_prefetch>", prefetch, 1},
		{"overlay out of order", overlayVerbatim, good, "q\\n\\n<skill_prefetch catalog=\\\"0123456789abcdef\\\">\\n" + label + "\\nbeta: Second skill, about databases.\\nalpha: First skill, about testing.\\n</skill_prefetch>", prefetch, 1},
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

// TestOverlayVerbatim: descriptions are compared byte for byte, white
// space included, and the overlay must carry its label.
func TestOverlayVerbatim(t *testing.T) {
	system := strings.Replace(piSystem, `<description>Second skill, about databases.</description>`, `<description>Second  skill,\n      about databases.</description>`, 1)
	orig := capt(t, system, "please test the database")
	desc := allSkills(fromCapture(orig))[1].Description
	if !strings.Contains(desc, "\n") {
		t.Fatalf("description %q", desc)
	}
	q := func(s string) string { return strings.Trim(string(capture.Quote(s)), `"`) }
	open := "q\n\n<skill_prefetch catalog=\"0123456789abcdef\">\n"
	for _, tc := range []struct {
		name, user string
		want       []string
	}{
		{"verbatim", open + prefetchLabel + "\nbeta: " + desc + "\n</skill_prefetch>", nil},
		{"white space collapsed", open + prefetchLabel + "\nbeta: " + strings.Join(strings.Fields(desc), " ") + "\n</skill_prefetch>", []string{`overlay description of "beta" is not verbatim`}},
		{"unlabelled", open + "beta: " + desc + "\n</skill_prefetch>", []string{"overlay is not labelled as discovery metadata"}},
	} {
		final := capt(t, system, q(tc.user))
		diags, err := rules.Verify(applied(orig, final, prefetch), []*rules.Rule{overlayVerbatim}, &rules.Env{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range diags {
			got = append(got, d.Message)
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	// The rule writes what the invariant accepts.
	snap := catalog.NewSnapshot(allSkills(fromCapture(orig)), catalog.Options{})
	overlay := prefetchOverlay(snap, "databases", 3, 2000, nil, nil)
	if !strings.Contains(overlay, "beta: "+desc+"\n") || !strings.Contains(overlay, prefetchLabel) {
		t.Fatalf("overlay %q", overlay)
	}
	if got := prefetchOverlay(snap, "databases", 3, 150, nil, nil); got != "" {
		t.Fatalf("overlay over a 150-character budget: %q", got)
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

// TestBrowseFactsByConfiguration: the browse invariants read facts
// computed once per catalog and configuration; another exclusion gets
// facts of its own, and every set of facts is what paging through its
// snapshot shows.
func TestBrowseFactsByConfiguration(t *testing.T) {
	b := binding(t)
	orig := capt(t, piSystem, "x")
	env := func(toml string) *rules.Env {
		cfg := config.Default()
		if err := config.DecodeWith("s.toml", []byte(toml), cfg, b); err != nil {
			t.Fatal(err)
		}
		return &rules.Env{Options: cfg.Options}
	}
	all, some := env(""), env("[catalog]\nexclude = [\"beta\"]\n")
	facts := func(e *rules.Env) *browseFacts {
		f, err := browseFactsOf(e.NewPass(paginationComplete, orig), orig)
		if err != nil || f == nil {
			t.Fatal(f, err)
		}
		return f
	}
	fa, fs := facts(all), facts(some)
	if facts(all) != fa {
		t.Error("the facts of one catalog and configuration were computed twice")
	}
	if fs == fa || slices.Contains(fs.names, "beta") || !slices.Contains(fa.names, "beta") {
		t.Fatalf("an exclusion did not change the facts: %v, %v", fa.names, fs.names)
	}
	for _, tc := range []struct {
		f       *browseFacts
		exclude []string
	}{{fa, nil}, {fs, []string{"beta"}}} {
		want := pageThrough(catalog.NewSnapshot(allSkillsExcept(fromCapture(orig), tc.exclude), catalog.Options{}))
		if !slices.Equal(tc.f.pageChars, want.pageChars) || !maps.Equal(tc.f.reached, want.reached) || !slices.Equal(tc.f.names, want.names) {
			t.Errorf("exclude %v: facts %+v, paging shows %+v", tc.exclude, tc.f, want)
		}
	}
}

// allSkillsExcept is the eligible skills of cats without the names in
// exclude.
func allSkillsExcept(cats []embedded, exclude []string) []catalog.Skill {
	var out []catalog.Skill
	for _, g := range eligibleGroups(cats, exclude) {
		out = append(out, g...)
	}
	return out
}
