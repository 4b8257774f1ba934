package record

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/measure"
)

// testKey is the credential every test request carries; no recording may
// hold it.
const testKey = "sk-ant-api03-TESTKEYthatmustneverreachdisk0123456789"

var streamsDir = filepath.Join("..", "..", "shared", "corpus", "sessions", "streams")

// rig is a proxy in front of an upstream, every preset name routed to it.
type rig struct {
	t      *testing.T
	proxy  *Proxy
	url    string
	log    *Log
	dir    string
	client *http.Client
}

func newRig(t *testing.T, upstream http.Handler, opts Options) *rig {
	t.Helper()
	up := httptest.NewServer(upstream)
	var ups []Upstream
	for _, n := range []string{"anthropic", "openai", "gemini", "mistral"} {
		u, err := ParseUpstream(n + "=" + up.URL)
		if err != nil {
			t.Fatal(err)
		}
		ups = append(ups, u)
	}
	dir := t.TempDir()
	log, err := Create(dir, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	opts.Upstreams, opts.Log = ups, log
	p, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	r := &rig{t: t, proxy: p, url: srv.URL, log: log, dir: dir,
		client: &http.Client{Transport: &http.Transport{DisableCompression: true}}}
	t.Cleanup(func() {
		srv.Close()
		up.Close()
		log.Close()
		r.checkNoKey()
	})
	return r
}

func (r *rig) post(ctx context.Context, path, body string, hdr ...string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", r.url+path, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("content-type", "application/json")
	req.Header.Set("x-api-key", testKey)
	req.Header.Set("authorization", "Bearer "+testKey)
	req.Header.Set("cookie", "session="+testKey)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return r.client.Do(req)
}

// wait returns once n exchanges are done: the client may have read the
// whole response before the proxy's handler records it.
func (r *rig) wait(n int) {
	for i := 0; i < 2000 && r.proxy.Stats().Requests < n; i++ {
		time.Sleep(5 * time.Millisecond)
	}
}

// lines returns the recorded exchanges, read back by the capture reader.
func (r *rig) lines() []measure.Input {
	r.t.Helper()
	r.wait(1)
	f, err := capture.ReadFile(r.log.Path(), nil, capture.Options{})
	if err != nil {
		r.t.Fatalf("read recording: %v", err)
	}
	if len(f.Errs) > 0 {
		r.t.Fatalf("recording has bad lines: %v", f.Errs)
	}
	in, errs := measure.Inputs([]*capture.File{f})
	if len(errs) > 0 {
		r.t.Fatal(errs)
	}
	return in
}

// checkNoKey fails when any file the test wrote holds the test key.
func (r *rig) checkNoKey() {
	filepath.WalkDir(r.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := os.ReadFile(p)
		if bytes.Contains(data, []byte("TESTKEY")) {
			r.t.Errorf("%s holds the test key", p)
		}
		return nil
	})
}

// chunked writes data in pieces of awkward sizes, flushing each.
func chunked(w http.ResponseWriter, data []byte) {
	sizes := []int{1, 2, 3, 5, 7, 11, 13, 64, 1}
	for i := 0; len(data) > 0; i++ {
		n := min(sizes[i%len(sizes)], len(data))
		w.Write(data[:n])
		w.(http.Flusher).Flush()
		data = data[n:]
	}
}

func TestReplaysRealStreams(t *testing.T) {
	var files []string
	for _, pat := range []string{"*/extracted/*.sse", "*/extracted/*.json", "anthropic/*.sse"} {
		m, _ := filepath.Glob(filepath.Join(streamsDir, pat))
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Skip("no provider streams in ../shared/corpus/sessions/streams")
	}
	paths := map[string]string{
		"anthropic": "/anthropic/v1/messages", "openai-chat": "/openai/v1/chat/completions",
		"openai-responses": "/openai/v1/responses", "gemini": "/gemini/v1beta/models/gemini-2.5-flash:streamGenerateContent",
		"mistral": "/mistral/v1/chat/completions",
	}
	for _, file := range files {
		prov := filepath.Base(filepath.Dir(file))
		if prov == "extracted" {
			prov = filepath.Base(filepath.Dir(filepath.Dir(file)))
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(prov+"/"+filepath.Base(file), func(t *testing.T) {
			sse := strings.HasSuffix(file, ".sse")
			r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				if sse {
					w.Header().Set("content-type", "text/event-stream")
				} else {
					w.Header().Set("content-type", "application/json")
				}
				w.Header().Set("set-cookie", "__cf_bm="+testKey)
				chunked(w, data)
			}), Options{})
			resp, err := r.post(t.Context(), paths[prov]+"?key="+testKey, `{"model":"claude-sonnet-4-20250514","stream":true,"messages":[{"role":"user","content":"hi"}]}`)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !bytes.Equal(got, data) {
				t.Fatalf("the client got %d bytes, not the upstream's %d (%v)", len(got), len(data), err)
			}
			in := r.lines()
			if len(in) != 1 {
				t.Fatalf("%d exchanges recorded", len(in))
			}
			want := measure.ResponseUsage(data)
			u := in[0].Usage
			if want == nil {
				if u != nil {
					t.Fatalf("usage %+v recorded for a response without one", u)
				}
				return
			}
			if u == nil || u.Input != want.Input || u.Cached != want.Cached || u.Written != want.Written || u.Output != want.Output {
				t.Fatalf("recorded usage %+v, the stream says %+v", u, want)
			}
		})
	}
}

