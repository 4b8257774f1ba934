package capture

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestResponsesAreNotRequests(t *testing.T) {
	for _, tc := range []struct {
		name, body, want string
	}{
		{"responses", `{"id":"resp_1","object":"response","output":[],"input":[]}`, "OpenAI Responses response"},
		{"chat", `{"id":"c","object":"chat.completion","choices":[],"usage":{}}`, `Chat Completions response (object "chat.completion")`},
		{"chunk", `{"object":"chat.completion.chunk","choices":[]}`, "chat.completion.chunk"},
		{"anthropic", `{"id":"msg_1","type":"message","role":"assistant","content":[],"stop_reason":"end_turn"}`, "Anthropic Messages response"},
		{"gemini", `{"candidates":[{"content":{"parts":[]}}],"usageMetadata":{}}`, "Gemini generateContent response"},
		{"choices", `{"id":"x","choices":[],"usage":{"prompt_tokens":1}}`, "top-level choices and usage"},
		{"error", `{"type":"error","error":{"type":"invalid_request_error","message":"m"}}`, "error response"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read("r.json", []byte(tc.body), Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "not a request") {
				t.Fatalf("err = %v, want one naming %q", err, tc.want)
			}
			var ce *Error
			if !errors.As(err, &ce) || ce.File != "r.json" {
				t.Errorf("err %v does not name the file", err)
			}
		})
	}
}

func TestRequestsThatLookLikeResponses(t *testing.T) {
	// Members a response carries, in requests where they mean something
	// else, keep the request readable.
	for _, body := range []string{
		`{"model":"m","messages":[{"role":"user","content":"hi"}],"error":{"x":1}}`,
		`{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"candidates":1}`,
		`{"model":"m","messages":[{"role":"user","content":"hi"}],"choices":[],"usage":{}}`,
		`{"model":"m","input":"hi","error":{}}`,
	} {
		if _, err := Read("q.json", []byte(body), Options{}); err != nil {
			t.Errorf("%s: %v", body, err)
		}
	}
}

func TestEventStreamIsNotARequest(t *testing.T) {
	for _, body := range []string{
		"event: message_start\ndata: {}\n\n",
		"data: {\"choices\":[]}\n\n",
		": keep-alive\n\ndata: {}\n\n",
		"\n\nid: 1\ndata: {}\n\n",
	} {
		_, err := Read("s.sse", []byte(body), Options{})
		if err == nil || !strings.Contains(err.Error(), "server-sent event stream") {
			t.Errorf("%q: err = %v", body, err)
		}
	}
	if looksLikeEventStream([]byte(`{"data":1}`)) {
		t.Error("a JSON object read as an event stream")
	}
}

func TestExpandFindsCassettesAmongYAML(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("cassette.yaml", "interactions:\n- request:\n    method: POST\n")
	write("config.yml", "name: not a cassette\n")
	write("req.json", `{"model":"m","max_tokens":1,"messages":[]}`)
	got, err := Expand([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range got {
		names = append(names, filepath.Base(p))
	}
	if want := []string{"cassette.yaml", "req.json"}; !slices.Equal(names, want) {
		t.Errorf("Expand = %v, want %v", names, want)
	}
}

func TestResponseIsNoRequests(t *testing.T) {
	_, err := Read("r.json", []byte(`{"object":"response","output":[]}`), Options{})
	if !errors.Is(err, ErrNoRequests) {
		t.Errorf("err = %v, want one that is ErrNoRequests (skipped in a directory)", err)
	}
}
