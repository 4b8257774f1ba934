package output

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// headTail is SO306.
var headTail = &rules.Rule{
	ID:       "SO306",
	Title:    "Keep the head and tail of a long history",
	Why:      "A long conversation can outgrow the budget a host wants to pay for; keeping the first and last messages, with tool calls and their results together, preserves the task and the current state while dropping the middle. It is off by default because it removes context.",
	Since:    rules.FirstVersion,
	Name:     "history.head-tail",
	Kind:     rules.Transform,
	Severity: rules.Info,
	// With middle_mode = "omit", or without an archive, the middle goes.
	Engine: rules.Engine{Lossy: true},
	Doc: "With history_strategy = \"head-tail\", the history keeps its first and last messages and loses its middle. " +
		"Off by default (\"recent\" leaves the history alone). The first head_messages and the last tail_messages messages stay; a tool call and its results always stay together, so a cut " +
		"moves outwards to the edge of such a group. The middle becomes one marker message \"[history-omitted-middle: N message(s), ~M chars]\" (middle_mode = \"marker\"; the marker also names the handle " +
		"of the archived original history when the capture can declare retrieve_output) or disappears (\"omit\"). Then each message is capped at max_chars_per_message characters by truncating its " +
		"longest texts with a counted marker, and the whole at max_total_chars: first the middle marker goes, then interior groups from the geometric middle outwards, with the first and last " +
		"groups kept as anchors, and finally the last anchor is truncated. Thinking blocks, tool-call arguments, identifiers and signatures, loaded skill files and server-produced content are never cut. " +
		"The output items of one OpenAI Responses turn (reasoning, calls, assistant messages) stay together, a Gemini function-call turn stays with the turn before it, and the system and developer messages " +
		"at the start of a chat-shaped body are kept and are not head messages. The result must still validate for its provider. With middle_mode = \"marker\" and the archive on, retrieve_output is declared with the first marker that names a handle.",
	Options: &headTailOptions{
		Strategy:           "recent",
		HeadMessages:       2,
		TailMessages:       12,
		MiddleMode:         "marker",
		MaxCharsPerMessage: 10000,
		MaxTotalChars:      60000,
	},
	Detail: detail,
	Run:    runHeadTail,
}

// headTailOptions are SO306's keys of the [output] table.
type headTailOptions struct {
	Strategy           string `toml:"history_strategy" doc:"\"recent\" leaves the history alone; \"head-tail\" keeps its first and last messages and drops the middle"`
	HeadMessages       int    `toml:"head_messages" doc:"messages kept at the start of the history (at most 1000)"`
	TailMessages       int    `toml:"tail_messages" doc:"messages kept at the end of the history (at most 1000)"`
	MiddleMode         string `toml:"middle_mode" doc:"\"marker\" replaces the middle with a marker message; \"omit\" drops it"`
	MaxCharsPerMessage int    `toml:"max_chars_per_message" doc:"cap on each kept message in characters (0: none)"`
	MaxTotalChars      int    `toml:"max_total_chars" doc:"cap on the whole history in characters (0: none)"`
}

func (*headTailOptions) Section() string { return "output" }

func (o *headTailOptions) Check() []rules.OptionError {
	var errs []rules.OptionError
	add := func(key, format string, args ...any) {
		errs = append(errs, rules.OptionError{Key: key, Msg: fmt.Sprintf(format, args...)})
	}
	nonNegative(add, []keyValue{
		{"head_messages", o.HeadMessages}, {"tail_messages", o.TailMessages},
		{"max_chars_per_message", o.MaxCharsPerMessage}, {"max_total_chars", o.MaxTotalChars},
	})
	if o.Strategy != "recent" && o.Strategy != "head-tail" {
		add("history_strategy", "%q is not one of recent, head-tail", o.Strategy)
	}
	if o.MiddleMode != "marker" && o.MiddleMode != "omit" {
		add("middle_mode", "%q is not one of marker, omit", o.MiddleMode)
	}
	if o.HeadMessages > 1000 {
		add("head_messages", "%d is above 1000", o.HeadMessages)
	}
	if o.TailMessages > 1000 {
		add("tail_messages", "%d is above 1000", o.TailMessages)
	}
	return errs
}

const middlePrefix = "[history-omitted-middle: "