func TestStreamIsForwardedEventByEvent(t *testing.T) {
	sent, release := make(chan struct{}), make(chan struct{})
	r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("content-type", "text/event-stream")
		io.WriteString(w, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}\n\n")
		w.(http.Flusher).Flush()
		close(sent)
		// The rest waits until the client has seen the first event: a
		// proxy that buffered the response would wait forever.
		select {
		case <-release:
		case <-time.After(10 * time.Second):
			t.Error("the first event did not reach the client")
		}
		io.WriteString(w, "event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":42}}\n\n")
	}), Options{})
	resp, err := r.post(t.Context(), "/anthropic/v1/messages", `{"model":"claude-sonnet-4-5","messages":[]}`)
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(resp.Body)
	line, _ := br.ReadString('\n')
	<-sent
	if line != "event: message_start\n" {
		t.Fatalf("first line %q", line)
	}
	close(release)
	io.ReadAll(br)
	resp.Body.Close()
	in := r.lines()
	if u := in[0].Usage; u == nil || u.Input != 10 || u.Output != 42 {
		t.Fatalf("usage %+v", u)
	}
}

func TestUpstreamErrorsPassThrough(t *testing.T) {
	for _, tc := range []struct {
		status int
		header string
	}{{500, ""}, {429, "7"}} {
		t.Run(fmt.Sprint(tc.status), func(t *testing.T) {
			body := `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`
			r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				if tc.header != "" {
					w.Header().Set("retry-after", tc.header)
				}
				w.Header().Set("content-type", "application/json")
				w.WriteHeader(tc.status)
				io.WriteString(w, body)
			}), Options{})
			resp, err := r.post(t.Context(), "/anthropic/v1/messages", `{"model":"m","messages":[]}`)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status || string(got) != body || resp.Header.Get("retry-after") != tc.header {
				t.Fatalf("client got %d %q retry-after %q", resp.StatusCode, got, resp.Header.Get("retry-after"))
			}
			r.wait(1)
			data, _ := os.ReadFile(r.log.Path())
			if !bytes.Contains(data, []byte(fmt.Sprintf(`"status":%d`, tc.status))) || tc.header != "" && !bytes.Contains(data, []byte(`"retry-after":"7"`)) {
				t.Fatalf("recording: %s", data)
			}
			if s := r.proxy.Stats(); s.UpstreamError != 1 || s.Recorded != 1 {
				t.Fatalf("stats %+v", s)
			}
		})
	}
}

func TestClientAbortCancelsUpstream(t *testing.T) {
	cancelled := make(chan struct{})
	r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("content-type", "text/event-stream")
		io.WriteString(w, "data: {\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-req.Context().Done():
			close(cancelled)
		case <-time.After(10 * time.Second):
			t.Error("the upstream request was not cancelled")
		}
	}), Options{})
	ctx, cancel := context.WithCancel(t.Context())
	resp, err := r.post(ctx, "/anthropic/v1/messages", `{"model":"m","messages":[]}`)
	if err != nil {
		t.Fatal(err)
	}
	bufio.NewReader(resp.Body).ReadString('\n')
	cancel()
	resp.Body.Close()
	<-cancelled
	r.wait(1)
	s := r.proxy.Stats()
	if s.Aborted != 1 || s.Recorded != 1 {
		t.Fatalf("stats %+v", s)
	}
	data, _ := os.ReadFile(r.log.Path())
	if !bytes.Contains(data, []byte("client closed the connection")) {
		t.Fatalf("recording: %s", data)
	}
}

