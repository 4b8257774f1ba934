package render

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/measure"
)

// TestHTMLTitlesEscapeEquals: a capture name shortened in a cell keeps
// its full name in a title attribute, where no part of it reads as an
// attribute of its own.
func TestHTMLTitlesEscapeEquals(t *testing.T) {
	name := `/captures/a-very-long-directory-name/x" onerror=alert(1) y=".jsonl:12`
	cv := &measure.Conversation{Tokens: measure.ConvTokens{Encoding: "test-quarter-bytes"},
		Turns: []measure.ConvTurn{{Turn: 1, Capture: name, Model: "m", Before: measure.Side{Input: 10, Uncached: 10}, After: measure.Side{Input: 10, Uncached: 10}}}}
	total(cv)
	cv.Largest = &measure.LargestRequest{Turn: 1, Capture: name, Sections: []measure.SectionUse{{Kind: "human", Before: 10, After: 10}}}
	var b bytes.Buffer
	if err := WriteConversationHTML(&b, cv); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if m := regexp.MustCompile(`<[a-z][^<>]*\son[a-z]+\s*=`).FindString(out); m != "" {
		t.Errorf("the name reads as an attribute: %s", m)
	}
	if n := strings.Count(out, `title="/captures/a-very-long-directory-name/x&#34; onerror&#61;alert(1) y&#61;&#34;.jsonl:12"`); n != 2 {
		t.Errorf("%d titles hold the full name, want 2 (the turn table and the largest request)", n)
	}
}
