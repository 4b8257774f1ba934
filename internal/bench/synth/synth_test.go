package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

var (
	nameRE     = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)+$`)
	locationRE = regexp.MustCompile(`^/home/dev/\.pi/agent/skills/[a-z0-9-]+/([a-z0-9-]+)/SKILL\.md$`)
	skillRE    = regexp.MustCompile(`(?s)  <skill>\n    <name>([^<]*)</name>\n    <description>([^<]*)</description>\n    <location>([^<]*)</location>\n  </skill>\n`)
)

var xmlUnescaper = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'", "&amp;", "&")

func TestSkillsDeterministic(t *testing.T) {
	a, b := Skills(2000, 7), Skills(2000, 7)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same n and seed gave different skills")
	}
	if reflect.DeepEqual(a, Skills(2000, 8)) {
		t.Fatal("different seeds gave identical skills")
	}
	// A smaller catalog is a prefix of a larger one with the same seed.
	if !reflect.DeepEqual(Skills(355, 7), a[:355]) {
		t.Fatal("Skills(355) is not a prefix of Skills(2000)")
	}
}

func TestSkillsProperties(t *testing.T) {
	for _, n := range []int{-1, 0, 1, 355, 2000, 100000} {
		sk := Skills(n, 1)
		want := max(n, 0)
		if len(sk) != want {
			t.Fatalf("Skills(%d): got %d skills", n, len(sk))
		}
		seen := make(map[string]bool, len(sk))
		special, minLen, maxLen, total := 0, MaxDescriptionLen, 0, 0
		for _, s := range sk {
			if seen[s.Name] {
				t.Fatalf("n=%d: duplicate name %q", n, s.Name)
			}
			seen[s.Name] = true
			if !nameRE.MatchString(s.Name) || len(s.Name) > maxNameLen {
				t.Fatalf("n=%d: bad name %q", n, s.Name)
			}
			l := utf8.RuneCountInString(s.Description)
			if l < MinDescriptionLen || l > MaxDescriptionLen {
				t.Fatalf("n=%d: description of %q has %d characters: %q", n, s.Name, l, s.Description)
			}
			minLen, maxLen, total = min(minLen, l), max(maxLen, l), total+l
			if strings.ContainsAny(s.Description, `&<>'"`) {
				special++
			}
			m := locationRE.FindStringSubmatch(s.Location)
			if m == nil || m[1] != s.Name {
				t.Fatalf("n=%d: bad location %q for %q", n, s.Location, s.Name)
			}
		}
		if n >= 355 {
			if frac := float64(special) / float64(n); frac < 0.15 {
				t.Errorf("n=%d: only %.1f%% of descriptions contain XML-special characters", n, 100*frac)
			}
			t.Logf("n=%d: description length min %d, mean %d, max %d; %d%% with XML-special characters",
				n, minLen, total/n, maxLen, 100*special/n)
		}
	}
}

// BenchmarkSkills100k times the generation of 100,000 skills (about 0.3 s
// on an idle machine). Timing is not asserted in tests: a busy machine
// would fail them.
func BenchmarkSkills100k(b *testing.B) {
	for b.Loop() {
		Skills(100000, 1)
	}
}

