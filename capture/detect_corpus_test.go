package capture

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusDir returns the shared corpus folder beside the module, skipping the
// test when it is absent.
func corpusDir(t testing.TB, sub string) string {
	t.Helper()
	dir := filepath.Join("..", "..", "shared", "corpus", sub)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared corpus not present at %s", dir)
	}
	return dir
}

func TestDetectProviderExamples(t *testing.T) {
	dir := corpusDir(t, "provider-examples")
	folders := map[string]Provider{"anthropic": Anthropic, "openai-chat": OpenAIChat, "openai-responses": OpenAIResponses, "gemini": Gemini, "mistral": Mistral, "pi": PiMessages}
	total, exact := 0, 0
	for folder, want := range folders {
		files, _ := filepath.Glob(filepath.Join(dir, folder, "*.json"))
		for _, path := range files {
			total++
			f, err := ReadFile(path, nil, Options{})
			if err != nil {
				t.Errorf("%s: %v", path, err)
				continue
			}
			c := f.Captures[0]
			if c.Provider == want {
				exact++
				continue
			}
			if want == Mistral && strings.HasPrefix(c.Reason, "ambiguous") {
				t.Logf("%s: ambiguous, resolved to %s", filepath.Base(path), c.Provider)
				continue
			}
			t.Errorf("%s: detected %s (%s), want %s", filepath.Base(path), c.Provider, c.Reason, want)
		}
	}
	t.Logf("%d/%d provider examples detected exactly", exact, total)
}

// piCaptureProvider maps a Pi capture file name to the provider it was sent to.
func piCaptureProvider(name string) Provider {
	switch {
	case strings.HasPrefix(name, "pi-anthropic-messages"):
		return Anthropic
	case strings.HasPrefix(name, "pi-openai-responses"):
		return OpenAIResponses
	case strings.HasPrefix(name, "pi-openai-completions"):
		return OpenAIChat
	case strings.HasPrefix(name, "pi-google-generative-ai"):
		return Gemini
	case strings.HasPrefix(name, "pi-mistral-conversations"):
		return Mistral
	}
	return ""
}

func TestDetectPiCaptures(t *testing.T) {
	dir := corpusDir(t, filepath.Join("captures", "pi-0.73.1"))
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) == 0 {
		t.Skip("no Pi captures")
	}
	for _, path := range files {
		f, err := ReadFile(path, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		c := f.Captures[0]
		if want := piCaptureProvider(filepath.Base(path)); c.Provider != want {
			t.Errorf("%s: detected %s (%s), want %s", filepath.Base(path), c.Provider, c.Reason, want)
		}
	}
}

func TestDetectEnvelopes(t *testing.T) {
	dir := corpusDir(t, filepath.Join("provider-examples", "envelopes"))
	want := map[string][]Provider{
		"envelope_object-body_anthropic.json":        {Anthropic},
		"envelope_string-body_anthropic-sdk-go.json": {Anthropic},
		"envelope_string-body_gemini.json":           {Gemini},
		"json-string_bare-body_openai-chat.json":     {OpenAIChat},
		"har_mixed-providers.har":                    {OpenAIResponses, Gemini, Mistral, Anthropic, OpenAIChat},
	}
	for name, provs := range want {
		f, err := ReadFile(filepath.Join(dir, name), nil, Options{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(f.Captures) != len(provs) {
			t.Errorf("%s: %d captures, want %d", name, len(f.Captures), len(provs))
			continue
		}
		for i, c := range f.Captures {
			if c.Provider != provs[i] {
				t.Errorf("%s: capture %d detected %s (%s), want %s", c.Name, i, c.Provider, c.Reason, provs[i])
			}
		}
		if got := f.Rebuild(nil); string(got) != string(f.Data) {
			t.Errorf("%s: rebuild without changes altered the bytes", name)
		}
	}
	for _, name := range []string{"jsonl_bare-bodies_mixed-providers.jsonl", "jsonl_envelopes_mixed-providers.jsonl"} {
		f, err := ReadFile(filepath.Join(dir, name), nil, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, c := range f.Captures {
			t.Logf("%s: %s (%s)", c.Name, c.Provider, c.Reason)
		}
		if len(f.Errs) > 0 {
			t.Errorf("%s: %v", name, f.Errs)
		}
	}
}
