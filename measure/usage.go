package measure

import (
	"bytes"

	"github.com/skillopt/skillopt/capture"
)

// ResponseUsage reads the token usage from a provider's response body: a
// JSON object, a JSON array of streamed chunks (Gemini), or a server-sent
// event stream whose data lines are JSON. The usage of the last event that
// reports a field wins, so a stream's final counts are taken. It returns
// nil when the body reports no usage.
//
// Providers count differently; the result is normalized so that Input is
// every prompt token: Anthropic's input_tokens (uncached) plus its cache
// reads and writes; OpenAI's prompt_tokens or input_tokens (cached ones
// included); Gemini's promptTokenCount.
func ResponseUsage(body []byte) *Usage {
	var docs []*capture.Doc
	trimmed := bytes.TrimSpace(body)
	if d, err := capture.Parse(trimmed); err == nil {
		if d.Kind(0) == capture.Array {
			for e := range d.Children(0) {
				if sub, err := capture.Parse(d.Raw(e)); err == nil {
					docs = append(docs, sub)
				}
			}
		} else {
			docs = append(docs, d)
		}
	} else {
		for line := range capture.EventLines(body) {
			data, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("data:"))
			if !ok {
				continue
			}
			data = bytes.TrimSpace(data)
			if len(data) == 0 || data[0] != '{' {
				continue
			}
			if d, err := capture.Parse(data); err == nil {
				docs = append(docs, d)
			}
		}
	}
	f := usageFields{}
	for _, d := range docs {
		for _, u := range []capture.Node{
			d.Get(0, "usage"),
			d.Get(d.Get(0, "message"), "usage"),
			d.Get(d.Get(0, "response"), "usage"),
			d.Get(0, "usageMetadata"),
		} {
			if d.Kind(u) == capture.Object {
				f.read(d, u)
			}
		}
	}
	return f.usage()
}

// usageFields holds the usage members seen so far, by name (nested
// members as "details.name"); -1 is absent.
type usageFields map[string]int

func (f usageFields) read(d *capture.Doc, u capture.Node) {
	for m := range d.Children(u) {
		if !d.IsMember(m) {
			continue
		}
		key := d.Key(m)
		switch d.Kind(m) {
		case capture.Number:
			if n, ok := intMember(d, u, key); ok {
				f[key] = n
			}
		case capture.Object:
			for s := range d.Children(m) {
				if d.IsMember(s) && d.Kind(s) == capture.Number {
					if n, ok := intMember(d, m, d.Key(s)); ok {
						f[key+"."+d.Key(s)] = n
					}
				}
			}
		}
	}
}

func (f usageFields) get(keys ...string) (int, bool) {
	for _, k := range keys {
		if v, ok := f[k]; ok {
			return v, true
		}
	}
	return 0, false
}

func (f usageFields) usage() *Usage {
	u := &Usage{Source: "response"}
	if in, ok := f.get("promptTokenCount"); ok {
		// Gemini.
		u.Input = in
		u.Cached, _ = f.get("cachedContentTokenCount")
		out, _ := f.get("candidatesTokenCount")
		think, _ := f.get("thoughtsTokenCount")
		u.Output = out + think
	} else if in, ok := f.get("prompt_tokens"); ok {
		// OpenAI Chat Completions and compatible APIs.
		u.Input = in
		u.Cached, _ = f.get("prompt_tokens_details.cached_tokens", "prompt_cache_hit_tokens")
		u.Written, _ = f.get("prompt_tokens_details.cache_write_tokens")
		u.Output, _ = f.get("completion_tokens")
	} else if in, ok := f.get("input_tokens"); ok {
		u.Output, _ = f.get("output_tokens")
		if cached, ok := f.get("input_tokens_details.cached_tokens"); ok {
			// OpenAI Responses: input_tokens counts cached ones.
			u.Input, u.Cached = in, cached
			u.Written, _ = f.get("input_tokens_details.cache_write_tokens")
		} else {
			// Anthropic: input_tokens counts what was neither read nor
			// written.
			u.Cached, _ = f.get("cache_read_input_tokens")
			u.Written, _ = f.get("cache_creation_input_tokens")
			u.Written1h, _ = f.get("cache_creation.ephemeral_1h_input_tokens")
			u.Input = in + u.Cached + u.Written
		}
	} else {
		return nil
	}
	u.Uncached = max(u.Input-u.Cached-u.Written, 0)
	return u
}