func BenchmarkCaptureAnthropic10k(b *testing.B) {
	sk := Skills(10000, 1)
	for b.Loop() {
		if _, err := Capture("anthropic", sk, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// systemText extracts the system or developer text from a decoded body.
func systemText(t *testing.T, provider string, v map[string]any) string {
	t.Helper()
	var s any
	switch provider {
	case "anthropic":
		s = v["system"].([]any)[0].(map[string]any)["text"]
	case "openai-chat", "mistral":
		m := v["messages"].([]any)[0].(map[string]any)
		if m["role"] != "system" {
			t.Fatalf("%s: first message has role %v", provider, m["role"])
		}
		s = m["content"]
	case "openai-responses":
		m := v["input"].([]any)[0].(map[string]any)
		if m["role"] != "developer" {
			t.Fatalf("%s: first input item has role %v", provider, m["role"])
		}
		s = m["content"]
	case "gemini":
		s = v["systemInstruction"].(map[string]any)["parts"].([]any)[0].(map[string]any)["text"]
	case "pi-messages":
		s = v["systemPrompt"]
	}
	str, ok := s.(string)
	if !ok {
		t.Fatalf("%s: no system text", provider)
	}
	return str
}

// toolNames lists the tool names declared in a decoded body.
func toolNames(provider string, v map[string]any) []string {
	var names []string
	list, _ := v["tools"].([]any)
	if provider == "gemini" && len(list) > 0 {
		list, _ = list[0].(map[string]any)["functionDeclarations"].([]any)
	}
	for _, x := range list {
		m := x.(map[string]any)
		if f, ok := m["function"].(map[string]any); ok {
			m = f
		}
		names = append(names, fmt.Sprint(m["name"]))
	}
	return names
}

// history returns the message list of a decoded body and the number of
// entries expected for turns.
func history(provider string, v map[string]any, turns int) ([]any, int) {
	e := turns - 1
	switch provider {
	case "anthropic", "pi-messages":
		return v["messages"].([]any), 1 + 3*e
	case "openai-chat":
		return v["messages"].([]any), 2 + 3*e
	case "mistral":
		// An assistant reply after each exchange's tool results.
		return v["messages"].([]any), 2 + 4*e
	case "openai-responses":
		return v["input"].([]any), 2 + 5*e
	case "gemini":
		return v["contents"].([]any), 1 + 3*e
	}
	return nil, -1
}

func TestCaptureShapes(t *testing.T) {
	for _, n := range []int{0, 1, 355, 2000} {
		skills := Skills(n, 1)
		for _, provider := range Providers {
			for _, turns := range []int{1, 2, 9} {
				name := fmt.Sprintf("%s/n=%d/turns=%d", provider, n, turns)
				body, err := Capture(provider, skills, turns)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if !json.Valid(body) {
					t.Fatalf("%s: invalid JSON", name)
				}
				if bytes.ContainsAny(body, "\n\t") || !bytes.HasPrefix(body, []byte(`{"`)) {
					t.Fatalf("%s: body is not compact", name)
				}
				if bytes.Contains(body, []byte(`\u003c`)) || bytes.Contains(body, []byte(`\u0026`)) {
					t.Fatalf("%s: body has HTML-escaped characters", name)
				}
				var v map[string]any
				if err := json.Unmarshal(body, &v); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				sys := systemText(t, provider, v)
				checkCatalog(t, name, sys, skills)
				if got := toolNames(provider, v); !slices.Equal(got, []string{"read", "bash", "edit", "write"}) {
					t.Errorf("%s: tools %v", name, got)
				}
				msgs, want := history(provider, v, turns)
				if len(msgs) != want {
					t.Errorf("%s: %d history entries, want %d", name, len(msgs), want)
				}
			}
		}
	}
}

func checkCatalog(t *testing.T, name, sys string, skills []Skill) {
	t.Helper()
	if got := strings.Count(sys, "<skill>"); got != len(skills) {
		t.Fatalf("%s: %d <skill> entries, want %d", name, got, len(skills))
	}
	hasBlock := strings.Count(sys, "<available_skills>") == 1 && strings.Count(sys, "</available_skills>") == 1
	hasPreamble := strings.Contains(sys, "\n\n"+SkillsPreamble+"\n")
	if want := len(skills) > 0; hasBlock != want || hasPreamble != want {
		t.Fatalf("%s: catalog block %v, preamble %v, want %v", name, hasBlock, hasPreamble, want)
	}
	if len(skills) == 0 {
		return
	}
	if strings.Index(sys, SkillsPreamble) > strings.Index(sys, "<available_skills>") {
		t.Fatalf("%s: preamble after the catalog", name)
	}
	entries := skillRE.FindAllStringSubmatch(sys, -1)
	if len(entries) != len(skills) {
		t.Fatalf("%s: %d well-formed entries, want %d", name, len(entries), len(skills))
	}
	for i, e := range entries {
		s := skills[i]
		if xmlUnescaper.Replace(e[1]) != s.Name || xmlUnescaper.Replace(e[2]) != s.Description || xmlUnescaper.Replace(e[3]) != s.Location {
			t.Fatalf("%s: entry %d does not round-trip: %q", name, i, e[0])
		}
		if strings.ContainsAny(e[2], `<>'"`) {
			t.Fatalf("%s: entry %d is not XML-escaped: %q", name, i, e[2])
		}
	}
}

func TestCaptureDeterministic(t *testing.T) {
	for _, provider := range Providers {
		a, err := Capture(provider, Skills(500, 3), 5)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Capture(provider, Skills(500, 3), 5)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two captures differ", provider)
		}
	}
}

func TestCaptureEscapeHTML(t *testing.T) {
	skills := Skills(50, 1)
	for _, provider := range Providers {
		plain, err := Capture(provider, skills, 9)
		if err != nil {
			t.Fatal(err)
		}
		escaped, err := CaptureWith(provider, skills, 9, CaptureOptions{EscapeHTML: true})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(plain, []byte("<available_skills>")) {
			t.Errorf("%s: default body lacks a raw <available_skills>", provider)
		}
		if !bytes.Contains(escaped, []byte(`\u003cavailable_skills\u003e`)) || bytes.ContainsAny(escaped, "<>&") {
			t.Errorf("%s: escaped body still has raw <, > or &", provider)
		}
		var a, b any
		if err := json.Unmarshal(plain, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(escaped, &b); err != nil {
			t.Fatal(err)
		}
		// Tool-call arguments are JSON inside a string, escaped in turn.
		if !reflect.DeepEqual(decodeArguments(t, a), decodeArguments(t, b)) {
			t.Errorf("%s: escaped and plain bodies decode differently", provider)
		}
	}
}

// decodeArguments replaces string-valued "arguments" fields by their decoded
// JSON value.
func decodeArguments(t *testing.T, v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && k == "arguments" {
				var d any
				if err := json.Unmarshal([]byte(s), &d); err != nil {
					t.Fatalf("arguments %q: %v", s, err)
				}
				x[k] = d
				continue
			}
			x[k] = decodeArguments(t, e)
		}
	case []any:
		for i, e := range x {
			x[i] = decodeArguments(t, e)
		}
	}
	return v
}

func TestCaptureToolCalls(t *testing.T) {
	const turns = 9 // one of each kind of exchange
	body, err := Capture("openai-responses", Skills(3, 1), turns)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Input []struct {
			Type      string `json:"type"`
			CallID    string `json:"call_id"`
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
			Output    string `json:"output"`
		} `json:"input"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	calls := map[string]string{}
	var kinds []string
	var outputs []int
	for _, it := range v.Input {
		switch it.Type {
		case "function_call":
			var args map[string]any
			if err := json.Unmarshal([]byte(it.Arguments), &args); err != nil {
				t.Fatalf("arguments of %s: %v", it.Name, err)
			}
			calls[it.CallID] = it.Name
			kinds = append(kinds, it.Name)
		case "function_call_output":
			if calls[it.CallID] == "" {
				t.Fatalf("output for unknown call %s", it.CallID)
			}
			outputs = append(outputs, len(it.Output))
		}
	}
	if len(kinds) != turns-1 || len(outputs) != turns-1 {
		t.Fatalf("%d calls and %d outputs, want %d", len(kinds), len(outputs), turns-1)
	}
	for _, tool := range []string{"read", "bash", "edit", "write"} {
		if !slices.Contains(kinds, tool) {
			t.Errorf("no %s call in %v", tool, kinds)
		}
	}
	big := 0
	for _, n := range outputs {
		if n >= 1500 {
			big++
		}
	}
	if big < 5 {
		t.Errorf("tool outputs too small: %v", outputs)
	}
	t.Logf("tool calls %v, output sizes %v", kinds, outputs)
}

func TestCaptureErrors(t *testing.T) {
	if _, err := Capture("cohere", nil, 1); err == nil {
		t.Error("unknown provider accepted")
	}
	if _, err := Capture("anthropic", nil, 0); err == nil {
		t.Error("turns=0 accepted")
	}
}

func TestURLPath(t *testing.T) {
	want := map[string]string{
		"anthropic":        "/v1/messages",
		"openai-chat":      "/v1/chat/completions",
		"openai-responses": "/v1/responses",
		"gemini":           "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
		"mistral":          "/v1/chat/completions",
		"pi-messages":      "",
		"nope":             "",
	}
	for p, w := range want {
		if got := URLPath(p); got != w {
			t.Errorf("URLPath(%q) = %q, want %q", p, got, w)
		}
	}
}

func TestCaptureSizes(t *testing.T) {
	ns := []int{355, 2000, 10000}
	if os.Getenv("SKILLOPT_LONG_TESTS") != "" {
		ns = append(ns, 100000)
	}
	for _, n := range ns {
		skills := Skills(n, 1)
		var line strings.Builder
		fmt.Fprintf(&line, "n=%-6d", n)
		for _, provider := range Providers {
			body, err := Capture(provider, skills, 1)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&line, "  %s %d B", provider, len(body))
			if n == 10000 && provider == "anthropic" && (len(body) < 2500000 || len(body) > 4500000) {
				t.Errorf("anthropic body for 10000 skills is %d bytes, want about 3 MB", len(body))
			}
		}
		t.Log(line.String())
	}
}

// topKeys returns the top-level keys of a JSON object in document order.
func topKeys(t *testing.T, body []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// TestMatchesRecordedShapes compares the top-level layout and the catalog
// layout with recorded Pi request bodies when they are available.
func TestMatchesRecordedShapes(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "..", "shared", "corpus", "captures", "pi-0.73.1")
	recorded := map[string]string{
		"anthropic":        "pi-anthropic-messages-small-3.json",
		"openai-chat":      "pi-openai-completions-vllm-small-3.json",
		"openai-responses": "pi-openai-responses-small-3.json",
		"gemini":           "pi-google-generative-ai-small-3.json",
		"mistral":          "pi-mistral-conversations-small-3.json",
	}
	skills := Skills(13, 1)
	for provider, file := range recorded {
		real, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Skipf("recorded captures not available: %v", err)
		}
		ours, err := Capture(provider, skills, 3)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := topKeys(t, ours), topKeys(t, real); !slices.Equal(got, want) {
			t.Errorf("%s: top-level keys %v, recorded %v", provider, got, want)
		}
		var rv, ov map[string]any
		if err := json.Unmarshal(real, &rv); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(ours, &ov); err != nil {
			t.Fatal(err)
		}
		rs, ourSys := systemText(t, provider, rv), systemText(t, provider, ov)
		if rn, on := len(skillRE.FindAllString(rs, -1)), len(skillRE.FindAllString(ourSys, -1)); rn != strings.Count(rs, "<skill>") || on != len(skills) {
			t.Errorf("%s: catalog entry layout differs (recorded %d/%d, ours %d/%d)", provider, rn, strings.Count(rs, "<skill>"), on, len(skills))
		}
		for _, marker := range []string{"\n\n" + SkillsPreamble + "\n", "\n\n<available_skills>\n  <skill>\n", "</available_skills>\nCurrent date: "} {
			if !strings.Contains(rs, marker) || !strings.Contains(ourSys, marker) {
				t.Errorf("%s: marker %q missing (recorded %v, ours %v)", provider, marker, strings.Contains(rs, marker), strings.Contains(ourSys, marker))
			}
		}
		rh, _ := history(provider, rv, 3)
		oh, want := history(provider, ov, 3)
		if len(oh) != want {
			t.Errorf("%s: history length %d, want %d", provider, len(oh), want)
		}
		t.Logf("%s: recorded history %d entries, ours %d", provider, len(rh), len(oh))
	}
}

func BenchmarkCaptureGemini10k(b *testing.B) {
	sk := Skills(10000, 1)
	for b.Loop() {
		if _, err := Capture("gemini", sk, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// TestHostileBodies: every hostile shape is one JSON value of about the
// size asked, and its variant differs from it.
func TestHostileBodies(t *testing.T) {
	for _, shape := range Hostile {
		a, err := HostileBody(shape, 64<<10, false)
		if err != nil {
			t.Fatal(err)
		}
		b, err := HostileBody(shape, 64<<10, true)
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(a) || !json.Valid(b) {
			t.Errorf("%s: not JSON", shape)
		}
		if len(a) < 64<<10 || len(a) > 80<<10 {
			t.Errorf("%s: %d bytes for 64 KiB", shape, len(a))
		}
		if bytes.Equal(a, b) {
			t.Errorf("%s: the variant is the same body", shape)
		}
	}
	if _, err := HostileBody("nope", 10, false); err == nil {
		t.Error("an unknown shape was accepted")
	}
}
