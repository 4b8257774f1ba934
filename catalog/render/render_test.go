package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/skillopt/skillopt/catalog"
)

func snapshot() *catalog.Snapshot {
	return catalog.NewSnapshot([]catalog.Skill{
		{Name: "pdf", Description: "Fill PDF forms. Also merges them."},
		{Name: "x\x1b[31m", Description: "A skill with an escape in its name."},
	}, catalog.Options{Exclude: []string{"pdf"}})
}

// TestBuild: the summary counts the snapshot; the timing is there only
// when asked for; names from the tree are escaped.
func TestBuild(t *testing.T) {
	b := BuildOf(snapshot(), "skills/\x1b]0;t\a", nil)
	if b.Skills != 1 || b.Excluded != 1 || b.Cards || b.SnapshotMS != nil {
		t.Errorf("summary %+v", b)
	}
	var out bytes.Buffer
	if err := BuildText(&out, b); err != nil {
		t.Fatal(err)
	}
	want := "skills: 1 eligible, 1 excluded (from skills/\\x1b]0;t\\x07)\ncards: no profile (every skill unclassified)\nfingerprint: " + b.Fingerprint + "\n"
	if out.String() != want {
		t.Errorf("text %q, want %q", out.String(), want)
	}
	took := 1500 * time.Microsecond
	out.Reset()
	BuildText(&out, BuildOf(snapshot(), "s", &took))
	if !strings.HasSuffix(out.String(), "snapshot: 1.5 ms\n") {
		t.Errorf("with timing: %q", out.String())
	}
}

func TestSearch(t *testing.T) {
	var out bytes.Buffer
	if err := SearchText(&out, nil); err != nil || out.String() != "no skill matches\n" {
		t.Errorf("no results: %q, %v", out.String(), err)
	}
	out.Reset()
	SearchText(&out, []catalog.Result{{Name: "a\x1b", Description: "Does a. Then b.", Match: "lexical"}, {Name: "bb", Description: "B", Match: "exact-name"}})
	if want := "1  a\\x1b  lexical     does\n2  bb     exact-name  b\n"; out.String() != want {
		t.Errorf("text %q, want %q", out.String(), want)
	}
	data, _ := json.Marshal(SearchJSON(nil))
	if string(data) != `{"results":[]}` {
		t.Errorf("json %s", data)
	}
}

// TestBrowse: an empty page says why; a page lists its cards, the cursor
// and the tag counts (most first, then by name), not when quiet.
func TestBrowse(t *testing.T) {
	snap := snapshot()
	empty := &catalog.Page{}
	for _, tc := range []struct {
		tags  []string
		query string
		want  string
	}{
		{[]string{"testing"}, "", "no card profile is in use"},
		{[]string{"unclassified"}, "", "no skill has the tags unclassified"},
		{nil, "flaky", `no skill matches "flaky"`},
		{nil, "", "nothing to show"},
	} {
		if got := BrowseEmpty(snap, empty, tc.tags, tc.query); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%q %q: %q", tc.tags, tc.query, got)
		}
	}
	if got := BrowseEmpty(catalog.NewSnapshot(nil, catalog.Options{}), empty, nil, ""); got != "the catalog holds no skills" {
		t.Errorf("no skills: %q", got)
	}
	cursor := "abc"
	page := &catalog.Page{Cards: []catalog.BrowseCard{{Name: "pdf", Tags: []string{"docs", "forms"}, Card: "fills forms"}}, Cursor: &cursor, Facets: map[string]int{"forms": 1, "docs": 1, "testing": 3}}
	if BrowseEmpty(snap, page, nil, "") != "" {
		t.Error("a page with cards explained as empty")
	}
	var out bytes.Buffer
	BrowseText(&out, page, "", Options{})
	if want := "pdf  docs, forms  fills forms\nmore: --cursor abc\ntags: testing 3, docs 1, forms 1\n"; out.String() != want {
		t.Errorf("text %q, want %q", out.String(), want)
	}
	out.Reset()
	BrowseText(&out, page, "", Options{Quiet: true})
	if strings.Contains(out.String(), "tags:") {
		t.Errorf("quiet: %q", out.String())
	}
	out.Reset()
	BrowseText(&out, empty, "why\x1b", Options{})
	if out.String() != "why\\x1b\n" {
		t.Errorf("why: %q", out.String())
	}
}
