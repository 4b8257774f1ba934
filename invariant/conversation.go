package invariant

import (
	"bytes"
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
	Engine:   rules.Engine{Cross: true},
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

// touching names the rules whose applied changes lie at or under one of
// the pointer prefixes in prev or next: those that changed such a place in
// one of the two requests only, or else all of them.
func touching(prefixes []string, prev, next *rules.Result) []string {
	under := func(ptr string) bool {
		for _, p := range prefixes {
			if ptr == p || strings.HasPrefix(ptr, p+"/") {
				return true
			}
		}
		return false
	}
	changes := func(r *rules.Result) map[[2]string]bool {
		m := map[[2]string]bool{}
		for _, s := range r.Steps {
			if s.Applied {
				for _, ch := range s.Changes {
					if under(ch.Pointer) {
						m[[2]string{s.Rule.ID, ch.Pointer}] = true
					}
				}
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

func runConversationPrefix(p *rules.Pass) error {
	type last struct {
		res    *rules.Result
		before capture.TurnParts
		after  capture.TurnParts
	}
	groups := map[[32]byte]*last{}
	for _, r := range p.Batch {
		if r.Original.Provider != r.Final.Provider {
			continue
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
		var key [32]byte
		copy(key[:], h.Sum(nil))
		prev := groups[key]
		groups[key] = &last{res: r, before: before, after: after}
		if prev == nil {
			continue
		}
		if !bytes.Equal(prev.after.Tools, after.Tools) && !restored(prev.after.Decls, after.Decls, before.Decls) {
			prefixDiff(p, r, "/tools", fmt.Sprintf("tool declarations differ from those of %s after transformation although they were the same before",
				prev.res.Original.Name), touching([]string{"/tools"}, prev.res, r))
		}
		if !bytes.Equal(prev.after.System, after.System) {
			prefixDiff(p, r, "", fmt.Sprintf("system text differs from that of %s after transformation although it was the same before",
				prev.res.Original.Name), touching(systemPointers, prev.res, r))
		}
		checkCachedMessages(p, prev.res, r, prev.before, before, prev.after, after)
	}
	return nil
}

// restored reports whether next differs from prev only by declarations of
// the host's own (in host) that prev did not carry: tools a deferral had
// left out and the conversation has since activated, by the model's own
// search. That change is the model's request, not a rule's drift.
func restored(prev, next, host [][]byte) bool {
	own := map[string]bool{}
	for _, h := range host {
		own[string(h)] = true
	}
	had := map[string]int{}
	for _, p := range prev {
		had[string(p)]++
	}
	var kept [][]byte
	for _, n := range next {
		switch {
		case had[string(n)] > 0:
			had[string(n)]--
			kept = append(kept, n)
		case !own[string(n)]:
			return false
		}
	}
	return len(kept) == len(prev) && slices.EqualFunc(kept, prev, bytes.Equal)
}

// checkCachedMessages reports a message of next, inside the prefix prev
// cached, that differs from prev's after transformation, when next
// continues prev.
func checkCachedMessages(p *rules.Pass, prev, next *rules.Result, pb, nb, pa, na capture.TurnParts) {
	od, nd := prev.Original.Doc, next.Original.Doc
	if len(pb.Msgs) == 0 || len(pb.Msgs) > len(nb.Msgs) {
		return
	}
	for i, m := range pb.Msgs {
		if !bytes.Equal(capture.StripCacheControl(od, m), capture.StripCacheControl(nd, nb.Msgs[i])) {
			return // not a continuation of prev
		}
	}
	through := cachedThrough(prev.Final, pa.Msgs)
	fd, gd := prev.Final.Doc, next.Final.Doc
	for i := 0; i <= through; i++ {
		if i >= len(na.Msgs) || !bytes.Equal(capture.StripCacheControl(fd, pa.Msgs[i]), capture.StripCacheControl(gd, na.Msgs[i])) {
			list := prev.Final.Doc.Pointer(capture.MessageList(prev.Final))
			prefixDiff(p, next, list+"/"+strconv.Itoa(i), fmt.Sprintf("message %d differs from what %s sent, inside the prefix that request cached",
				i, prev.Original.Name), touching([]string{list}, prev, next))
			return
		}
	}
}
