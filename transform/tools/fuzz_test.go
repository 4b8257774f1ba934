package tools

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/rank"
	"github.com/skillopt/skillopt/rules"
)

// FuzzToolTokens: the allocation-free tokenizer agrees with rank.Tokens on
// any input (prose lower-cased letter by letter first) and never panics.
func FuzzToolTokens(f *testing.F) {
	for _, s := range []string{"parseJSONFile k8s-rollout_debugger v2.1", "GitHub PRs", "ΣΑΣ straße", "\xff\xfeA", "aB\u0130c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, camel := range []bool{true, false} {
			var got, want []string
			rank.AppendTokens(s, camel, nil, func(tok []byte) { got = append(got, string(tok)) })
			in := s
			if !camel {
				in = lowerForTokens(s)
			}
			rank.Tokens(in, func(tok string) { want = append(want, tok) })
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%q camel=%v: got %q want %q", s, camel, got, want)
			}
			// The indexer's fused path gives the same terms.
			tt := newToolTermer(rank.NewIDBuilder(toolFields...), 0)
			ids := tt.add(nil, []byte(s), camel, 0)
			var wantIDs []int32
			for _, term := range toolAppendTerms(nil, s, camel, 0) {
				wantIDs = append(wantIDs, tt.b.ID(term))
			}
			if !reflect.DeepEqual(ids, wantIDs) {
				t.Fatalf("%q camel=%v: indexed %v, want %v", s, camel, ids, wantIDs)
			}
		}
	})
}

// FuzzToolDefer: SO201 on any capture body never fails or panics; when it
// changes the body, the result parses, keeps every invariant and a second
// pass is identity (the engine drops it otherwise).
func FuzzToolDefer(f *testing.F) {
	for _, p := range capture.Providers {
		f.Add([]byte(conversation(p, testCatalog, user(prPrompt))))
		f.Add([]byte(conversation(p, testCatalog, user("Why do pods restart?"), call("mcp__kubernetes__pods_log", "c1"), result("mcp__kubernetes__pods_log", "c1", `{"activated":["mcp__slack__post_message"]}`), user("open a pull request"))))
	}
	f.Add([]byte(`{"contents":{"parts":{"text":"open a pull request"}},"tools":{"function_declarations":{"name":"x"}}}`))
	cfg := defaults()
	cfg.MinSaving = 0
	env := envWith(f, cfg)
	pipeline := []*rules.Rule{Defer}
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) > 1<<16 {
			return
		}
		file, err := capture.Read("f.json", body, capture.Options{})
		if err != nil {
			return
		}
		for _, c := range file.Captures {
			res, err := rules.Run(c, pipeline, env)
			if err != nil {
				t.Fatalf("rule failed: %v", err)
			}
			if !res.Changed() {
				continue
			}
			if _, err := capture.Parse(res.Final.Body); err != nil {
				t.Fatalf("result does not parse: %v", err)
			}
			for _, inv := range Rules()[2:] {
				diags, err := rules.Verify(res, []*rules.Rule{inv}, env)
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range diags {
					t.Errorf("%s: %s\n%s", d.Rule, d.Message, res.Final.Body)
				}
			}
			again, err := rules.Run(res.Final, pipeline, env)
			if err != nil || !bytes.Equal(again.Final.Body, res.Final.Body) {
				t.Fatalf("second pass changed the body: %v", err)
			}
		}
	})
}

// FuzzToolSearch: any query and cursor give a bounded page or a cursor
// error, never a panic.
func FuzzToolSearch(f *testing.F) {
	f.Add("kubernetes pods slack postgres", "")
	f.Add("github", "o2.000000000000")
	f.Add("", "o")
	c, err := capture.Read("f.json", []byte(conversation(capture.Anthropic, testCatalog, user(prPrompt))), capture.Options{})
	if err != nil {
		f.Fatal(err)
	}
	cfg := defaults()
	plan := Decide(c.Captures[0], cfg)
	f.Fuzz(func(t *testing.T, query, cursor string) {
		page, err := plan.Search(query, cursor)
		if err != nil {
			if _, ok := err.(*CursorError); !ok {
				t.Fatalf("unexpected error %T: %v", err, err)
			}
			return
		}
		if len(page.Tools) > cfg.PageSize {
			t.Fatalf("page of %d", len(page.Tools))
		}
		for _, m := range page.Tools {
			if !has(plan.Deferred, m.Name) {
				t.Fatalf("%s is not deferred", m.Name)
			}
		}
	})
}
