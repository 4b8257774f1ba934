package validity

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestValidityTableCases holds docs/validity.md to the tree: every row
// names an SO5xx rule that is registered and test cases that exist under
// testdata/rules/ID/.
func TestValidityTableCases(t *testing.T) {
	root := filepath.Join("..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "validity.md"))
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, r := range Rules() {
		known[r.ID] = true
	}
	idRe := regexp.MustCompile(`^SO5\d\d$`)
	caseRe := regexp.MustCompile("(?:`([a-z0-9-]+)`|(SO5\\d\\d)/([a-z0-9-]+))")
	rows := 0
	for n, line := range strings.Split(string(doc), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 6 || !idRe.MatchString(strings.TrimSpace(cells[2])) {
			continue
		}
		rows++
		id := strings.TrimSpace(cells[2])
		if !known[id] {
			t.Errorf("docs/validity.md:%d: %s is not a registered rule", n+1, id)
		}
		cases := caseRe.FindAllStringSubmatch(cells[4], -1)
		if len(cases) == 0 {
			t.Errorf("docs/validity.md:%d: row names no test case", n+1)
		}
		for _, m := range cases {
			dir, name := id, m[1]
			if m[2] != "" {
				dir, name = m[2], m[3]
			}
			if fi, err := os.Stat(filepath.Join(root, "testdata", "rules", dir, name, "input.json")); err != nil || !fi.Mode().IsRegular() {
				t.Errorf("docs/validity.md:%d: test case %s/%s does not exist", n+1, dir, name)
			}
		}
	}
	if rows < 40 {
		t.Fatalf("read %d table rows from docs/validity.md; the table format changed", rows)
	}
}
