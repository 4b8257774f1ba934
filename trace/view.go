package trace

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skillopt/skillopt/capture"
)

// Open reads the run named by arg: a trace file, SESSION#N for the N-th
// skill run of a Pi session (1-based), or a session holding exactly one run.
func Open(arg string, stdin io.Reader) (*Run, error) {
	file, n := arg, 0
	if i := strings.LastIndexByte(arg, '#'); i > 0 {
		if _, err := os.Stat(arg); err != nil {
			k, err := strconv.Atoi(arg[i+1:])
			if err != nil || k < 1 {
				return nil, errorf(arg, "run number %q is not a positive integer", arg[i+1:])
			}
			file, n = arg[:i], k
		}
	}
	data, err := ReadBounded(file, stdin, nil)
	if err != nil {
		return nil, err
	}
	runs, err := Read(displayName(file), data)
	if err != nil {
		return nil, err
	}
	switch {
	case n > 0 && n <= len(runs):
		return runs[n-1], nil
	case n > 0:
		return nil, errorf(displayName(file), "no skill run %d: the file holds %d", n, len(runs))
	case len(runs) == 1:
		return runs[0], nil
	case len(runs) == 0:
		return nil, errorf(displayName(file), "the session holds no skill runs")
	}
	names := make([]string, len(runs))
	for i, r := range runs {
		names[i] = fmt.Sprintf("#%d (%s)", i+1, r.Skill)
	}
	return nil, errorf(displayName(file), "the session holds %d skill runs; name one as FILE#N: %s", len(runs), strings.Join(names, ", "))
}

// View is one run laid out for reading: its verdict (without history) and
// a timeline of its tool calls. Argument summaries and the final text have
// recognisable credentials replaced by REDACTED.
type View struct {
	Run        *Run
	Verdict    Verdict
	DurationMs int64
	Calls      []ViewCall
	FinalText  string
}

// ViewCall is one line of the timeline.
type ViewCall struct {
	Call
	// OffsetMs is the time since the first call.
	OffsetMs int64
	// Args summarises the arguments: the first of query, q, path, command,
	// message, prompt or instruction that is a string, else the first
	// member; at most ArgsChars characters.
	Args string
}

// ArgsChars bounds an argument summary.
const ArgsChars = 80

// ViewOf lays out a run.
func ViewOf(r *Run, o Options) View {
	v := View{Run: r, Verdict: Classify(r, o), DurationMs: r.DurationMs(), FinalText: Redact(r.FinalText)}
	for i, c := range r.Calls {
		vc := ViewCall{Call: c, Args: argsSummary(c.Args)}
		if i > 0 {
			vc.OffsetMs = max(0, c.Timestamp-r.Calls[0].Timestamp)
		}
		v.Calls = append(v.Calls, vc)
	}
	return v
}

func argsSummary(args []byte) string {
	if len(args) == 0 {
		return ""
	}
	d, err := capture.Parse(args)
	if err != nil || d.Nodes[0].Kind != capture.Object {
		return ""
	}
	for _, k := range []string{"query", "q", "path", "command", "message", "prompt", "instruction"} {
		if c := d.Get(0, k); d.Kind(c) == capture.String {
			label := k
			if k == "q" {
				label = "query"
			}
			return label + "=" + quoteCut(Redact(d.Str(c)), ArgsChars-len(label)-1)
		}
	}
	for c := range d.Children(0) {
		val := string(d.Raw(c))
		if d.Kind(c) == capture.String {
			val = d.Str(c)
		}
		k := []rune(d.Key(c))
		if len(k) > ArgsChars/3 {
			k = append(k[:ArgsChars/3-1], '…')
		}
		return string(k) + "=" + quoteCut(Redact(val), ArgsChars-len(k)-1)
	}
	return ""
}

// quoteCut quotes s, cut to fit max characters with its quotes.
func quoteCut(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	max = max - 2
	if max < 10 {
		max = 10
	}
	if utf8.RuneCountInString(s) <= max {
		return `"` + s + `"`
	}
	rs := []rune(s)
	return `"` + string(rs[:max-1]) + `…"`
}
