package render

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/trace"
)

// TestReportHTML parses the HTML report: one self-contained page
// (inline style, no script, nothing fetched), a section per skill with a
// row and a bar per outcome.
func TestReportHTML(t *testing.T) {
	dir := t.TempDir()
	const run = `{"skillName":"a<b","timestamp":1767225600000,"toolCalls":[],"finalText":"</td><script>x</script>","stoppedReason":"timeout"}`
	if err := os.WriteFile(filepath.Join(dir, "t.json"), []byte(run), 0o644); err != nil {
		t.Fatal(err)
	}
	paths, errs := trace.Expand([]string{dir, filepath.Join("..", "testdata", "sessions")})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	sums, errs := trace.Load(paths, strings.NewReader(""), trace.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	ro := trace.ReportOptions{MaxTraces: 10, Inline: 5}
	var out bytes.Buffer
	if err := ReportHTML(&out, trace.Report(trace.Histories(sums, trace.DefaultWindow), ro), ro); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	if !strings.HasPrefix(page, "<!DOCTYPE html>\n") {
		t.Errorf("page starts %q", page[:min(40, len(page))])
	}
	d := xml.NewDecoder(strings.NewReader(page))
	d.Strict = true
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	count := map[string]int{}
	var h2 []string
	var widths []string
	inH2 := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the page does not parse: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			count[tok.Name.Local]++
			inH2 = tok.Name.Local == "h2"
			for _, a := range tok.Attr {
				if a.Name.Local == "src" || a.Name.Local == "href" || strings.HasPrefix(a.Name.Local, "on") {
					t.Errorf("<%s %s=%q>: the page must not load or run anything", tok.Name.Local, a.Name.Local, a.Value)
				}
				if a.Name.Local == "style" {
					widths = append(widths, a.Value)
				}
			}
		case xml.CharData:
			if inH2 {
				h2 = append(h2, string(tok))
			}
		case xml.EndElement:
			inH2 = false
		}
	}
	for el, n := range map[string]int{"html": 1, "head": 1, "body": 1, "style": 1, "script": 0, "link": 0, "img": 0, "section": 4} {
		if count[el] != n {
			t.Errorf("%d <%s>, want %d", count[el], el, n)
		}
	}
	if got := strings.Join(h2, " "); got != "a<b code-review flaky-tests release-notes" {
		t.Errorf("sections %q", got)
	}
	if len(widths) != 12 { // three outcomes in four sections
		t.Errorf("%d bars, want 12", len(widths))
	}
	for _, w := range widths {
		if !regexp.MustCompile(`^width: (100|[1-9]?[0-9])%$`).MatchString(w) {
			t.Errorf("bar style %q", w)
		}
	}
}
