package schemas

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/bench/synth"
)

// corpusDir returns the shared corpus next to the repository (../shared/corpus
// from the module root), skipping the test when it is absent.
func corpusDir(tb testing.TB) string {
	tb.Helper()
	dir := filepath.Join("..", "..", "shared", "corpus")
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		tb.Skipf("shared corpus not found at %s", dir)
	}
	return dir
}

func readFile(tb testing.TB, path string) []byte {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// exampleProvider maps a provider-examples folder to its provider shape.
var exampleProvider = map[string]string{
	"anthropic":        "anthropic",
	"openai-chat":      "openai-chat",
	"openai-responses": "openai-responses",
	"gemini":           "gemini",
	"mistral":          "mistral",
	"pi":               "pi-messages",
}

// piBody turns a file of the Pi examples into a message list body:
//   - a session file (.jsonl) holds its messages in "message" entries, one
//     JSON object per line; they are collected into a bare array in order;
//   - a file holding a single message object is wrapped in an array;
//   - anything else is already a message list or a context object.
func piBody(tb testing.TB, name string, data []byte) []byte {
	tb.Helper()
	if strings.HasSuffix(name, ".jsonl") {
		var msgs []json.RawMessage
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
		for sc.Scan() {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			var entry struct {
				Type    string          `json:"type"`
				Message json.RawMessage `json:"message"`
			}
			if err := json.Unmarshal(line, &entry); err != nil {
				tb.Fatalf("%s: %v", name, err)
			}
			if entry.Type == "message" {
				msgs = append(msgs, entry.Message)
			}
		}
		if err := sc.Err(); err != nil {
			tb.Fatal(err)
		}
		if len(msgs) == 0 {
			tb.Fatalf("%s: no message entries", name)
		}
		out, err := json.Marshal(msgs)
		if err != nil {
			tb.Fatal(err)
		}
		return out
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal(data, &probe) == nil {
		_, hasRole := probe["role"]
		_, hasMessages := probe["messages"]
		if hasRole && !hasMessages {
			return append(append([]byte("["), data...), ']')
		}
	}
	return data
}

func TestProviderExamples(t *testing.T) {
	root := filepath.Join(corpusDir(t), "provider-examples")
	folders := make([]string, 0, len(exampleProvider))
	for f := range exampleProvider {
		folders = append(folders, f)
	}
	sort.Strings(folders)
	for _, folder := range folders {
		provider := exampleProvider[folder]
		t.Run(folder, func(t *testing.T) {
			entries, err := os.ReadDir(filepath.Join(root, folder))
			if err != nil {
				t.Fatal(err)
			}
			validated := 0
			for _, e := range entries {
				if e.IsDir() {
					continue
				}
				name := e.Name()
				t.Run(name, func(t *testing.T) {
					body := readFile(t, filepath.Join(root, folder, name))
					if folder == "pi" {
						body = piBody(t, name, body)
					}
					errs, err := Validate(provider, body)
					if err != nil {
						t.Fatal(err)
					}
					for _, e := range errs {
						t.Errorf("%s", e)
					}
					if len(errs) == 0 {
						validated++
					}
				})
			}
			if validated == 0 {
				t.Errorf("no %s example validated", folder)
			}
			t.Logf("%s: %d bodies validated as %s", folder, validated, provider)
		})
	}
}

// captureProviders maps capture file prefixes to provider shapes, longest
// prefix first.
var captureProviders = []struct{ prefix, provider string }{
	{"pi-openai-completions-vllm-", "openai-chat"},
	{"pi-openai-completions-", "openai-chat"},
	{"pi-openai-responses-", "openai-responses"},
	{"pi-anthropic-messages-", "anthropic"},
	{"pi-google-generative-ai-", "gemini"},
	{"pi-mistral-conversations-", "mistral"},
}

func captureProvider(name string) string {
	for _, c := range captureProviders {
		if strings.HasPrefix(name, c.prefix) {
			return c.provider
		}
	}
	return ""
}

// compatibleCapture reports whether a capture went to an OpenAI-compatible
// endpoint rather than OpenAI: the pi-openai-completions captures (their
// meta files: a DeepSeek model on /chat/completions, a vLLM custom provider
// on /v1/chat/completions, neither on api.openai.com). Keys OpenAI's spec
// lacks (DeepSeek's top-level thinking) are extensions those endpoints
// accept: there unknown-key findings are expected, and nothing else is.
func compatibleCapture(name string) bool {
	return strings.HasPrefix(name, "pi-openai-completions-")
}

func TestPiCaptures(t *testing.T) {
	dir := filepath.Join(corpusDir(t), "captures", "pi-0.73.1")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no captures in %s", dir)
	}
	counts := map[string]int{}
	for _, f := range files {
		name := filepath.Base(f)
		provider := captureProvider(name)
		t.Run(name, func(t *testing.T) {
			if provider == "" {
				t.Fatalf("no provider for capture %s", name)
			}
			errs, err := Validate(provider, readFile(t, f))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range errs {
				if e.Unknown && compatibleCapture(name) {
					t.Logf("extension of a compatible endpoint: %s", e)
					continue
				}
				t.Errorf("%s", e)
			}
			if !t.Failed() {
				counts[provider]++
			}
		})
	}
	t.Logf("captures validated per provider: %v", counts)
}

// invalidCases lists the expected errors of every file under
// testdata/invalid/<provider>/.
var invalidCases = map[string][]pm{
	"anthropic/missing-max-tokens.json": {
		{"", `missing required property "max_tokens"`},
	},
	"anthropic/role-robot.json": {
		{"/messages/1/role", `role "robot" is not one of user, assistant, system`},
	},
	"anthropic/content-number.json": {
		{"/messages/0/content", `content must be string or array, got number 42`},
	},
	"anthropic/block-problems.json": {
		{"/messages/0/content/0/type", `type must be string, got number 7`},
		{"/messages/1/content/1", `missing required property "input"`},
		{"/messages/2/content/0", `missing required property "tool_use_id"`},
	},
	"anthropic/no-model-no-version.json": {
		{"", `missing required property "model"`},
	},
	"anthropic/tool-problems.json": {
		{"/thinking/budget_tokens", `budget_tokens must be >= 1024, got 512`},
		{"/tool_choice", `missing required property "name"`},
		{"/tools/0", `missing required property "input_schema"`},
		{"/tools/1/name", `name "get weather" does not match pattern ^[a-zA-Z0-9_-]{1,128}$`},
		{"/tools/2", `missing required property "name"`},
		{"/tools/3/type", `type "some_future_tool" is not one of custom, bash_20241022, bash_20250124, code_execution_20250522, code_execution_20250825 … (23 more)`},
	},
	"openai-chat/message-without-role.json": {
		{"/messages/1", `missing required property "role"`},
	},
	"openai-chat/tool-message-without-id.json": {
		{"/messages/2", `missing required property "tool_call_id"`},
	},
	"openai-chat/arguments-object.json": {
		{"/messages/1/tool_calls/0/function/arguments", `arguments must be string, got object`},
	},
	"openai-chat/tool-choice-unknown.json": {
		{"/tool_choice", `tool_choice "sometimes" is not one of none, auto, required`},
	},
	"openai-chat/missing-model.json": {
		{"", `missing required property "model"`},
		{"/messages/0/content/0", `missing required property "text"`},
	},
	"openai-responses/input-number.json": {
		{"/input", `input must be string or array, got number 7`},
	},
	"openai-responses/function-call-output-without-call-id.json": {
		{"/input/2", `missing required property "call_id"`},
	},
	"openai-responses/message-problems.json": {
		{"/input/0/role", `role "robot" is not one of user, assistant, system, developer`},
		{"/input/1", `missing required property "content"`},
		{"/input/2/content/0/type", `type must be string, got null`},
	},
	"openai-responses/tool-problems.json": {
		{"/tools/0", `missing required property "name"`},
		{"/tools/1", `missing required property "type"`},
		{"/tools/2/tools/0", `missing required property "name"`},
		{"/tools/3/type", `type "some_future_tool" is not one of function, file_search, computer, computer_use_preview, web_search, web_search_2025_08_26, mcp … (11 more)`},
	},
	"gemini/part-text-number.json": {
		{"/contents/0/parts/0/text", `text must be string, got number 3`},
	},
	"gemini/singleton-text-number.json": {
		{"/contents/parts/text", `text must be string, got number 3`},
	},
	"gemini/snake-case-problems.json": {
		{"/system_instruction/parts/function_call/name", `name must be string, got boolean true`},
		{"/tools/function_declarations/1", `missing required property "name"`},
	},
	"gemini/role-assistant.json": {
		{"/contents/1/role", `role "assistant" is not one of user, model`},
	},
	"gemini/code-assist-wrapper.json": {
		{"/request/contents/0/parts/1/function_response", `missing required property "response"`},
	},
	"gemini/duplicate-spellings.json": {
		{"/generation_config/max_output_tokens", `max_output_tokens must be integer, got string "100"`},
		{"/system_instruction", `system_instruction duplicates systemInstruction`},
	},
	"gemini/missing-contents.json": {
		{"", `missing required property "contents"`},
	},
	"mistral/messages-not-array.json": {
		{"/messages", `messages must be array, got object`},
	},
	"mistral/role-developer.json": {
		{"/messages/0/role", `role "developer" is not one of system, user, assistant, tool`},
	},
	"mistral/tool-call-problems.json": {
		{"/messages/1/tool_calls/0/function", `missing required property "name"`},
		{"/messages/1/tool_calls/1/function/arguments", `arguments must be object or string, got number 1`},
		{"/tool_choice", `tool_choice "maybe" is not one of auto, none, any, required`},
	},
	"mistral/chunk-problems.json": {
		{"/messages/0/content/1/image_url", `missing required property "url"`},
		{"/tools/0/function", `missing required property "parameters"`},
	},
	"pi-messages/toolresult-without-toolcallid.json": {
		{"/messages/2", `missing required property "toolCallId"`},
	},
	"pi-messages/bare-array-problems.json": {
		{"/1/content/0/arguments", `arguments must be object, got string "{\"path\":\"a.go\"}"`},
		{"/1/stopReason", `stopReason "done" is not one of stop, length, toolUse, error, aborted`},
		{"/2/content", `content must be string or array, got null`},
	},
	"pi-messages/not-a-list.json": {
		{"", `body must be array or object, got string "hello"`},
	},
	"pi-messages/context-without-messages.json": {
		{"", `missing required property "messages"`},
		{"/tools/0/parameters", `parameters must be object, got array`},
	},
	"pi-messages/custom-roles-problems.json": {
		{"/0", `missing required property "output"`},
		{"/1", `missing required property "customType"`},
		{"/2/summary", `summary must be string, got number 12`},
		{"/3", `missing required property "role"`},
	},
}

func TestInvalid(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "invalid", "*", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	perProvider := map[string]int{}
	for _, f := range files {
		rel := filepath.ToSlash(strings.TrimPrefix(f, filepath.Join("testdata", "invalid")+string(filepath.Separator)))
		provider := filepath.Base(filepath.Dir(f))
		seen[rel] = true
		perProvider[provider]++
		t.Run(rel, func(t *testing.T) {
			want, ok := invalidCases[rel]
			if !ok {
				t.Fatalf("no expected errors listed for %s", rel)
			}
			got, err := Validate(provider, readFile(t, f))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(project(got), want) {
				t.Errorf("errors differ\n got: %s\nwant: %s", formatErrors(got), formatPMs(want))
			}
		})
	}
	for rel := range invalidCases {
		if !seen[rel] {
			t.Errorf("expected errors listed for missing file testdata/invalid/%s", rel)
		}
	}
	for _, p := range Providers {
		if perProvider[p] < 3 {
			t.Errorf("%s has %d invalid cases, want at least 3", p, perProvider[p])
		}
	}
}

func formatErrors(errs []Error) string {
	var b strings.Builder
	for _, e := range errs {
		b.WriteString("\n  ")
		b.WriteString(e.String())
	}
	return b.String()
}

func TestValidTricky(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "valid", "*", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no valid cases")
	}
	for _, f := range files {
		provider := filepath.Base(filepath.Dir(f))
		t.Run(provider+"/"+filepath.Base(f), func(t *testing.T) {
			errs, err := Validate(provider, readFile(t, f))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range errs {
				t.Errorf("%s", e)
			}
		})
	}
}

