package invariant

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// ConversationPrefix is SO405.
var ConversationPrefix = &rules.Rule{
	ID:       "SO405",
	Title:    "Successive turns keep the prefix cached for the turn before",
	Why:      "A change early in a prefix the provider cached makes everything after it full price again, which can cost more than the transform saves.",
	Since:    rules.FirstVersion,
	Name:     "invariant.conversation-prefix",
	Kind:     rules.Invariant,
	Severity: rules.Error,
	Engine:   rules.Engine{Cross: true, Prepare: prepareConversationPrefix},
	Doc: "Successive requests of one conversation keep the prefix the provider cached for the turn before. " +
		"Providers bill a repeated prefix (tools, then system, then earlier messages) at a fraction of the input price, and a change early in it makes everything after it full price again. " +
		"Captures are taken in the order given; those with the same tool declarations, system text and first message as captured are one conversation. Within it, a turn whose tools or system bytes differ from the previous turn's after transformation, " +
		"although they were identical before, is reported with the rules that changed them: a declaration a rule adds must be there from the first turn, with the same bytes " +
		"(declarations of the host's that a deferral had left out and that come back when the model activates them are the model's doing and are not reported). " +
		"When a turn continues the previous one (its messages start with the previous turn's messages), no rule may change a message inside the previous turn's cached prefix: " +
		"on Anthropic up to the message holding its last cache_control breakpoint, elsewhere (automatic prefix caching) every message it sent. cache_control markers themselves, which move from turn to turn, are not compared.",
	Run: runConversationPrefix,
}

// cachedThrough returns the index of the last message of a request's
// cached prefix: on Anthropic the message holding its last cache_control
// breakpoint (every message with top-level automatic caching; -1 without
// any breakpoint in the messages), elsewhere the last message.
func cachedThrough(c *capture.Capture, msgs []capture.Node) int {
	if c.Provider != capture.Anthropic {
		return len(msgs) - 1
	}
	d := c.Doc
	if d.Kind(d.Get(0, "cache_control")) == capture.Object {
		return len(msgs) - 1
	}
	last := -1
	for k, m := range msgs {
		for i, parent := range d.Walk(m) {
			if d.IsMember(i) && d.Key(i) == "cache_control" && d.Kind(parent) == capture.Object {
				last = k
				break
			}
		}
	}
	return last
}

// appliedChanges lists the (rule, pointer) of every change a result's
// rules applied.
func appliedChanges(r *rules.Result) [][2]string {
	var out [][2]string
	for _, s := range r.Steps {
		if s.Applied {
			for _, ch := range s.Changes {
				out = append(out, [2]string{s.Rule.ID, ch.Pointer})
			}
		}
	}
	return out
}

// touching names the rules whose applied changes (prev's and next's) lie
// at or under one of the pointer prefixes: those that changed such a
// place in one of the two requests only, or else all of them.
func touching(prefixes []string, prev, next [][2]string) []string {
	under := func(ptr string) bool {
		for _, p := range prefixes {
			if ptr == p || strings.HasPrefix(ptr, p+"/") {
				return true
			}
		}
		return false
	}
	changes := func(list [][2]string) map[[2]string]bool {
		m := map[[2]string]bool{}
		for _, ch := range list {
			if under(ch[1]) {
				m[ch] = true
			}
		}
		return m
	}
	a, b := changes(prev), changes(next)
	var only, all []string
	for _, side := range [][2]map[[2]string]bool{{a, b}, {b, a}} {
		for k := range side[0] {
			all = append(all, k[0])
			if !side[1][k] {
				only = append(only, k[0])
			}
		}
	}
	ids := only
	if len(ids) == 0 {
		ids = all
	}
	sort.Strings(ids)
	return slices.Compact(ids)
}

// changedBy reads " (changed by SO301, SO302)", or "" for no rule.
func changedBy(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	return " (changed by " + strings.Join(ids, ", ") + ")"
}

// prefixDiff reports a difference from the previous turn that rules made:
// an error, unless every rule that made it gave its reason for changing
// the prefix once on this turn (rules.Pass.PrefixChange), which is reported as
// information with that reason.
func prefixDiff(p *rules.Pass, r *rules.Result, pointer, msg string, ids []string) {
	d := rules.Diagnostic{Capture: r.Original.Name, Pointer: pointer, Message: msg + changedBy(ids)}
	var why []string
	for _, id := range ids {
		w := ""
		for _, s := range r.Steps {
			if s.Applied && s.Rule.ID == id {
				w = s.PrefixChange
			}
		}
		if w == "" {
			why = nil
			break
		}
		why = append(why, id+" "+w)
	}
	if len(why) > 0 {
		// An explicit severity: information, unless one is configured
		// for the rule.
		d.Rule, d.Severity = p.Rule.ID, rules.Info
		d.Message += ", once, by design: " + strings.Join(slices.Compact(why), "; ")
	}
	p.Report(d)
}

// systemPointers are where a body keeps the instructions of its prefix.
var systemPointers = []string{"/system", "/instructions", "/systemInstruction", "/system_instruction", "/systemPrompt", "/messages/0", "/input/0"}

// lastTurn is what SO405 keeps of the last capture of one conversation:
// hashes of the parts it compares the next turn with, not the capture.
type lastTurn struct {
	name       string
	tools, sys [32]byte // after transformation
	decls      [][32]byte
	beforeMsgs [][32]byte // as captured, cache_control left out
	cachedMsgs [][32]byte // after transformation, through the cached prefix
	list       string     // the pointer of its message list
	changes    [][2]string
}

