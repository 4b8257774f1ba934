package render

import (
	"fmt"
	"io"

	"github.com/skillopt/skillopt/measure"
)

// Formats are the output formats of the measure report; the conversation
// reports have ConversationFormats.
var (
	Formats             = []string{"text", "json", "markdown"}
	ConversationFormats = []string{"text", "json", "markdown", "html"}
)

// Write writes the report in format, one of Formats.
func Write(w io.Writer, rep *measure.Report, format string, o TextOptions) error {
	switch format {
	case "json":
		return WriteJSON(w, rep)
	case "markdown":
		return WriteMarkdown(w, rep, o)
	case "text":
		return WriteText(w, rep, o)
	}
	return fmt.Errorf("measure: no format %q", format)
}

// WriteConversationAs writes the report of one conversation in format,
// one of ConversationFormats (o.Width wraps the notes of the text).
func WriteConversationAs(w io.Writer, cv *measure.Conversation, format string, o TextOptions) error {
	switch format {
	case "json":
		return WriteConversationJSON(w, cv)
	case "markdown":
		return WriteConversationMarkdown(w, cv)
	case "html":
		return WriteConversationHTML(w, cv)
	case "text":
		return writeConversationText(w, cv, o)
	}
	return fmt.Errorf("measure: no format %q", format)
}

// WriteConversationsAs writes the report of several conversations in
// format, one of ConversationFormats (o.Width wraps the notes of the text).
func WriteConversationsAs(w io.Writer, set *measure.ConversationSet, format string, o TextOptions) error {
	switch format {
	case "json":
		return WriteConversationsJSON(w, set)
	case "markdown":
		return WriteConversationsMarkdown(w, set)
	case "html":
		return WriteConversationsHTML(w, set)
	case "text":
		return writeConversationsText(w, set, o)
	}
	return fmt.Errorf("measure: no format %q", format)
}
