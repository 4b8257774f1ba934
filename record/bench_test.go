package record

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

// benchTargets are an upstream on loopback and the recording proxy in
// front of it: "direct" sends to the upstream, "proxy" through the proxy
// (the exchange written to a capture file).
func benchTargets(b *testing.B, h http.Handler) (map[string]string, *Proxy) {
	up := httptest.NewServer(h)
	b.Cleanup(up.Close)
	u, err := ParseUpstream("anthropic=" + up.URL)
	if err != nil {
		b.Fatal(err)
	}
	log, err := Create(b.TempDir(), time.Now())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { log.Close() })
	p, err := New(Options{Upstreams: []Upstream{u}, Log: log})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(p)
	b.Cleanup(srv.Close)
	return map[string]string{"direct": up.URL + "/v1/messages", "proxy": srv.URL + "/v1/messages"}, p
}

// p50 reports the median of the durations in milliseconds.
func p50(b *testing.B, ds []time.Duration, unit string) {
	if len(ds) == 0 {
		return
	}
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, unit)
}

// BenchmarkProxyRequest sends a 200 KB request whose answer is a small
// JSON body: the proxy's added latency is the difference of the two
// p50-ms. The proxy writes a record after the answer has ended; each
// request waits for the previous record (outside the timing), as a host
// waits seconds for a model between requests.
func BenchmarkProxyRequest(b *testing.B) {
	body := []byte(`{"model":"claude-sonnet-4-5","max_tokens":64,"messages":[{"role":"user","content":"` + strings.Repeat("x", 200<<10) + `"}]}`)
	targets, p := benchTargets(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("content-type", "application/json")
		io.WriteString(w, `{"id":"msg","usage":{"input_tokens":51234,"output_tokens":12}}`)
	}))
	for _, name := range []string{"direct", "proxy"} {
		b.Run(name, func(b *testing.B) {
			client := &http.Client{Transport: &http.Transport{}}
			ds := make([]time.Duration, 0, b.N)
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				start := time.Now()
				resp, err := client.Post(targets[name], "application/json", bytes.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				ds = append(ds, time.Since(start))
				b.StopTimer()
				p.Wait()
				b.StartTimer()
			}
			p50(b, ds, "p50-ms")
		})
	}
}

// BenchmarkProxyStream streams 2,000 events of about 1 KB: throughput in
// MB/s, and the time to the first event (p50, ms) direct and through the
// proxy.
func BenchmarkProxyStream(b *testing.B) {
	var stream bytes.Buffer
	stream.WriteString("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":10,\"cache_read_input_tokens\":5000,\"output_tokens\":1}}}\n\n")
	for i := range 2000 {
		fmt.Fprintf(&stream, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"%04d %s\"}}\n\n", i, strings.Repeat("y", 900))
	}
	stream.WriteString("event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":2000}}\n\n")
	data := stream.Bytes()
	first := bytes.Index(data, []byte("\n\n")) + 2
	targets, p := benchTargets(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("content-type", "text/event-stream")
		fl := w.(http.Flusher)
		w.Write(data[:first])
		fl.Flush()
		for rest := data[first:]; len(rest) > 0; {
			n := min(16<<10, len(rest))
			w.Write(rest[:n])
			fl.Flush()
			rest = rest[n:]
		}
	}))
	req := `{"model":"claude-sonnet-4-5","max_tokens":4096,"stream":true,"messages":[{"role":"user","content":"go"}]}`
	for _, name := range []string{"direct", "proxy"} {
		b.Run(name, func(b *testing.B) {
			client := &http.Client{Transport: &http.Transport{}}
			ttfe := make([]time.Duration, 0, b.N)
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				start := time.Now()
				resp, err := client.Post(targets[name], "application/json", strings.NewReader(req))
				if err != nil {
					b.Fatal(err)
				}
				br := bufio.NewReader(resp.Body)
				if _, err := br.ReadString('\n'); err != nil {
					b.Fatal(err)
				}
				ttfe = append(ttfe, time.Since(start))
				io.Copy(io.Discard, br)
				resp.Body.Close()
				b.StopTimer()
				p.Wait()
				b.StartTimer()
			}
			p50(b, ttfe, "ttfe-p50-ms")
		})
	}
}