// turnFacts is what SO405 makes of one result on its own, before it
// compares the result with the conversation's turn before: the
// conversation's key, what the next turn is compared with, the hashes of
// the declarations as captured and of every message after
// transformation (cache_control left out). Nil when the transform
// changed the provider.
type turnFacts struct {
	key   [32]byte
	cur   *lastTurn
	host  [][32]byte
	after [][32]byte
}

func prepareConversationPrefix(r *rules.Result) any {
	if r.Original.Provider != r.Final.Provider {
		return (*turnFacts)(nil)
	}
	before, after := capture.PartsOf(r.Original), capture.PartsOf(r.Final)
	h := sha256.New()
	h.Write([]byte(r.Original.Provider))
	h.Write([]byte{0})
	h.Write(before.Tools)
	h.Write([]byte{0})
	h.Write(before.System)
	h.Write([]byte{0})
	if len(before.Msgs) > 0 {
		// One conversation: the same opening message.
		h.Write(capture.StripCacheControl(r.Original.Doc, before.Msgs[0]))
	}
	f := &turnFacts{host: hashes(before.Decls)}
	copy(f.key[:], h.Sum(nil))
	fd := r.Final.Doc
	for _, m := range after.Msgs {
		f.after = append(f.after, sha256.Sum256(capture.StripCacheControl(fd, m)))
	}
	f.cur = newLastTurn(r, before, after, f.after)
	return f
}

func runConversationPrefix(p *rules.Pass) error {
	groups, _ := p.State.(map[[32]byte]*lastTurn)
	if groups == nil {
		groups = map[[32]byte]*lastTurn{}
		p.State = groups
	}
	r := p.Result
	f := p.Prepared.(*turnFacts)
	if f == nil {
		return nil
	}
	prev, cur := groups[f.key], f.cur
	groups[f.key] = cur
	if prev == nil {
		return nil
	}
	if prev.tools != cur.tools && !restored(prev.decls, cur.decls, f.host) {
		prefixDiff(p, r, "/tools", fmt.Sprintf("tool declarations differ from those of %s after transformation although they were the same before",
			prev.name), touching([]string{"/tools"}, prev.changes, cur.changes))
	}
	if prev.sys != cur.sys {
		prefixDiff(p, r, "", fmt.Sprintf("system text differs from that of %s after transformation although it was the same before",
			prev.name), touching(systemPointers, prev.changes, cur.changes))
	}
	checkCachedMessages(p, prev, r, cur, f.after)
	return nil
}

// newLastTurn keeps what the next turn of r's conversation is compared
// with; afterMsgs are the hashes of every message of r after
// transformation.
func newLastTurn(r *rules.Result, before, after capture.TurnParts, afterMsgs [][32]byte) *lastTurn {
	t := &lastTurn{
		name:    r.Original.Name,
		tools:   sha256.Sum256(after.Tools),
		sys:     sha256.Sum256(after.System),
		decls:   hashes(after.Decls),
		list:    r.Final.Doc.Pointer(capture.MessageList(r.Final)),
		changes: appliedChanges(r),
	}
	od := r.Original.Doc
	for _, m := range before.Msgs {
		t.beforeMsgs = append(t.beforeMsgs, sha256.Sum256(capture.StripCacheControl(od, m)))
	}
	through := cachedThrough(r.Final, after.Msgs)
	t.cachedMsgs = afterMsgs[:min(through+1, len(afterMsgs))]
	return t
}

func hashes(bs [][]byte) [][32]byte {
	out := make([][32]byte, len(bs))
	for i, b := range bs {
		out[i] = sha256.Sum256(b)
	}
	return out
}

// restored reports whether next differs from prev only by declarations of
// the host's own (in host) that prev did not carry: tools a deferral had
// left out and the conversation has since activated, by the model's own
// search. That change is the model's request, not a rule's drift.
func restored(prev, next, host [][32]byte) bool {
	own := map[[32]byte]bool{}
	for _, h := range host {
		own[h] = true
	}
	had := map[[32]byte]int{}
	for _, p := range prev {
		had[p]++
	}
	var kept [][32]byte
	for _, n := range next {
		switch {
		case had[n] > 0:
			had[n]--
			kept = append(kept, n)
		case !own[n]:
			return false
		}
	}
	return slices.Equal(kept, prev)
}

// checkCachedMessages reports a message of next, inside the prefix prev
// cached, that differs from prev's after transformation, when next
// continues prev.
func checkCachedMessages(p *rules.Pass, prev *lastTurn, next *rules.Result, cur *lastTurn, na [][32]byte) {
	if len(prev.beforeMsgs) == 0 || len(prev.beforeMsgs) > len(cur.beforeMsgs) {
		return
	}
	for i, h := range prev.beforeMsgs {
		if h != cur.beforeMsgs[i] {
			return // not a continuation of prev
		}
	}
	for i, h := range prev.cachedMsgs {
		if i >= len(na) || h != na[i] {
			prefixDiff(p, next, prev.list+"/"+strconv.Itoa(i), fmt.Sprintf("message %d differs from what %s sent, inside the prefix that request cached",
				i, prev.name), touching([]string{prev.list}, prev.changes, cur.changes))
			return
		}
	}
}