// truncMarker ends a text the history caps shortened.
func truncMarker(n int) string { return "[… truncated " + strconv.Itoa(n) + " chars]" }

func isTruncated(s string) bool {
	return strings.HasSuffix(s, " chars]") && strings.Contains(s, "[… truncated ")
}

// messagesNode returns the array holding the conversation, or capture.NoNode.
func messagesNode(c *capture.Capture) capture.Node {
	d := c.Doc
	var n capture.Node
	switch c.Provider {
	case capture.Anthropic, capture.OpenAIChat, capture.Mistral:
		n = d.Get(0, "messages")
	case capture.OpenAIResponses:
		n = d.Get(0, "input")
	case capture.Gemini:
		n = d.Get(0, "contents")
	case capture.PiMessages:
		n = 0
		if d.Kind(0) == capture.Object {
			n = d.Get(0, "messages")
		}
	default:
		return capture.NoNode
	}
	if d.Kind(n) != capture.Array {
		return capture.NoNode
	}
	for m := range d.Children(n) {
		if d.Kind(m) != capture.Object || (d.Get(m, "role") == capture.NoNode && c.Provider != capture.OpenAIResponses) {
			return capture.NoNode // e.g. Pi session entries: not a plain message list
		}
	}
	return n
}

// msgInfo is what the assembly needs to know about one message.
type msgInfo struct {
	node   capture.Node
	chars  int
	marker bool
	cuts   []capture.Node // string nodes that may be truncated
}

// item is one entry of the assembled history: a unit of messages or the
// new middle marker.
type item struct {
	u      [2]int
	marker bool // the marker this pass writes
	old    bool // a marker an earlier pass wrote
}

// assembly is the history SO306 is building: the items kept, what was
// omitted, and the texts truncated.
type assembly struct {
	d            *capture.Doc
	opts         *headTailOptions
	msgs         []msgInfo
	items        []item
	omitted      int // messages left out
	omittedChars int // their characters
	// canHandle says the marker names the handle of the archived history.
	canHandle bool
	repl      map[capture.Node]string // truncated texts by string node
	oldGone   bool                    // a marker of an earlier pass was dropped
	// lead is the number of leading system and developer messages of a
	// chat-shaped body: instructions, not history. They stay as they are
	// and do not count as head messages.
	lead int
}

func runHeadTail(p *rules.Pass) error {
	opts := p.Options.(*headTailOptions)
	if opts.Strategy != "head-tail" {
		p.Idle("output.history_strategy is %q", opts.Strategy)
		return nil
	}
	c := p.Capture
	d := c.Doc
	arr := messagesNode(c)
	if arr == capture.NoNode {
		p.Idle("no message history")
		return nil
	}
	a := &assembly{d: d, opts: opts, repl: map[capture.Node]string{}}
	// Loaded skill files are never cut.
	keepText := map[capture.Node]bool{}
	for _, r := range passResults(p) {
		if r.skill {
			for _, t := range r.texts {
				keepText[t] = true
			}
		}
	}
	for m := range d.Children(arr) {
		a.msgs = append(a.msgs, describeMsg(d, m, keepText))
	}
	if len(a.msgs) == 0 {
		return nil
	}
	a.lead = leadingInstructions(d, a.msgs)
	a.layout(groupUnits(c, a.msgs)[a.lead:])
	// The marker names the archived history when retrieve_output is or
	// can be declared (a tool of the host of that name keeps it silent).
	withHandle := opts.MiddleMode == "marker" && archiving(p)
	decl := declaration(p)
	a.canHandle = decl.ok && (decl.edit != nil || declaresRetrieve(c)) && hasNewMarker(a.items) && withHandle
	a.capMessages()
	a.capTotal()
	if a.omitted == 0 && len(a.repl) == 0 && !a.oldGone {
		p.Idle("the history fits its head and tail")
		return nil
	}
	handle := ""
	if a.canHandle && hasNewMarker(a.items) {
		// The handle names the history as read, before any rule changed it.
		orig := string(d.Raw(arr))
		if p.Original != nil && p.Original.Provider == c.Provider {
			if oa := messagesNode(p.Original); oa != capture.NoNode {
				orig = string(p.Original.Doc.Raw(oa))
			}
		}
		h, err := keep(p, orig)
		if err != nil {
			p.Report(rules.Diagnostic{Severity: rules.Warning, Pointer: d.Pointer(arr), Message: fmt.Sprintf("marker without handle: %v", err)})
		} else {
			handle = h
			if decl.edit != nil {
				p.Edit(*decl.edit)
			}
		}
	}
	var parts [][]byte
	for k := 0; k < a.lead; k++ {
		parts = append(parts, d.Raw(a.msgs[k].node))
	}
	for _, it := range a.items {
		if it.marker {
			parts = append(parts, markerMessage(c, a.omitted, a.omittedChars, handle))
			continue
		}
		for k := it.u[0]; k < it.u[1]; k++ {
			parts = append(parts, splice(d, a.msgs[k].node, a.repl))
		}
	}
	p.Edit(rules.Edit{Pointer: d.Pointer(arr), NewJSON: rebuildArray(d, arr, parts),
		Message: fmt.Sprintf("history: %d message(s) omitted, %d text(s) truncated", a.omitted, len(a.repl))})
	return nil
}

