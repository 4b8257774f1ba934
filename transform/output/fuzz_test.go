package output

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// FuzzReduce: whatever the text and thresholds, Reduce returns a smaller
// text naming the original's handle, and never reduces its own result.
func FuzzReduce(f *testing.F) {
	f.Add(noisyOutput(120), 4096, 80, 0.25)
	f.Add("error: x\n"+strings.Repeat("noise\n", 200), 0, 10, 0.1)
	f.Add(`[{"id":1,"name":"a"},{"id":2,"name":"b"},{"id":3,"name":"c"}]`, 10, 0, 0.0)
	f.Fuzz(func(t *testing.T, text string, trigger, lines int, ratio float64) {
		if len(text) > 1<<20 {
			return
		}
		s := *Defaults
		s.TriggerBytes, s.TriggerLines, s.MinSavedBytes, s.MinSavedRatio = max(trigger, 0), max(lines, 0), 0, ratio
		if len(s.Check()) > 0 {
			return
		}
		red, ok := Reduce(text, &s)
		if !ok {
			return
		}
		if len(red.Text) >= len(text) {
			t.Fatalf("%s: not smaller (%d → %d)", red.Reducer, len(text), len(red.Text))
		}
		if red.Handle != archive.HandleOf([]byte(text)) || !strings.Contains(red.Text, red.Handle) {
			t.Fatalf("%s: handle %s is not the original's or not in the text", red.Reducer, red.Handle)
		}
		if _, again := Reduce(red.Text, &s); again {
			t.Fatalf("%s: a reduction was reduced again", red.Reducer)
		}
	})
}

// headTailBody builds an Anthropic request from a message pattern: u
// user text, a assistant text, t a tool call answered by the next user
// message, anything else a long user text.
func headTailBody(pattern string, size int) []byte {
	var msgs []string
	call := 0
	for i, c := range pattern {
		text := capture.Quote(fmt.Sprintf("m%d %s", i, strings.Repeat("w", size%4000)))
		switch c {
		case 'u':
			msgs = append(msgs, fmt.Sprintf(`{"role":"user","content":%s}`, text))
		case 'a':
			msgs = append(msgs, fmt.Sprintf(`{"role":"assistant","content":[{"type":"text","text":%s}]}`, text))
		case 't':
			call++
			msgs = append(msgs, fmt.Sprintf(`{"role":"assistant","content":[{"type":"tool_use","id":"c%d","name":"bash","input":{}}]}`, call),
				fmt.Sprintf(`{"role":"user","content":[{"type":"tool_result","tool_use_id":"c%d","content":%s}]}`, call, text))
		default:
			msgs = append(msgs, fmt.Sprintf(`{"role":"user","content":%s}`, capture.Quote(strings.Repeat("long ", size%9000))))
		}
	}
	return []byte(`{"model":"m","max_tokens":5,"tools":[{"name":"bash","input_schema":{"type":"object"}}],"messages":[` + strings.Join(msgs, ",") + `]}`)
}

// FuzzHeadTail: for any history and caps, SO306 either leaves the capture
// alone or returns a smaller one in which every tool result still follows
// its call, and a second pass changes nothing.
func FuzzHeadTail(f *testing.F) {
	f.Add("uatatuaua", 300, 1, 3, 0, 0, false)
	f.Add("utttttaau", 900, 2, 2, 500, 2000, false)
	f.Add("uuuuuuuuuuuu", 100, 1, 6, 0, 450, true)
	f.Add("ua", 50, 0, 0, 10, 10, false)
	f.Fuzz(func(t *testing.T, pattern string, size, head, tail, perMsg, total int, omit bool) {
		if len(pattern) > 200 || size < 0 {
			return
		}
		body := headTailBody(pattern, size)
		file, err := capture.Read("fuzz.json", body, capture.Options{})
		if err != nil {
			t.Fatal(err)
		}
		set, _ := binding.Set(nil)
		o := configOf(set).headTail
		o.Strategy, o.HeadMessages, o.TailMessages, o.MaxCharsPerMessage, o.MaxTotalChars = "head-tail", head, tail, perMsg, total
		if omit {
			o.MiddleMode = "omit"
		}
		if len(o.Check()) > 0 {
			return
		}
		env := &rules.Env{Options: set, Archive: archive.NewMemory(nil)}
		res, err := rules.Run(file.Captures[0], []*rules.Rule{headTail}, env)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range res.Diagnostics {
			if d.Severity == rules.Error {
				t.Fatalf("%s: %s", d.Rule, d.Message)
			}
		}
		if !res.Changed() {
			return
		}
		if len(res.Final.Body) >= len(body) {
			t.Fatalf("not smaller: %d → %d", len(body), len(res.Final.Body))
		}
		d := res.Final.Doc
		calls := map[string]bool{}
		for m := range d.Children(d.Get(0, "messages")) {
			for b := range d.Children(d.Get(m, "content")) {
				switch d.GetStr(b, "type") {
				case "tool_use":
					calls[d.GetStr(b, "id")] = true
				case "tool_result":
					if !calls[d.GetStr(b, "tool_use_id")] {
						t.Fatalf("result %s without its call", d.GetStr(b, "tool_use_id"))
					}
				}
			}
		}
		again, err := rules.Run(res.Final, []*rules.Rule{headTail}, env)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again.Final.Body, res.Final.Body) {
			t.Fatal("second pass changed the history")
		}
	})
}
