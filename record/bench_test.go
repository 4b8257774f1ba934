package record

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"strings"
	"testing"
	"time"
)

// The benchmarks run the upstream and the proxy each in a process of
// its own (this test binary started again with benchRole set), as a
// user's run has them: the proxy is the skillopt record process, the
// host another process and the provider another machine. In one process
// the three would share one Go scheduler, and the upstream's burst of
// events would hold the proxy's and the client's goroutines off the two
// processors in a way no real run does.
const (
	benchRole = "SKILLOPT_RECORD_BENCH_ROLE"
	// benchProfile names a folder: the proxy process writes cpu.out,
	// block.out, mutex.out and trace.out into it.
	benchProfile = "SKILLOPT_RECORD_BENCH_PROFILE"
)

func TestMain(m *testing.M) {
	switch os.Getenv(benchRole) {
	case "upstream":
		benchChild(benchUpstream())
	case "proxy":
		benchChild(benchProxy())
	}
	os.Exit(m.Run())
}

// benchChild prints the addresses it serves at and exits when its
// standard input closes.
func benchChild(addrs []string, stop func()) {
	fmt.Println(strings.Join(addrs, " "))
	io.Copy(io.Discard, os.Stdin)
	stop()
	os.Exit(0)
}

func listen() net.Listener {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	return ln
}

// benchStream is the upstream's event stream: a message_start, 2,000
// deltas of about 1 KB and a message_delta, 1.8 MB, and the length of
// its first event.
func benchStream() ([]byte, int) {
	var stream bytes.Buffer
	stream.WriteString("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":10,\"cache_read_input_tokens\":5000,\"output_tokens\":1}}}\n\n")
	for i := range 2000 {
		fmt.Fprintf(&stream, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"%04d %s\"}}\n\n", i, strings.Repeat("y", 900))
	}
	stream.WriteString("event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":2000}}\n\n")
	data := stream.Bytes()
	return data, bytes.Index(data, []byte("\n\n")) + 2
}

// benchUpstream serves /json (a small JSON answer) and /stream (the event
// stream: its first event, then the rest as fast as the client takes it,
// in flushed pieces of 16 KB). /stream?gap=D waits D after the first
// event, as a provider does between the events of a model's answer.
func benchUpstream() ([]string, func()) {
	data, first := benchStream()
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/json", func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("content-type", "application/json")
		w.Header().Set("request-id", "req_0123456789")
		io.WriteString(w, `{"id":"msg","usage":{"input_tokens":51234,"output_tokens":12}}`)
	})
	mux.HandleFunc("/v1/stream", func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("content-type", "text/event-stream")
		fl := w.(http.Flusher)
		w.Write(data[:first])
		fl.Flush()
		if gap, err := time.ParseDuration(r.URL.Query().Get("gap")); err == nil {
			time.Sleep(gap)
		}
		for rest := data[first:]; len(rest) > 0; {
			n := min(16<<10, len(rest))
			w.Write(rest[:n])
			fl.Flush()
			rest = rest[n:]
		}
	})
	ln := listen()
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	return []string{"http://" + ln.Addr().String()}, func() { srv.Close() }
}

// benchProxy runs the proxy as skillopt record does (its server, a
// capture file in a new folder, no --responses) in front of the upstream
// at $SKILLOPT_RECORD_BENCH_UPSTREAM, and a second listener whose /wait
// returns once every exchange that ended is recorded, with the processor
// time the process has used (ns).
func benchProxy() ([]string, func()) {
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	u, err := ParseUpstream("anthropic=" + os.Getenv("SKILLOPT_RECORD_BENCH_UPSTREAM"))
	if err != nil {
		fail(err)
	}
	dir, err := os.MkdirTemp("", "record-bench-")
	if err != nil {
		fail(err)
	}
	log, err := Create(dir, time.Now())
	if err != nil {
		fail(err)
	}
	p, err := New(Options{Upstreams: []Upstream{u}, Log: log})
	if err != nil {
		fail(err)
	}
	stopProfiles := benchProfiles(fail)
	ln := listen()
	srv := p.Server()
	go srv.Serve(ln)
	ctl := listen()
	go http.Serve(ctl, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.Wait()
		fmt.Fprintln(w, cpuTime().Nanoseconds())
	}))
	return []string{"http://" + ln.Addr().String(), "http://" + ctl.Addr().String()}, func() {
		srv.Close()
		p.Wait()
		stopProfiles()
		log.Close()
		os.RemoveAll(dir)
	}
}