// layout keeps the head and the tail, widened to whole units, and the
// markers of earlier passes; it places the new middle marker.
func (a *assembly) layout(units [][2]int) {
	msgs := a.msgs
	headEnd, tailStart := a.lead, len(msgs)
	for _, u := range units {
		if headEnd-a.lead >= a.opts.HeadMessages {
			break
		}
		headEnd = u[1]
	}
	for i := len(units) - 1; i >= 0 && units[i][0] >= headEnd; i-- {
		if len(msgs)-tailStart >= a.opts.TailMessages {
			break
		}
		tailStart = units[i][0]
	}
	marker := a.opts.MiddleMode == "marker"
	placed := false
	for _, u := range units {
		if u[1] <= headEnd || u[0] >= tailStart {
			if u[0] >= tailStart && !placed && marker {
				placed = true
				a.items = append(a.items, item{marker: true})
			}
			a.items = append(a.items, item{u: u})
			continue
		}
		for k := u[0]; k < u[1]; k++ {
			if msgs[k].marker {
				a.items = append(a.items, item{u: [2]int{k, k + 1}, old: true})
			} else {
				a.omitted++
				a.omittedChars += msgs[k].chars
			}
		}
	}
	if a.omitted == 0 || !marker {
		a.items = dropNewMarker(a.items)
	} else if !placed {
		a.items = append(a.items, item{marker: true})
	}
}

// markerChars is the length of the new middle marker as it would be
// written now.
func (a *assembly) markerChars() int {
	h := ""
	if a.canHandle {
		h = strings.Repeat("x", len(handleOf("")))
	}
	return utf8.RuneCountInString(middleText(a.omitted, a.omittedChars, h))
}

// capMessages truncates every kept message over max_chars_per_message.
func (a *assembly) capMessages() {
	limit := a.opts.MaxCharsPerMessage
	if limit <= 0 {
		return
	}
	for _, it := range a.items {
		for k := it.u[0]; k < it.u[1] && !it.marker; k++ {
			if m := a.msgs[k]; !m.marker && m.chars > limit {
				cut(a.d, m, m.chars-limit, a.repl)
			}
		}
	}
}

// capTotal enforces max_total_chars: the marker goes first, then interior
// groups from the middle outwards, then the last anchor is truncated.
func (a *assembly) capTotal() {
	limit := a.opts.MaxTotalChars
	if limit <= 0 {
		return
	}
	d, msgs := a.d, a.msgs
	total := 0
	for _, it := range a.items {
		if it.marker {
			total += a.markerChars()
		} else {
			total += unitChars(d, msgs, it.u, a.repl)
		}
	}
	if total > limit {
		for i, it := range a.items {
			if it.marker || it.old {
				if it.marker {
					total -= a.markerChars()
				} else {
					total -= unitChars(d, msgs, it.u, a.repl)
					a.oldGone = true
				}
				a.items = append(a.items[:i], a.items[i+1:]...)
				break
			}
		}
	}
	for total > limit && len(a.items) > 2 {
		mid := len(a.items) / 2
		total -= unitChars(d, msgs, a.items[mid].u, a.repl)
		for k := a.items[mid].u[0]; k < a.items[mid].u[1]; k++ {
			a.omitted++
			a.omittedChars += msgs[k].chars
		}
		a.items = append(a.items[:mid], a.items[mid+1:]...)
	}
	if total > limit && len(a.items) > 0 {
		last := a.items[len(a.items)-1].u
		cut(d, msgs[last[1]-1], total-limit, a.repl)
	}
}

