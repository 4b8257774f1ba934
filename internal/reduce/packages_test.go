package reduce

import (
	"fmt"
	"strings"
	"testing"
)

func TestNpmTreeKeepsTheChainAboveAProblem(t *testing.T) {
	ls := []string{"shop@2.0.0 /srv/shop"}
	for i := 0; i < 40; i++ {
		ls = append(ls, fmt.Sprintf("├── leaf-%02d@1.0.%d", i, i))
	}
	ls = append(ls,
		"├─┬ server-kit@3.1.0",
		"│ ├── quiet-dep@1.0.0",
		"│ ├─┬ router@2.2.0",
		"│ │ ├── path-match@0.4.1",
		"│ │ └── UNMET PEER DEPENDENCY url-parse@^2.0.0",
		"│ └── other-dep@4.0.0",
		"├─┬ ui-kit@1.0.0",
		"│ └── icons@1.0.0 invalid: \"^2.0.0\" from node_modules/ui-kit",
	)
	for i := 0; i < 40; i++ {
		ls = append(ls, fmt.Sprintf("├── tail-%02d@2.0.%d", i, i))
	}
	ls = append(ls, "└── last@1.0.0")
	text := lines(ls...)
	res, ok := With("packages", text, DefaultOptions())
	if !ok {
		t.Fatal("not reduced")
	}
	for _, want := range []string{
		"shop@2.0.0 /srv/shop", "├─┬ server-kit@3.1.0", "│ ├─┬ router@2.2.0", "│ │ └── UNMET PEER DEPENDENCY url-parse@^2.0.0",
		"├─┬ ui-kit@1.0.0", "│ └── icons@1.0.0 invalid", "2 in an abnormal state",
	} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("lost %q:\n%s", want, res.Text)
		}
	}
	for _, lose := range []string{"quiet-dep", "path-match", "other-dep", "leaf-20", "tail-20"} {
		if strings.Contains(res.Text, lose) {
			t.Errorf("kept %q:\n%s", lose, res.Text)
		}
	}
}

func TestNpmDepth(t *testing.T) {
	for _, c := range []struct {
		line string
		want int
	}{
		{"├── a@1.0.0", 0},
		{"│ ├─┬ b@1.0.0", len("│ ")},
		{"│ │ └── c@1.0.0", len("│ │ ")},
		{"  `-- d@1.0.0", 2},
		{"| +-- e@1.0.0", 2},
		{"shop@2.0.0 /srv/shop", -1},
		{"├── no version here", -1},
		{"npm error missing: x@1, required by y@2", -1},
	} {
		if got := npmDepth(c.line); got != c.want {
			t.Errorf("npmDepth(%q) = %d, want %d", c.line, got, c.want)
		}
	}
}