// benchProfiles starts the profiles $SKILLOPT_RECORD_BENCH_PROFILE asks
// for and returns what writes them.
func benchProfiles(fail func(error)) func() {
	dir := os.Getenv(benchProfile)
	if dir == "" {
		return func() {}
	}
	create := func(name string) *os.File {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			fail(err)
		}
		return f
	}
	cpu, tr := create("cpu.out"), create("trace.out")
	if err := pprof.StartCPUProfile(cpu); err != nil {
		fail(err)
	}
	if err := trace.Start(tr); err != nil {
		fail(err)
	}
	runtime.SetBlockProfileRate(1)
	runtime.SetMutexProfileFraction(1)
	return func() {
		trace.Stop()
		pprof.StopCPUProfile()
		for _, name := range []string{"block", "mutex"} {
			f := create(name + ".out")
			pprof.Lookup(name).WriteTo(f, 0)
			f.Close()
		}
		cpu.Close()
		tr.Close()
	}
}

// child is a process the benchmark started.
type child struct {
	addrs []string
	stdin io.WriteCloser
	cmd   *exec.Cmd
}

func startChild(b *testing.B, role string, env ...string) *child {
	b.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(append(os.Environ(), benchRole+"="+role), env...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	c := &child{stdin: stdin, cmd: cmd}
	b.Cleanup(func() {
		c.stdin.Close()
		c.cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatalf("%s process: %v", role, err)
	}
	c.addrs = strings.Fields(line)
	return c
}

// benchRig is an upstream process and a proxy process in front of it.
type benchRig struct {
	upstream, proxy, wait string
	direct, proxied       *http.Client
}

func newBenchRig(b *testing.B) *benchRig {
	up := startChild(b, "upstream")
	px := startChild(b, "proxy", "SKILLOPT_RECORD_BENCH_UPSTREAM="+up.addrs[0])
	// One client (and so one kept-alive connection) for each path, as a
	// host has.
	return &benchRig{upstream: up.addrs[0], proxy: px.addrs[0], wait: px.addrs[1],
		direct: &http.Client{Transport: &http.Transport{}}, proxied: &http.Client{Transport: &http.Transport{}}}
}

// settle returns once the proxy has recorded every exchange that ended
// (a host waits seconds for the model between two requests, and the
// proxy writes the record meanwhile), with the processor time the proxy
// process has used.
func (r *benchRig) settle(b *testing.B) time.Duration {
	resp, err := http.Get(r.wait)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var ns int64
	if _, err := fmt.Fscan(resp.Body, &ns); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ns)
}

// interleaved runs one direct and one proxied request each iteration,
// which goes first alternating, so that the machine's load falls on both
// alike; the timer runs during the requests only, and each request
// starts once the proxy has recorded the one before. It reports the p50 of
// each in milliseconds, the proxy's added latency (the difference), and
// the processor time the proxy process spends on a request, its record
// included (proxy-cpu-ms, less noisy on a busy machine than latency).
func (r *benchRig) interleaved(b *testing.B, unit string, send func(*http.Client, string) time.Duration) {
	var direct, proxied []time.Duration
	cpu0 := r.settle(b)
	cpu := cpu0
	for i := 0; b.Loop(); i++ {
		for j := range 2 {
			if (i+j)%2 == 0 {
				direct = append(direct, send(r.direct, r.upstream))
			} else {
				proxied = append(proxied, send(r.proxied, r.proxy))
			}
			// The record of a proxied request is written before the next
			// request of either kind starts.
			b.StopTimer()
			cpu = r.settle(b)
			b.StartTimer()
		}
	}
	d, p := median(direct), median(proxied)
	if len(proxied) > 0 {
		b.ReportMetric(float64((cpu-cpu0).Nanoseconds())/1e6/float64(len(proxied)), "proxy-cpu-ms")
	}
	b.ReportMetric(d, "direct-"+unit)
	b.ReportMetric(p, "proxy-"+unit)
	b.ReportMetric(p-d, "added-"+unit)
}

// median is the p50 of the durations in milliseconds.
func median(ds []time.Duration) float64 {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return float64(ds[len(ds)/2].Nanoseconds()) / 1e6
}

// benchHeaders are the headers of a host's request, credentials included,
// which the proxy redacts before the record is written.
func benchHeaders(req *http.Request) {
	req.Header.Set("content-type", "application/json")
	req.Header.Set("x-api-key", "sk-ant-api03-"+strings.Repeat("k", 80))
	req.Header.Set("anthropic-version", "2023-06-01")
	req.Header.Set("anthropic-beta", "prompt-caching-2024-07-31")
	req.Header.Set("user-agent", "claude-cli/2.0.0 (external, cli)")
}

// BenchmarkProxyRequest sends a 200 KB request whose answer is a small
// JSON body, direct and through the proxy: p50 of the time from the
// request's start to the answer's end.
func BenchmarkProxyRequest(b *testing.B) {
	body := []byte(`{"model":"claude-sonnet-4-5","max_tokens":64,"messages":[{"role":"user","content":"` + strings.Repeat("x", 200<<10) + `"}]}`)
	r := newBenchRig(b)
	b.SetBytes(2 * int64(len(body)))
	r.interleaved(b, "p50-ms", func(c *http.Client, base string) time.Duration {
		start := time.Now()
		req, err := http.NewRequest("POST", base+"/v1/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		benchHeaders(req)
		resp, err := c.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return time.Since(start)
	})
}

// streamRequest sends a streamed request to url and reads the answer to
// its end; it returns the time to the end of the first event and to the
// end of the stream.
func streamRequest(b *testing.B, c *http.Client, url string) (ttfe, total time.Duration) {
	const req = `{"model":"claude-sonnet-4-5","max_tokens":4096,"stream":true,"messages":[{"role":"user","content":"go"}]}`
	start := time.Now()
	hreq, err := http.NewRequest("POST", url, strings.NewReader(req))
	if err != nil {
		b.Fatal(err)
	}
	benchHeaders(hreq)
	resp, err := c.Do(hreq)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			b.Fatal(err)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			break // the blank line that ends the first event
		}
	}
	ttfe = time.Since(start)
	if n, _ := io.Copy(io.Discard, br); n == 0 {
		b.Fatal("the stream ended after its first event")
	}
	return ttfe, time.Since(start)
}

