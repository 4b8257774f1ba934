package output

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/internal/reduce"
	"github.com/skillopt/skillopt/measure/units"
	"github.com/skillopt/skillopt/rules"
)

// MaxReadChars caps what one read of an archived original returns
// (`archive get --lines`, and what a host's retrieve_output should return
// per call): the slice limit of the context memory it stands for.
const MaxReadChars = 32000

// Entry is one original a conversation refers to by handle, described by
// metadata only: none of its content.
type Entry struct {
	Handle string `json:"handle"`
	// Kind is "overflow", "reduced", "duplicate" or "columnar".
	Kind string `json:"kind"`
	// Tool is the tool whose result it replaced ("" when unknown).
	Tool string `json:"tool"`
	// Bytes is the original's size as the replacement states it.
	Bytes int `json:"bytes"`
	// Pointer locates the replacement in the capture.
	Pointer string `json:"pointer"`
	// Stored says whether the archive holds the original, Stored bytes
	// equal to Bytes when the label states a size.
	Stored bool `json:"stored"`
}

// Entries lists the originals the tool results of c refer to, in body
// order, one per handle (the first reference wins).
func Entries(c *capture.Capture) []Entry {
	d := c.Doc
	var out []Entry
	seen := map[string]bool{}
	for _, r := range toolResults(c) {
		for _, t := range r.texts {
			text := d.Str(t)
			hs := archive.FindHandles(text)
			if len(hs) == 0 {
				continue
			}
			h := hs[len(hs)-1]
			if seen[h] {
				continue
			}
			seen[h] = true
			out = append(out, entryOf(h, r.name, d.Pointer(t), text))
		}
	}
	return out
}

func entryOf(h, tool, ptr, text string) Entry {
	e := Entry{Handle: h, Tool: tool, Pointer: ptr, Kind: "reduced"}
	switch {
	case reduce.IsOverflow(text):
		e.Kind = "overflow"
		e.Bytes, _ = reduce.OverflowBytes(text)
	case reduce.IsDuplicateLabel(text):
		e.Kind = "duplicate"
		e.Bytes = labelBytes(text, "identical to an earlier tool result (")
	case reduce.IsColumnar(text):
		e.Kind = "columnar"
	default:
		e.Bytes = labelBytes(text, " lines / ")
	}
	return e
}

// labelBytes reads the byte count that follows key in a label.
func labelBytes(text, key string) int {
	i := strings.LastIndex(text, key)
	if i < 0 {
		return 0
	}
	n := 0
	for _, c := range []byte(text[i+len(key):]) {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// Memory is the context memory of one conversation: its entries and the
// limits of SO304.
type Memory struct {
	Capture        string  `json:"capture"`
	Entries        []Entry `json:"entries"`
	Overflow       int     `json:"overflow_entries"`
	OverflowBytes  int     `json:"overflow_bytes"`
	MaxEntries     int     `json:"max_entries"`
	MaxBytesPerRun int     `json:"max_bytes_per_run"`
}

// ConversationMemory lists the entries of c and marks those the archive
// k holds (nil: none is looked up), beside the limits of context memory.
func ConversationMemory(c *capture.Capture, k archive.Keeper, maxEntries, maxBytes int) Memory {
	m := Memory{Capture: c.Name, Entries: Entries(c), MaxEntries: maxEntries, MaxBytesPerRun: maxBytes}
	if m.Entries == nil {
		m.Entries = []Entry{}
	}
	for i := range m.Entries {
		e := &m.Entries[i]
		if k != nil {
			_, err := k.Get(e.Handle)
			e.Stored = err == nil
		}
		if e.Kind == "overflow" {
			m.Overflow++
			m.OverflowBytes += e.Bytes
		}
	}
	return m
}

// MemoryLimits returns SO304's context-memory limits configured in set
// (nil: the defaults).
func MemoryLimits(set *rules.Set) (maxEntries, maxBytes int) {
	o := rules.Get(set, overflow.Options).(*overflowOptions)
	return o.MaxEntries, o.MaxBytesPerRun
}

// WriteMemoryText prints the entries of each conversation, metadata only.
func WriteMemoryText(w io.Writer, ms []Memory) error {
	var b strings.Builder
	for i, m := range ms {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s\n", escape.Text(m.Capture))
		if len(m.Entries) > 0 {
			fmt.Fprintf(&b, "  %-47s  %-9s  %9s  %-6s  %s\n", "HANDLE", "KIND", "BYTES", "STORED", "TOOL")
		}
		for _, e := range m.Entries {
			stored := "no"
			if e.Stored {
				stored = "yes"
			}
			fmt.Fprintf(&b, "  %-47s  %-9s  %9s  %-6s  %s\n", e.Handle, e.Kind, units.Thousands(e.Bytes), stored, escape.Text(e.Tool))
		}
		fmt.Fprintf(&b, "  %d entr%s; context memory: %d of %d overflow entries, %s of %s bytes\n", len(m.Entries), plural(len(m.Entries), "y", "ies"),
			m.Overflow, m.MaxEntries, units.Thousands(m.OverflowBytes), units.Thousands(m.MaxBytesPerRun))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteMemoryJSON prints the entries of each conversation as JSON.
func WriteMemoryJSON(w io.Writer, ms []Memory) error {
	data, err := json.MarshalIndent(struct {
		Conversations []Memory `json:"conversations"`
	}{ms}, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(escape.JSON(data), '\n'))
	return err
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// ReadSlice returns lines r of an original, refusing a slice of more
// than MaxReadChars characters: the error names the range that fits.
func ReadSlice(data []byte, r archive.Range) ([]byte, error) {
	out, err := archive.Lines(data, r)
	if err != nil {
		return nil, err
	}
	if n := utf8.RuneCount(out); n > MaxReadChars {
		from := r.From
		fits := from - 1
		to := ""
		if r.To > 0 {
			to = fmt.Sprint(r.To)
		}
		rs := fmt.Sprintf("%d:%s", from, to)
		// The longest run of whole lines from the start that fits.
		chars, line := 0, from
		for _, l := range strings.SplitAfter(string(out), "\n") {
			chars += utf8.RuneCountInString(l)
			if chars > MaxReadChars {
				break
			}
			fits = line
			line++
		}
		if fits < from {
			return nil, fmt.Errorf("lines %s are %s characters, over the %s-character read limit, and line %d alone is over it", rs, units.Thousands(n), units.Thousands(MaxReadChars), from)
		}
		return nil, fmt.Errorf("lines %s are %s characters, over the %s-character read limit; ask for lines %d:%d, then go on from %d", rs, units.Thousands(n), units.Thousands(MaxReadChars), from, fits, fits+1)
	}
	return out, nil
}
