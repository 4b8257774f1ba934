package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Error bodies as the providers document them (written for these tests).
var providerErrors = []struct {
	name, body string
	retry      bool
}{
	{"anthropic rate limit", `{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed your rate limit."}}`, true},
	{"anthropic overloaded", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, true},
	{"anthropic bad key", `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`, false},
	{"openai rate limit", `{"error":{"message":"Rate limit reached for requests","type":"requests","param":null,"code":"rate_limit_exceeded"}}`, true},
	{"openai quota", `{"error":{"message":"You exceeded your current quota.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`, false},
	{"openai server", `{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}`, true},
	{"gemini exhausted", `{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}`, true},
	{"gemini bad model", `{"error":{"code":404,"message":"models/gemini-9 is not found","status":"NOT_FOUND"}}`, false},
	{"mistral", `{"object":"error","message":"Requests rate limit exceeded","type":"rate_limited","param":null,"code":"1300"}`, true},
	{"status envelope", `{"status":503,"body":"upstream connect error"}`, true},
	{"gateway page", "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>", true},
	{"status line", "HTTP/1.1 401 Unauthorized\n", false},
}

func TestParseProviderError(t *testing.T) {
	for _, tc := range providerErrors {
		e, ok := ParseProviderError([]byte(tc.body))
		if !ok || e.Retry != tc.retry {
			t.Errorf("%s: %+v %v, want retry %v", tc.name, e, ok, tc.retry)
		}
	}
	// Answers, good or bad, are not provider errors.
	for _, body := range []string{`{"cards":[]}`, `{"content":[{"type":"text","text":"{\"error\":1}"}]}`,
		`{"choices":[{"message":{"content":"nope"}}]}`, "not json at all", `{"error_rate":0.1}`, `[]`} {
		if e, ok := ParseProviderError([]byte(body)); ok {
			t.Errorf("%s: read as a provider error %+v", body, e)
		}
	}
}

// writeAnswer puts body in the answer file of group id.
func writeAnswer(t *testing.T, in *Initializer, id, body string) {
	t.Helper()
	os.MkdirAll(filepath.Join(in.Dir, "responses"), 0o755)
	path, _ := in.ResponsePath(id)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAbsorbProviderErrors: a rate limit neither uses an attempt nor
// splits the group; its request is sent again unchanged, and the answer is
// kept aside. Too many of them, or one terminal error, stop the run.
func TestAbsorbProviderErrors(t *testing.T) {
	dir := t.TempDir()
	skills, _ := synthetic(25)
	in := &Initializer{Dir: filepath.Join(dir, "init"), Profile: filepath.Join(dir, "cards.json"), Snap: NewSnapshot(skills, Options{})}
	prof := NewProfile()
	st, err := in.Plan(prof)
	if err != nil {
		t.Fatal(err)
	}
	req1, _ := in.ReadRequest("g0001")
	rateLimit := providerErrors[0].body
	for i := 1; i <= MaxProviderRetries; i++ {
		writeAnswer(t, in, "g0001", rateLimit)
		acc, rej, err := in.Absorb(st, prof)
		if err != nil || acc != 0 || rej != 0 {
			t.Fatalf("rate limit %d: accepted %d rejected %d: %v", i, acc, rej, err)
		}
		g := st.Groups[0]
		if g.Status != "pending" || g.Attempt != 1 || g.Feedback != "" || g.ProviderErrors != i || len(st.Groups) != 2 {
			t.Fatalf("rate limit %d: group %+v, %d groups", i, g, len(st.Groups))
		}
		if req, _ := in.ReadRequest("g0001"); string(req) != string(req1) {
			t.Fatalf("rate limit %d changed the request", i)
		}
		if _, err := os.Stat(filepath.Join(in.Dir, "responses", "g0001.error-"+string(rune('0'+i))+".json")); err != nil {
			t.Fatalf("answer not set aside: %v", err)
		}
	}
	// One more: the run stops, the state is saved, the group still waits.
	writeAnswer(t, in, "g0001", rateLimit)
	_, _, err = in.Absorb(st, prof)
	var stop *StopError
	if !errors.As(err, &stop) || !stop.Err.Retry || !strings.Contains(err.Error(), "g0001.error-3.json: group g0001: the provider answered with an error (rate_limit_error)") {
		t.Fatalf("no stop after %d retries: %v", MaxProviderRetries, err)
	}
	if saved, _ := in.load(); saved.Groups[0].Status != "pending" || saved.Groups[0].ProviderErrors != 3 {
		t.Fatalf("saved state %+v", saved.Groups[0])
	}
	// A real answer afterwards is absorbed as usual.
	answer(t, in, "g0001", "", nil)
	if acc, _, err := in.Absorb(st, prof); err != nil || acc != 1 {
		t.Fatalf("after the errors: accepted %d: %v", acc, err)
	}
	// A terminal error stops at once.
	writeAnswer(t, in, "g0002", providerErrors[2].body)
	_, _, err = in.Absorb(st, prof)
	if !errors.As(err, &stop) || stop.Err.Retry || !strings.Contains(err.Error(), "authentication_error") || st.Groups[1].Status != "pending" {
		t.Fatalf("terminal error: %v, group %+v", err, st.Groups[1])
	}
}