func TestConcurrentRequests(t *testing.T) {
	r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		w.Header().Set("content-type", "text/event-stream")
		fmt.Fprintf(w, "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":%d,\"completion_tokens\":1}}\n\ndata: [DONE]\n\n", len(b))
	}), Options{})
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := r.post(t.Context(), "/openai/v1/chat/completions", fmt.Sprintf(`{"model":"gpt-4o","stream":true,"messages":[{"role":"user","content":"%s"}]}`, strings.Repeat("x", i)))
			if err != nil {
				errs <- err
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	r.wait(50)
	in := r.lines()
	if len(in) != 50 {
		t.Fatalf("%d exchanges recorded, want 50", len(in))
	}
	seen := map[int]bool{}
	for _, x := range in {
		if x.Usage == nil || x.Usage.Input != len(x.Capture.Body) {
			t.Fatalf("%s: usage %+v for a body of %d bytes", x.Name, x.Usage, len(x.Capture.Body))
		}
		seen[x.Usage.Input] = true
	}
	if len(seen) != 50 {
		t.Fatalf("%d distinct exchanges", len(seen))
	}
}

func TestGzipResponse(t *testing.T) {
	body := []byte(`{"id":"msg","usage":{"input_tokens":12,"cache_read_input_tokens":30,"output_tokens":4}}`)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(body)
	zw.Close()
	r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Header.Get("accept-encoding") != "gzip" {
			t.Errorf("accept-encoding %q reached the upstream", req.Header.Get("accept-encoding"))
		}
		w.Header().Set("content-type", "application/json")
		w.Header().Set("content-encoding", "gzip")
		chunked(w, z.Bytes())
	}), Options{Responses: true})
	resp, err := r.post(t.Context(), "/anthropic/v1/messages", `{"model":"m","messages":[]}`, "accept-encoding", "gzip")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(got, z.Bytes()) {
		t.Fatal("the compressed body was changed on the way")
	}
	in := r.lines()
	if u := in[0].Usage; u == nil || u.Input != 42 || u.Cached != 30 || u.Output != 4 {
		t.Fatalf("usage %+v", u)
	}
	if !bytes.Contains(in[0].Capture.Response, []byte(`"body":{"id":"msg"`)) {
		t.Fatalf("--responses kept %s", in[0].Capture.Response)
	}
}

func TestLargeRequestBody(t *testing.T) {
	big := `{"model":"m","messages":[{"role":"user","content":"` + strings.Repeat("a", 20<<20) + `"}]}`
	want := sha256.Sum256([]byte(big))
	r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		h := sha256.New()
		io.Copy(h, req.Body)
		if [32]byte(h.Sum(nil)) != want {
			t.Error("the upstream got another body")
		}
		io.WriteString(w, `{"usage":{"input_tokens":1,"output_tokens":1}}`)
	}), Options{})
	resp, err := r.post(t.Context(), "/anthropic/v1/messages", big)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	in := r.lines()
	if len(in) != 1 || len(in[0].Capture.Body) != len(big) {
		t.Fatalf("recorded %d exchanges", len(in))
	}
}

func TestRefusals(t *testing.T) {
	r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		t.Error("a refused request reached the upstream")
	}), Options{})
	resp, err := r.post(t.Context(), "/v1/messages", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	msg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadGateway || !strings.Contains(string(msg), "/anthropic/v1/messages") {
		t.Fatalf("unknown path: %d %s", resp.StatusCode, msg)
	}
	// An absolute URI and CONNECT, as a client configured to use the
	// proxy as an HTTP proxy sends them.
	addr := strings.TrimPrefix(r.url, "http://")
	for _, req := range []string{
		"GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\n",
		"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
	} {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(c, req)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("%q: status %d", strings.Fields(req)[0], resp.StatusCode)
		}
	}
}

