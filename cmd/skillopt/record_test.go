package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// The test binary doubles as the host that record runs: started as
// `skillopt.test record-test-client`, it sends streamed requests to the
// base URLs record gave it and exits.
func init() {
	if len(os.Args) > 1 && os.Args[1] == "record-test-client" {
		os.Exit(recordTestClient(os.Args[2:]))
	}
}

// recordTestClient sends, through $ANTHROPIC_BASE_URL, two streamed
// Messages requests of one conversation (the second extends the first) and,
// through $OPENAI_BASE_URL, a streamed chat completion; it reads every
// event and prints how many it read.
func recordTestClient(args []string) int {
	type call struct{ base, path, body string }
	first := `{"model":"claude-sonnet-4-5","max_tokens":64,"stream":true,"system":"You answer briefly.","messages":[{"role":"user","content":"hello"}]}`
	second := `{"model":"claude-sonnet-4-5","max_tokens":64,"stream":true,"system":"You answer briefly.","messages":[{"role":"user","content":"hello"},{"role":"assistant","content":"hi"},{"role":"user","content":"bye"}]}`
	calls := []call{
		{"ANTHROPIC_BASE_URL", "/v1/messages", first},
		{"ANTHROPIC_BASE_URL", "/v1/messages", second},
		{"OPENAI_BASE_URL", "/chat/completions", `{"model":"gpt-4o","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hello"}]}`},
	}
	events := 0
	for _, c := range calls {
		base := os.Getenv(c.base)
		if base == "" {
			fmt.Fprintf(os.Stderr, "client: $%s is not set\n", c.base)
			return 3
		}
		req, _ := http.NewRequest("POST", base+c.path, strings.NewReader(c.body))
		req.Header.Set("content-type", "application/json")
		req.Header.Set("x-api-key", "sk-ant-api03-SCRIPTKEY0123456789")
		req.Header.Set("authorization", "Bearer sk-SCRIPTKEY0123456789")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			fmt.Fprintln(os.Stderr, "client:", err)
			return 3
		}
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "data:") {
				events++
			}
			if resp.StatusCode != 200 {
				fmt.Fprintln(os.Stderr, "client:", sc.Text())
			}
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			fmt.Fprintf(os.Stderr, "client: %s%s: status %d\n", base, c.path, resp.StatusCode)
			return 3
		}
	}
	fmt.Printf("client: %d events\n", events)
	if len(args) > 0 && args[0] == "fail" {
		return 5
	}
	return 0
}

// fakeUpstream answers Anthropic Messages and OpenAI chat completions with
// event streams whose usage depends on the request: input tokens are the
// body's length, so a measure of the recording can be checked against it.
func fakeUpstream() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("content-type", "text/event-stream")
		fl := w.(http.Flusher)
		switch r.URL.Path {
		case "/v1/messages":
			n := len(body)
			for _, ev := range []string{
				fmt.Sprintf(`event: message_start`+"\n"+`data: {"type":"message_start","message":{"id":"msg_1","model":"claude-sonnet-4-5","usage":{"input_tokens":%d,"cache_read_input_tokens":%d,"cache_creation_input_tokens":7,"output_tokens":1}}}`, n%100, n),
				`event: content_block_delta` + "\n" + `data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}`,
				`event: message_delta` + "\n" + `data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":11}}`,
				`event: message_stop` + "\n" + `data: {"type":"message_stop"}`,
			} {
				io.WriteString(w, ev+"\n\n")
				fl.Flush()
			}
		case "/v1/chat/completions":
			io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":"hi"}}],"usage":null}`+"\n\n")
			fl.Flush()
			fmt.Fprintf(w, `data: {"choices":[],"usage":{"prompt_tokens":%d,"prompt_tokens_details":{"cached_tokens":0},"completion_tokens":3}}`+"\n\ndata: [DONE]\n\n", len(body))
		default:
			http.Error(w, "not found", 404)
		}
	})
}

// TestRecordScripts runs testdata/record: skillopt record in front of a
// fake upstream on loopback, with the test binary as the host.
func TestRecordScripts(t *testing.T) {
	up := httptest.NewServer(fakeUpstream())
	// The scripts run in parallel, after this function returns.
	t.Cleanup(up.Close)
	client, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "record"),
		Setup: func(env *testscript.Env) error {
			env.Setenv("UPSTREAM", up.URL)
			env.Setenv("CLIENT", client)
			env.Setenv("NO_COLOR", "1")
			return nil
		},
		RequireExplicitExec: true,
	})
}