func dropNewMarker(items []item) []item {
	out := items[:0]
	for _, it := range items {
		if !it.marker {
			out = append(out, it)
		}
	}
	return out
}

func hasNewMarker(items []item) bool {
	for _, it := range items {
		if it.marker {
			return true
		}
	}
	return false
}

func middleText(n, chars int, handle string) string {
	s := middlePrefix + strconv.Itoa(n) + " message(s), ~" + strconv.Itoa(chars) + " chars"
	if handle != "" {
		s += `; retrieve_output {"handle":"` + handle + `"} returns the whole history`
	}
	return s + "]"
}

// markerMessage renders the middle marker as a message in the provider's
// shape.
func markerMessage(c *capture.Capture, n, chars int, handle string) []byte {
	text := quote(middleText(n, chars, handle))
	switch c.Provider {
	case capture.Anthropic:
		return append(append([]byte(`{"role":"user","content":`), text...), '}')
	case capture.Gemini:
		return append(append([]byte(`{"role":"user","parts":[{"text":`), text...), "}]}"...)
	case capture.PiMessages:
		return append(append([]byte(`{"role":"user","content":`), text...), '}')
	}
	return append(append([]byte(`{"role":"system","content":`), text...), '}')
}

// describeMsg counts a message's characters and finds its cuttable texts
// (not those in keep, not those of server-produced content).
func describeMsg(d *capture.Doc, m capture.Node, keep map[capture.Node]bool) msgInfo {
	info := msgInfo{node: m}
	for i := range d.Walk(m) {
		if d.Kind(i) != capture.String {
			continue
		}
		key := d.Key(i)
		if skipKeys[key] {
			continue
		}
		s := d.Str(i)
		info.chars += utf8.RuneCountInString(s)
		if strings.HasPrefix(s, middlePrefix) {
			info.marker = true
		}
		if cutKeys[key] && !keep[i] && !underThinking(d, i, m) {
			info.cuts = append(info.cuts, i)
		}
	}
	return info
}

// skipKeys name strings that are not text a model reads as language.
var skipKeys = map[string]bool{
	"type": true, "role": true, "id": true, "tool_use_id": true, "tool_call_id": true, "call_id": true,
	"toolCallId": true, "signature": true, "thinkingSignature": true, "textSignature": true,
	"thoughtSignature": true, "thought_signature": true, "encrypted_content": true, "data": true,
	"media_type": true, "mimeType": true, "mime_type": true, "status": true, "api": true,
	"provider": true, "model": true, "stopReason": true, "responseId": true, "name": true, "toolName": true,
}

// cutKeys name strings the caps may shorten: prose and tool output.
var cutKeys = map[string]bool{"text": true, "content": true, "output": true}

// underThinking reports whether string i of message m lies in reasoning,
// or in content a provider's server produced (a server tool's call or
// result replayed in an assistant turn): neither is text to shorten.
func underThinking(d *capture.Doc, i capture.Node, m capture.Node) bool {
	if serverItem(d.GetStr(m, "type")) {
		return true
	}
	for n := d.ParentWithin(m, i); n > m; n = d.ParentWithin(m, n) {
		switch t := d.GetStr(n, "type"); {
		case t == "thinking", t == "redacted_thinking", t == "reasoning":
			return true
		case t == "server_tool_use", t == "mcp_tool_use", t != "tool_result" && strings.HasSuffix(t, "_tool_result"):
			return true
		}
		if d.Kind(d.Get(n, "thought")) == capture.True {
			return true
		}
	}
	return false
}