// Bodies under testdata/compatible/<provider>/ carry extensions that
// OpenAI-compatible endpoints accept: every finding is an unknown key, and
// there is at least one.
func TestCompatibleExtensions(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "compatible", "*", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no compatible cases")
	}
	for _, f := range files {
		provider := filepath.Base(filepath.Dir(f))
		t.Run(provider+"/"+filepath.Base(f), func(t *testing.T) {
			errs, err := Validate(provider, readFile(t, f))
			if err != nil {
				t.Fatal(err)
			}
			if len(errs) == 0 {
				t.Error("no extension found")
			}
			for _, e := range errs {
				if !e.Unknown {
					t.Errorf("not an unknown key: %s", e)
				}
			}
		})
	}
}

func TestUnusableInput(t *testing.T) {
	cases := []struct {
		name, provider, body string
	}{
		{"unknown provider", "cohere", `{}`},
		{"not JSON", "anthropic", `{"model":`},
		{"trailing comma", "gemini", `{"contents":[{"parts":[{"text":"hi"},]}]}`},
		{"two values", "openai-chat", `{} {}`},
		{"empty", "mistral", ``},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			errs, err := Validate(c.provider, []byte(c.body))
			if err == nil {
				t.Fatalf("no error, got validation errors %v", errs)
			}
		})
	}
}