// BenchmarkProxyStream streams 2,000 events of about 1 KB, the first
// 5 ms before the others, direct and through the proxy: p50 of the time
// from the request's start to the end of the first event. Without the
// gap, the time to the first event would time how two processors share
// out three processes that copy a 1.8 MB burst at loopback speed (a
// plain httputil.ReverseProxy in front of the upstream adds over a
// millisecond to it then, about what this one adds), and no provider
// sends a burst right behind its first event: the next event follows
// once the model has produced it.
func BenchmarkProxyStream(b *testing.B) {
	r := newBenchRig(b)
	r.interleaved(b, "ttfe-p50-ms", func(c *http.Client, base string) time.Duration {
		ttfe, _ := streamRequest(b, c, base+"/v1/stream?gap=5ms")
		return ttfe
	})
}

// BenchmarkProxyStreamBurst streams the same events without a gap, as
// fast as the client reads them: MB/s is the throughput of the direct
// and the proxied stream together, and p50-ms the time to the stream's
// end.
func BenchmarkProxyStreamBurst(b *testing.B) {
	data, _ := benchStream()
	r := newBenchRig(b)
	b.SetBytes(2 * int64(len(data)))
	r.interleaved(b, "p50-ms", func(c *http.Client, base string) time.Duration {
		_, total := streamRequest(b, c, base+"/v1/stream")
		return total
	})
}