// cut shortens the longest cuttable texts of a message by excess characters
// in total, each ending with a counted marker. Texts already truncated are
// not cut again.
func cut(d *capture.Doc, m msgInfo, excess int, repl map[capture.Node]string) {
	nodes := append([]capture.Node{}, m.cuts...)
	cur := func(i capture.Node) string {
		if s, ok := repl[i]; ok {
			return s
		}
		return d.Str(i)
	}
	sort.SliceStable(nodes, func(a, b int) bool {
		return utf8.RuneCountInString(cur(nodes[a])) > utf8.RuneCountInString(cur(nodes[b]))
	})
	for _, i := range nodes {
		if excess <= 0 {
			return
		}
		s := cur(i)
		if isTruncated(s) || strings.HasPrefix(s, middlePrefix) {
			continue
		}
		n := utf8.RuneCountInString(s)
		// keep + len(marker) = n - excess, at least the marker alone.
		keepN := n - excess
		for round := 0; round < 4; round++ {
			mk := truncMarker(n - max(keepN, 0))
			keepN = n - excess - utf8.RuneCountInString(mk) - 1
		}
		if keepN < 0 {
			keepN = 0
		}
		mk := truncMarker(n - keepN)
		out := prefixRunes(s, keepN)
		if keepN > 0 {
			out += " "
		}
		out += mk
		if utf8.RuneCountInString(out) >= n {
			continue // too short to gain anything
		}
		excess -= n - utf8.RuneCountInString(out)
		repl[i] = out
	}
}

func prefixRunes(s string, n int) string {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}

func unitChars(d *capture.Doc, msgs []msgInfo, u [2]int, repl map[capture.Node]string) int {
	n := 0
	for k := u[0]; k < u[1]; k++ {
		n += msgs[k].chars
		for _, i := range msgs[k].cuts {
			if s, ok := repl[i]; ok {
				n += utf8.RuneCountInString(s) - utf8.RuneCountInString(d.Str(i))
			}
		}
	}
	return n
}

// splice returns the bytes of node with some string nodes replaced.
func splice(d *capture.Doc, node capture.Node, repl map[capture.Node]string) []byte {
	n := &d.Nodes[node]
	var inside []capture.Node
	for i := range repl {
		if d.Contains(node, i) {
			inside = append(inside, i)
		}
	}
	if len(inside) == 0 {
		return d.Src[n.Start:n.End]
	}
	slices.Sort(inside)
	var b []byte
	prev := int(n.Start)
	for _, i := range inside {
		s := &d.Nodes[i]
		b = append(b, d.Src[prev:s.Start]...)
		b = append(b, quote(repl[i])...)
		prev = int(s.End)
	}
	return append(b, d.Src[prev:n.End]...)
}

// rebuildArray writes parts as the elements of array arr, keeping its
// opening and closing whitespace and the separator of its first elements.
func rebuildArray(d *capture.Doc, arr capture.Node, parts [][]byte) []byte {
	a := &d.Nodes[arr]
	var elems []capture.Node
	for m := range d.Children(arr) {
		elems = append(elems, m)
	}
	open, sep, closing := []byte("["), []byte(","), []byte("]")
	if len(elems) > 0 {
		open = d.Src[a.Start:d.Nodes[elems[0]].Start]
		closing = d.Src[d.Nodes[elems[len(elems)-1]].End:a.End]
	}
	if len(elems) > 1 {
		sep = d.Src[d.Nodes[elems[0]].End:d.Nodes[elems[1]].Start]
	}
	var b bytes.Buffer
	b.Write(open)
	for i, p := range parts {
		if i > 0 {
			b.Write(sep)
		}
		b.Write(p)
	}
	b.Write(closing)
	return b.Bytes()
}

// leadingInstructions counts the system and developer messages at the
// start of a message list (chat, Mistral and Responses bodies keep their
// instructions there).
func leadingInstructions(d *capture.Doc, msgs []msgInfo) int {
	n := 0
	for _, m := range msgs {
		role := d.GetStr(m.node, "role")
		if role != "system" && role != "developer" || strings.HasPrefix(d.GetStr(m.node, "content"), middlePrefix) {
			break
		}
		n++
	}
	return n
}