func TestValidBodyGivesEmptyErrors(t *testing.T) {
	errs, err := Validate("openai-responses", []byte(`{"model":"gpt-5","input":"hi"}`))
	if err != nil {
		t.Fatal(err)
	}
	if errs == nil || len(errs) != 0 {
		t.Fatalf("got %#v, want an empty non-nil slice", errs)
	}
}

func TestPointerEscaping(t *testing.T) {
	body := `{"contents":[{"parts":[{"text":"hi"}]}],"labels":{"team/a~b":5}}`
	errs, err := Validate("gemini", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := []pm{{"/labels/team~1a~0b", `"team/a~b" must be string, got number 5`}}
	if !reflect.DeepEqual(project(errs), want) {
		t.Errorf("got %v, want %v", errs, want)
	}
}

func TestErrorsSorted(t *testing.T) {
	var msgs []string
	for i := 0; i < 12; i++ {
		msgs = append(msgs, `{"role":"robot","content":"x"}`)
	}
	body := `{"model":"m","max_tokens":1,"messages":[` + strings.Join(msgs, ",") + `]}`
	errs, err := Validate("anthropic", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != 12 {
		t.Fatalf("got %d errors, want 12", len(errs))
	}
	for i, e := range errs {
		want := "/messages/" + strconv.Itoa(i) + "/role"
		if e.Pointer != want {
			t.Errorf("error %d at %s, want %s", i, e.Pointer, want)
		}
	}
}

func TestConcurrentFirstUse(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		for _, p := range Providers {
			wg.Add(1)
			go func(p string) {
				defer wg.Done()
				if _, err := Validate(p, []byte(`{}`)); err != nil {
					t.Errorf("%s: %v", p, err)
				}
			}(p)
		}
	}
	wg.Wait()
}

// BenchmarkValidate measures validation of the largest Pi capture, and of
// the messages of the largest Pi session file as one message list.
func BenchmarkValidate(b *testing.B) {
	dir := corpusDir(b)
	files, _ := filepath.Glob(filepath.Join(dir, "captures", "pi-0.73.1", "*.json"))
	var largest string
	var size int64
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && st.Size() > size {
			largest, size = f, st.Size()
		}
	}
	if largest == "" {
		b.Skip("no Pi captures")
	}
	run := func(name, provider string, body []byte) {
		b.Run(name, func(b *testing.B) {
			if errs, err := Validate(provider, body); err != nil || len(errs) > 0 {
				b.Fatalf("%v %v", err, errs)
			}
			b.SetBytes(int64(len(body)))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := Validate(provider, body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	run(filepath.Base(largest), captureProvider(filepath.Base(largest)), readFile(b, largest))

	sessions, _ := filepath.Glob(filepath.Join(dir, "provider-examples", "pi", "*.jsonl"))
	var biggest string
	size = 0
	for _, f := range sessions {
		if st, err := os.Stat(f); err == nil && st.Size() > size {
			biggest, size = f, st.Size()
		}
	}
	if biggest != "" {
		run(filepath.Base(biggest)+"-messages", "pi-messages", piBody(b, biggest, readFile(b, biggest)))
	}

	// A 3 MB Anthropic body: the largest Anthropic capture's conversation
	// repeated until the body reaches 3 MB.
	caps, _ := filepath.Glob(filepath.Join(dir, "captures", "pi-0.73.1", "pi-anthropic-messages-*.json"))
	if len(caps) > 0 {
		sort.Strings(caps)
		var req map[string]any
		if err := json.Unmarshal(readFile(b, caps[len(caps)-1]), &req); err != nil {
			b.Fatal(err)
		}
		turn, _ := req["messages"].([]any)
		var msgs []any
		for {
			msgs = append(msgs, turn...)
			req["messages"] = msgs
			body, err := json.Marshal(req)
			if err != nil {
				b.Fatal(err)
			}
			if len(body) >= 3<<20 {
				run("anthropic-3MB", "anthropic", body)
				break
			}
		}
	}
}

func TestGeminiNormalise(t *testing.T) {
	// Snake_case keys, single objects for repeated fields and the Code
	// Assist wrapper are accepted; errors point into the body as given.
	body := `{
	  "model": "gemini-2.5-pro",
	  "project": "p",
	  "request": {
	    "system_instruction": {"parts": {"text": 5}},
	    "contents": {"role": "user", "parts": {"function_call": {"name": 7, "args": {"fade_ms": 3, "inner": {"snake_key": [1]}}}}},
	    "tools": {"function_declarations": {"name": "f", "parameters": {"properties": {"rgb_hex": {"type": "string"}}}}},
	    "labels": {"cost_center": 1},
	    "_private_key": 1
	  }
	}`
	errs, err := Validate("gemini", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := []pm{
		{"/request/_private_key", `unknown property "_private_key"`},
		{"/request/contents/parts/function_call/name", "name must be string, got number 7"},
		{"/request/labels/cost_center", "cost_center must be string, got number 1"},
		{"/request/system_instruction/parts/text", "text must be string, got number 5"},
	}
	if !reflect.DeepEqual(project(errs), want) {
		t.Errorf("got %s\nwant %s", formatErrors(errs), formatPMs(want))
	}
	for k, want := range map[string]string{
		"system_instruction": "systemInstruction", "inline_data": "inlineData", "mime_type": "mimeType",
		"thinking_budget": "thinkingBudget", "fileUri": "fileUri", "_meta": "_meta", "a__b": "aB", "top_k": "topK",
	} {
		if got := geminiKey(k); got != want {
			t.Errorf("geminiKey(%q) = %q, want %q", k, got, want)
		}
	}
}

// pm is an error without its offset, for expectations.
type pm struct{ Pointer, Message string }

func project(errs []Error) []pm {
	out := []pm{}
	for _, e := range errs {
		out = append(out, pm{e.Pointer, e.Message})
	}
	return out
}

func formatPMs(want []pm) string {
	var b strings.Builder
	for _, e := range want {
		b.WriteString("\n  " + e.Pointer + ": " + e.Message)
	}
	return b.String()
}

// Offsets point at the offending value (or the key of an unknown property).
func TestErrorOffsets(t *testing.T) {
	body := []byte(`{"model":"m","max_tokens":"ten","messages":[{"role":"robot","content":"x"}]}`)
	errs, err := Validate("anthropic", body)
	if err != nil || len(errs) != 2 {
		t.Fatalf("%v %v", errs, err)
	}
	for _, e := range errs {
		d, _ := capture.Parse(body)
		i, _ := d.Lookup(e.Pointer)
		if e.Offset != int(d.Nodes[i].Start) {
			t.Errorf("%s: offset %d, value at %d", e.Pointer, e.Offset, d.Nodes[i].Start)
		}
	}
}

// BenchmarkValidateSynthetic validates the 10,000-skill synthetic capture of
// each provider shape (a body that is mostly one long system text), next to
// a plain json.Unmarshal of the same bytes: the target is validation at
// most 1.3 times the Unmarshal.
func BenchmarkValidateSynthetic(b *testing.B) {
	skills := synth.Skills(10000, 1)
	for _, p := range []string{"anthropic", "openai-chat", "openai-responses", "gemini", "mistral"} {
		body, err := synth.Capture(p, skills, 3)
		if err != nil {
			b.Fatal(err)
		}
		if errs, err := Validate(p, body); err != nil || len(errs) > 0 {
			b.Fatalf("%s: %v %v", p, err, errs)
		}
		b.Run(p+"/validate", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for i := 0; i < b.N; i++ {
				if _, err := Validate(p, body); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(p+"/unmarshal", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for i := 0; i < b.N; i++ {
				var v any
				if err := json.Unmarshal(body, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCompile compiles each embedded schema: the cost a command pays
// once, on its first validation of that shape.
func BenchmarkCompile(b *testing.B) {
	for _, p := range append(append([]string{}, Providers...), Files...) {
		data, err := schemaFiles.ReadFile(p + ".schema.json")
		if err != nil {
			b.Fatal(err)
		}
		b.Run(p, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				if _, err := compileDoc(p, data, "", codeAssistEntry); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestPreload: a schema compiling in the background serves validations
// that start meanwhile; an unknown provider is left to validation.
func TestPreload(t *testing.T) {
	Preload("no-such-provider")
	Preload("anthropic")
	body := []byte(`{"model":"claude-sonnet-4-5","max_tokens":"ten","messages":[{"role":"user","content":"hi"}]}`)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			errs, err := Validate("anthropic", body)
			if err != nil || len(errs) == 0 {
				t.Errorf("errors %v, %v", errs, err)
			}
		})
	}
	wg.Wait()
}