func TestParseUpstream(t *testing.T) {
	for _, tc := range []struct{ in, url, err string }{
		{in: "anthropic", url: "https://api.anthropic.com"},
		{in: "openai=http://127.0.0.1:9/", url: "http://127.0.0.1:9"},
		{in: "local=http://localhost:11434/v1", url: "http://localhost:11434/v1"},
		{in: "openai-compatible", err: "needs a URL"},
		{in: "nope", err: "is no preset"},
		{in: "Bad=http://x", err: "lower-case"},
		{in: "x=ftp://h", err: "not an http"},
		{in: "x=https://user:pw@h", err: "not an http"},
	} {
		u, err := ParseUpstream(tc.in)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.in, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.in, err)
		case u.URL.String() != tc.url:
			t.Errorf("%s: %s", tc.in, u.URL)
		}
	}
	if !IsLoopback("127.0.0.1:0") || !IsLoopback("[::1]:80") || !IsLoopback("localhost:1") || IsLoopback("0.0.0.0:80") || IsLoopback(":80") {
		t.Error("IsLoopback")
	}
}

func TestUnreachableUpstream(t *testing.T) {
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	u, _ := ParseUpstream("anthropic=" + gone.URL)
	log, err := Create(t.TempDir(), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	p, _ := New(Options{Upstreams: []Upstream{u}, Log: log})
	srv := httptest.NewServer(p)
	defer srv.Close()
	for range 3 {
		resp, err := http.Post(srv.URL+"/v1/messages", "application/json", strings.NewReader(`{"model":"m","messages":[]}`))
		if err != nil {
			t.Fatal(err)
		}
		msg, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadGateway || !strings.Contains(string(msg), "upstream anthropic") {
			t.Fatalf("%d %s", resp.StatusCode, msg)
		}
	}
	for i := 0; i < 2000 && p.Stats().Requests < 3; i++ {
		time.Sleep(5 * time.Millisecond)
	}
	if s := p.Stats(); s.UpstreamError != 3 || s.Recorded != 3 {
		t.Fatalf("stats %+v", s)
	}
}

// TestPooledBuffersKeepEachBody sends bodies of falling and rising sizes,
// with and without a length, one after the other: the buffers of one
// exchange are reused by the next, and every record must hold its own
// request's bytes and nothing of another's.
func TestPooledBuffersKeepEachBody(t *testing.T) {
	r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		io.Copy(io.Discard, req.Body)
		io.WriteString(w, `{"usage":{"input_tokens":1,"output_tokens":1}}`)
	}), Options{})
	type send struct {
		fill    string
		n       int
		chunked bool
	}
	sends := []send{{"a", 300 << 10, false}, {"b", 1 << 10, false}, {"c", 300 << 10, true}, {"d", 10, true}, {"e", 200 << 10, false}, {"f", 5, false}}
	var want []string
	for i, s := range sends {
		body := `{"model":"m","messages":[{"role":"user","content":"` + strings.Repeat(s.fill, s.n) + `"}]}`
		want = append(want, body)
		var rd io.Reader = strings.NewReader(body)
		if s.chunked {
			rd = io.MultiReader(rd) // no length: sent chunked
		}
		req, err := http.NewRequestWithContext(t.Context(), "POST", r.url+"/anthropic/v1/messages", rd)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("x-api-key", testKey)
		resp, err := r.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		r.wait(i + 1)
	}
	in := r.lines()
	if len(in) != len(want) {
		t.Fatalf("%d exchanges recorded, want %d", len(in), len(want))
	}
	for i, x := range in {
		if string(x.Capture.Body) != want[i] {
			t.Errorf("record %d: body of %d bytes is not the request's %d bytes", i+1, len(x.Capture.Body), len(want[i]))
		}
	}
}

// TestBodyTeeTakeEndsKeeping: once the body is taken for the record (and
// its buffer given back to the pool), a late read of the transport's
// keeps nothing and writes nothing into the buffer.
func TestBodyTeeTakeEndsKeeping(t *testing.T) {
	buf := make([]byte, 0, 8)
	bt := &bodyTee{rc: io.NopCloser(strings.NewReader("abcdefgh")), buf: buf, limit: 100}
	p := make([]byte, 4)
	if n, _ := bt.Read(p); n != 4 {
		t.Fatalf("read %d bytes", n)
	}
	got, over := bt.take()
	if string(got) != "abcd" || over {
		t.Fatalf("took %q, over %v", got, over)
	}
	if n, _ := bt.Read(p); n != 4 || string(p) != "efgh" {
		t.Fatalf("late read: %d bytes %q", n, p[:n])
	}
	if string(buf[:cap(buf)]) != "abcd\x00\x00\x00\x00" {
		t.Fatalf("the taken buffer was written to after take: %q", buf[:cap(buf)])
	}
	if again, _ := bt.take(); again != nil {
		t.Fatalf("a second take returned %q", again)
	}
}
