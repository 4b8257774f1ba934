package render

import (
	"bytes"
	"io"
	"testing"

	"github.com/skillopt/skillopt/measure"
)

// TestWriteAs: each format writes what its own writer writes; a format
// the report does not have is an error.
func TestWriteAs(t *testing.T) {
	rep := measure.Summarize(nil, nil)
	o := TextOptions{}
	for format, direct := range map[string]func(io.Writer) error{
		"text":     func(w io.Writer) error { return WriteText(w, rep, o) },
		"json":     func(w io.Writer) error { return WriteJSON(w, rep) },
		"markdown": func(w io.Writer) error { return WriteMarkdown(w, rep, o) },
	} {
		var got, want bytes.Buffer
		if err := Write(&got, rep, format, o); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		direct(&want)
		if got.String() != want.String() {
			t.Errorf("%s: %q, want %q", format, got.String(), want.String())
		}
	}
	if err := Write(io.Discard, rep, "html", o); err == nil {
		t.Error("html: no error")
	}
	if err := WriteConversationAs(io.Discard, &measure.Conversation{}, "sarif", TextOptions{}); err == nil {
		t.Error("conversation sarif: no error")
	}
	if err := WriteConversationsAs(io.Discard, &measure.ConversationSet{}, "github", TextOptions{}); err == nil {
		t.Error("conversations github: no error")
	}
}