// groupUnits splits the messages into contiguous groups that must stay
// together: a tool call and every message that answers it, and everything
// between them; on OpenAI Responses, the output items of one model turn
// (reasoning, calls, assistant messages), which OpenAI accepts only
// together; on Gemini, a model turn of function calls and the turn before
// it, since a function-call turn must follow a user or function-response
// turn.
func groupUnits(c *capture.Capture, msgs []msgInfo) [][2]int {
	d := c.Doc
	n := len(msgs)
	span := make([]int, n) // span[i]: the last message i must stay with
	for i := range span {
		span[i] = i
	}
	callAt := map[string]int{}
	lastCall := -1
	for i, m := range msgs {
		calls, answers, geminiCall, geminiAnswer := callIDs(c, d, m.node)
		for _, id := range calls {
			callAt[id] = i
		}
		for _, id := range answers {
			if j, ok := callAt[id]; ok && j < i {
				span[j] = max(span[j], i)
			}
		}
		if geminiAnswer && lastCall >= 0 {
			span[lastCall] = max(span[lastCall], i)
		}
		if geminiCall {
			lastCall = i
			if i > 0 {
				span[i-1] = max(span[i-1], i)
			}
		}
		if i > 0 && c.Provider == capture.OpenAIResponses && modelOutput(d, m.node) && modelOutput(d, msgs[i-1].node) {
			span[i-1] = max(span[i-1], i)
		}
	}
	var units [][2]int
	for i := 0; i < n; {
		end := span[i]
		for k := i; k <= end && k < n; k++ {
			end = max(end, span[k])
		}
		units = append(units, [2]int{i, end + 1})
		i = end + 1
	}
	return units
}

// serverItem reports whether a Responses input item is one the provider's
// server produced and the client replays.
func serverItem(typ string) bool {
	switch typ {
	case "web_search_call", "file_search_call", "mcp_call", "mcp_list_tools", "mcp_approval_request",
		"code_interpreter_call", "image_generation_call", "tool_search_call", "tool_search_output":
		return true
	}
	return false
}

// modelOutput reports whether a Responses input item is output of a model
// turn replayed: reasoning, a call the model made, an assistant message.
// User, developer and system messages and the client's outputs are not.
func modelOutput(d *capture.Doc, it capture.Node) bool {
	switch typ := d.GetStr(it, "type"); {
	case typ == "reasoning":
		return true
	case typ == "message" || typ == "" && d.Get(it, "role") != capture.NoNode:
		return d.GetStr(it, "role") == "assistant"
	case strings.HasSuffix(typ, "_output") || typ == "mcp_approval_response" || typ == "item_reference":
		return false
	}
	return true // function_call, custom_tool_call, web_search_call, …
}

// callIDs returns the tool-call IDs a message issues and answers (Gemini,
// which has no IDs, reports calls and answers as flags).
func callIDs(c *capture.Capture, d *capture.Doc, m capture.Node) (calls, answers []string, gCall, gAnswer bool) {
	switch c.Provider {
	case capture.Anthropic:
		for b := range d.Children(d.Get(m, "content")) {
			switch d.GetStr(b, "type") {
			case "tool_use", "server_tool_use", "mcp_tool_use":
				calls = append(calls, d.GetStr(b, "id"))
			case "tool_result", "mcp_tool_result":
				answers = append(answers, d.GetStr(b, "tool_use_id"))
			default:
				if id := d.GetStr(b, "tool_use_id"); id != "" {
					answers = append(answers, id)
				}
			}
		}
	case capture.OpenAIChat, capture.Mistral:
		for tc := range d.Children(d.Get(m, "tool_calls")) {
			calls = append(calls, d.GetStr(tc, "id"))
		}
		if id := d.GetStr(m, "tool_call_id"); id != "" {
			answers = append(answers, id)
		}
	case capture.OpenAIResponses:
		t := d.GetStr(m, "type")
		id := d.GetStr(m, "call_id")
		switch {
		case strings.HasSuffix(t, "_output"):
			answers = append(answers, id)
		case strings.HasSuffix(t, "_call") && id != "":
			calls = append(calls, id)
		}
	case capture.Gemini:
		for part := range d.Children(d.Get(m, "parts")) {
			if d.GetAny(part, "functionCall", "function_call") != capture.NoNode {
				gCall = true
			}
			if d.GetAny(part, "functionResponse", "function_response") != capture.NoNode {
				gAnswer = true
			}
		}
	case capture.PiMessages:
		for b := range d.Children(d.Get(m, "content")) {
			if d.GetStr(b, "type") == "toolCall" {
				calls = append(calls, d.GetStr(b, "id"))
			}
		}
		if id := d.GetStr(m, "toolCallId"); id != "" {
			answers = append(answers, id)
		}
	}
	return calls, answers, gCall, gAnswer
}
