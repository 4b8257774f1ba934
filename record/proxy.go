package record

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/measure/price"
)

// MaxRecordedBody bounds the request body kept for the capture file; a
// larger request is forwarded whole and counted, not recorded. Provider
// request limits are tens of megabytes.
const MaxRecordedBody = 64 << 20

// Options configure a Proxy.
type Options struct {
	// Upstreams the proxy forwards to; none: DefaultUpstreams.
	Upstreams []Upstream
	// Log receives one line per exchange; nil records nothing.
	Log *Log
	// Responses keeps the response's body or stream text in the record.
	Responses bool
	// Transport forwards requests; nil: a clone of http.DefaultTransport
	// that leaves compression to the client.
	Transport http.RoundTripper
	// Prices price the summary; nil: the built-in table.
	Prices *price.Table
}

// Proxy is the recording reverse proxy, an http.Handler.
type Proxy struct {
	ups    []Upstream
	log    *Log
	keep   bool
	rp     *httputil.ReverseProxy
	prices *price.Table
	// respKeep keeps the response headers that say what happened (retry
	// and rate-limit headers, request ids) besides the reader's names.
	respKeep *capture.Keep

	mu    sync.Mutex
	stats Stats
	wg    sync.WaitGroup // exchanges being recorded
}

// Stats are what the proxy forwarded and recorded, with the providers'
// own token counts summed.
type Stats struct {
	Requests int // forwarded (or refused at the upstream)
	Recorded int // lines written
	// NotRecorded: requests without a JSON object body (GET /v1/models)
	// or with one over MaxRecordedBody.
	NotRecorded                              int
	UpstreamError                            int // a status of 400 or more, or no answer
	Aborted                                  int // the client went away before the response ended
	WriteFailures                            int
	WriteErr                                 error // the first failure
	WithUsage                                int   // responses that reported usage
	Input, Cached, Written, Uncached, Output int
	Cost                                     float64
	Priced                                   int // requests whose model has a price
}

type ctxKey struct{}

// exchange is one request in flight.
type exchange struct {
	up     *Upstream
	target *url.URL
	start  time.Time
	first  time.Time
	status int
	header http.Header
	obs    *observer
	err    error
}

// New returns a proxy.
func New(opts Options) (*Proxy, error) {
	ups := opts.Upstreams
	if len(ups) == 0 {
		ups = DefaultUpstreams()
	}
	seen := map[string]bool{}
	for _, u := range ups {
		if seen[u.Name] {
			return nil, fmt.Errorf("upstream %s is given twice", u.Name)
		}
		seen[u.Name] = true
	}
	keep, err := capture.NewKeep([]string{"retry-after", "retry-after-ms", "request-id", "x-request-id", "anthropic-ratelimit-*", "x-ratelimit-*", "openai-processing-ms"})
	if err != nil {
		return nil, err
	}
	p := &Proxy{ups: ups, log: opts.Log, keep: opts.Responses, prices: opts.Prices, respKeep: keep}
	if p.prices == nil {
		p.prices = price.Builtin()
	}
	tr := opts.Transport
	if tr == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		// The client's Accept-Encoding goes through as sent, and so does
		// the encoded answer.
		t.DisableCompression = true
		// Request bodies are hundreds of kilobytes: larger buffers take
		// them in fewer system calls.
		t.WriteBufferSize, t.ReadBufferSize = 64<<10, 64<<10
		tr = t
	}
	p.rp = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			ex := pr.In.Context().Value(ctxKey{}).(*exchange)
			pr.Out.URL = ex.target
			pr.Out.Host = ex.target.Host
		},
		Transport:     tr,
		FlushInterval: -1,
		// No BufferPool: teeBody observes a chunk after it was forwarded,
		// the last one on Close, once the copy buffer is released.
		ModifyResponse: func(resp *http.Response) error {
			ex := resp.Request.Context().Value(ctxKey{}).(*exchange)
			ex.status, ex.header = resp.StatusCode, resp.Header.Clone()
			ex.obs = newObserver(resp.Header.Get("Content-Type"), resp.Header.Get("Content-Encoding"), p.keep)
			resp.Body = &teeBody{rc: resp.Body, ex: ex}
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			ex := r.Context().Value(ctxKey{}).(*exchange)
			ex.err = err
			if r.Context().Err() != nil {
				return // the client is gone: nobody to answer
			}
			if ex.status == 0 {
				ex.status = http.StatusBadGateway
				http.Error(w, fmt.Sprintf("skillopt record: upstream %s (%s): %v", ex.up.Name, ex.up.URL.Redacted(), err), http.StatusBadGateway)
			}
		},
		ErrorLog: log.New(io.Discard, "", 0),
	}
	return p, nil
}

// Server is the HTTP server that serves the proxy, as skillopt record
// runs it: a client has a minute to send a request's headers.
func (p *Proxy) Server() *http.Server {
	return &http.Server{Handler: p, ReadHeaderTimeout: time.Minute}
}

// Upstreams are the upstreams the proxy forwards to.
func (p *Proxy) Upstreams() []Upstream { return p.ups }

// Wait returns once every exchange that ended has been recorded: call
// it after the server stopped (http.Server.Shutdown), before Stats.
func (p *Proxy) Wait() { p.wg.Wait() }

// Stats returns the counts so far.
func (p *Proxy) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stats
}

// ServeHTTP forwards one request and records the exchange.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect || !strings.HasPrefix(r.RequestURI, "/") {
		http.Error(w, "skillopt record forwards only to its configured upstreams: send a path such as /anthropic/v1/messages, not an absolute URL or CONNECT", http.StatusMethodNotAllowed)
		return
	}
	up, path, ok := route(p.ups, r.URL.Path)
	if !ok {
		http.Error(w, noRoute(p.ups, r.URL.Path), http.StatusBadGateway)
		return
	}
	// The request body is still being forwarded when the response starts
	// (an upstream may answer before reading it all): without full duplex
	// the server would discard what the transport has not read yet.
	_ = http.NewResponseController(w).EnableFullDuplex()
	ex := &exchange{up: up, target: up.join(path, r.URL.RawQuery), start: time.Now()}
	body := &bodyTee{rc: r.Body, limit: MaxRecordedBody}
	if n := r.ContentLength; n > 0 && n <= MaxRecordedBody {
		body.buf = getBuf(int(n))
	}
	if r.Body != nil && r.Body != http.NoBody {
		r.Body = body
	}
	r = r.WithContext(context.WithValue(r.Context(), ctxKey{}, ex))
	// The reverse proxy ends a response it cannot finish (the client went
	// away, the upstream broke off) by panicking with
	// http.ErrAbortHandler: the exchange is recorded all the same.
	defer func() {
		v := recover()
		if r.Body == body && v == nil {
			// What the transport left of the body (the upstream answered
			// without it, or was never reached) is read here, and kept for
			// the record: in full duplex the server would otherwise read it
			// after the handler, racing its read of the next request.
			io.Copy(io.Discard, body)
		}
		// The record is written after the client has its answer's end
		// (a chunked response ends when the handler returns).
		aborted := r.Context().Err() != nil
		method, header := r.Method, r.Header.Clone()
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			p.finish(ex, method, header, body, aborted)
		}()
		if v != nil {
			panic(v)
		}
	}()
	p.rp.ServeHTTP(w, r)
}

// finish records the exchange and adds it to the stats.
func (p *Proxy) finish(ex *exchange, method string, header http.Header, body *bodyTee, aborted bool) {
	var usageJSON, text []byte
	var cut bool
	if ex.obs != nil {
		usageJSON, text, cut = ex.obs.finish()
	}
	var u *measure.Usage
	if usageJSON != nil {
		u = measure.ResponseUsage(append(append([]byte(`{"usage":`), usageJSON...), '}'))
	}
	// The buffers of the body and the line go back to the pool when the
	// exchange is counted (doc reads the body's); a read of the body
	// after this one keeps nothing.
	reqBody, over := body.take()
	defer putBuf(reqBody)
	recordable := !over && len(bytes.TrimSpace(reqBody)) > 0
	var doc *capture.Doc
	if recordable {
		var err error
		if doc, err = capture.Parse(reqBody); err != nil || doc.Kind(0) != capture.Object {
			recordable = false
		}
	}
	var line []byte
	if recordable {
		line = p.line(ex, method, header, capture.RedactDoc(doc), usageJSON, text, cut, aborted)
		defer putBuf(line)
	}
	var werr error
	if line != nil && p.log != nil {
		werr = p.log.write(line)
	}

	p.mu.Lock()
	defer p.mu.Unlock()
	s := &p.stats
	s.Requests++
	switch {
	case line == nil:
		s.NotRecorded++
	case p.log == nil:
	case werr != nil:
		s.WriteFailures++
		if s.WriteErr == nil {
			s.WriteErr = werr
		}
	default:
		s.Recorded++
	}
	if ex.status >= 400 || ex.status == 0 && ex.err != nil && !aborted {
		s.UpstreamError++
	}
	if aborted {
		s.Aborted++
	}
	if u != nil {
		s.WithUsage++
		s.Input += u.Input
		s.Cached += u.Cached
		s.Written += u.Written
		s.Uncached += u.Uncached
		s.Output += u.Output
		if pr := p.prices.Lookup(modelOf(doc, ex.target.Path)); pr != nil {
			s.Cost += pr.Cost(price.Tokens{Read: u.Cached, Write: u.Written, Uncached: u.Uncached, Output: u.Output})
			s.Priced++
		}
	}
}

// modelOf is the model a request names: its body's "model", else the
// Gemini path's models/NAME.
func modelOf(doc *capture.Doc, path string) string {
	if doc != nil {
		if m := doc.GetStr(0, "model"); m != "" {
			return m
		}
	}
	if _, after, ok := strings.Cut(path, "/models/"); ok {
		m, _, _ := strings.Cut(after, ":")
		return m
	}
	return ""
}

// line writes one exchange as a request record, ending in a line break:
// url, method, headers and the body as sent (credentials redacted by the
// capture reader's rules), and the response's status, headers, usage,
// timings and, with --responses, its text. The line is in a buffer of
// the pool.
func (p *Proxy) line(ex *exchange, method string, header http.Header, body, usageJSON, text []byte, cut, aborted bool) []byte {
	b := bytes.NewBuffer(getBuf(len(body) + len(text) + 4096))
	b.WriteString(`{"recorded_at":`)
	b.Write(capture.Quote(ex.start.UTC().Format(time.RFC3339Nano)))
	b.WriteString(`,"url":`)
	b.Write(capture.Quote(capture.RedactURL(ex.target.String(), nil)))
	b.WriteString(`,"method":`)
	b.Write(capture.Quote(method))
	b.WriteString(`,"headers":`)
	writeHeaders(b, header, nil)
	b.WriteString(`,"body":`)
	if bytes.IndexByte(body, '\n') >= 0 || bytes.IndexByte(body, '\r') >= 0 {
		// A body written over several lines is kept as a JSON string,
		// which keeps its bytes and the file one line per exchange.
		b.Write(capture.Quote(string(body)))
	} else {
		b.Write(body)
	}
	b.WriteString(`,"response":{"status":`)
	b.WriteString(strconv.Itoa(ex.status))
	if ex.header != nil {
		b.WriteString(`,"headers":`)
		writeHeaders(b, ex.header, p.respKeep)
	}
	if usageJSON != nil {
		b.WriteString(`,"usage":`)
		b.Write(usageJSON)
	}
	if !ex.first.IsZero() {
		fmt.Fprintf(b, `,"first_byte_ms":%.3f`, float64(ex.first.Sub(ex.start).Microseconds())/1000)
	}
	fmt.Fprintf(b, `,"duration_ms":%.3f`, float64(time.Since(ex.start).Microseconds())/1000)
	if ex.obs != nil {
		fmt.Fprintf(b, `,"bytes":%d`, ex.obs.n)
	}
	switch {
	case aborted:
		b.WriteString(`,"error":"the client closed the connection before the response ended"`)
	case ex.err != nil:
		b.WriteString(`,"error":`)
		b.Write(capture.Quote(capture.RedactURL(ex.err.Error(), nil)))
	}
	if text != nil {
		if d, err := capture.Parse(text); err == nil && !ex.obs.sse && !cut {
			b.WriteString(`,"body":`)
			b.Write(d.Src)
		} else {
			b.WriteString(`,"stream":`)
			b.Write(capture.Quote(string(text)))
		}
	}
	if cut {
		b.WriteString(`,"truncated":true`)
	}
	b.WriteString("}}\n")
	return b.Bytes()
}

// writeHeaders writes headers as a JSON object of lower-case names, each
// value redacted as the capture reader redacts it (keep nil: its names).
func writeHeaders(b *bytes.Buffer, h http.Header, keep *capture.Keep) {
	names := make([]string, 0, len(h))
	for n := range h {
		names = append(names, n)
	}
	sort.Strings(names)
	b.WriteByte('{')
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(capture.Quote(strings.ToLower(n)))
		b.WriteByte(':')
		b.Write(capture.Quote(capture.RedactHeader(n, strings.Join(h[n], ", "), keep)))
	}
	b.WriteByte('}')
}

// bodyTee keeps what the transport reads of a request body, up to limit.
// The transport reads it on a goroutine of its own, which may still be
// reading when the exchange is recorded (an aborted request): take ends
// the keeping.
type bodyTee struct {
	mu    sync.Mutex
	rc    io.ReadCloser
	buf   []byte
	limit int
	over  bool
	taken bool
}

func (t *bodyTee) Read(p []byte) (int, error) {
	n, err := t.rc.Read(p)
	t.mu.Lock()
	defer t.mu.Unlock()
	if n > 0 && !t.over && !t.taken {
		if len(t.buf)+n > t.limit {
			t.over, t.buf = true, nil
		} else {
			t.buf = append(t.buf, p[:n]...)
		}
	}
	return n, err
}

func (t *bodyTee) Close() error { return t.rc.Close() }

// take returns the body kept and whether it passed the limit; what is
// read after it is not kept.
func (t *bodyTee) take() ([]byte, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	buf := t.buf
	t.buf, t.taken = nil, true
	return buf, t.over
}

// Request bodies and record lines are hundreds of kilobytes each: their
// buffers are kept for the next exchange rather than left to the
// collector, which a run of large allocations would start while the
// next request is being forwarded. A buffer larger than maxPooled is
// not kept.
const maxPooled = 8 << 20

var bufPool sync.Pool // of *[]byte

// getBuf returns an empty buffer of capacity n or more.
func getBuf(n int) []byte {
	if v, ok := bufPool.Get().(*[]byte); ok && cap(*v) >= n {
		return (*v)[:0]
	}
	return make([]byte, 0, n)
}

// putBuf gives a buffer back to the pool; its bytes must no longer be in
// use.
func putBuf(b []byte) {
	if c := cap(b); c > 0 && c <= maxPooled {
		b = b[:0]
		bufPool.Put(&b)
	}
}

// teeBody shows the observer what the client is sent. A chunk is
// observed on the next Read, once the reverse proxy has written and
// flushed it: the client does not wait for the usage parser.
type teeBody struct {
	rc      io.ReadCloser
	ex      *exchange
	pending []byte
}

func (t *teeBody) observe() {
	if len(t.pending) > 0 {
		t.ex.obs.Write(t.pending)
		t.pending = nil
	}
}

func (t *teeBody) Read(p []byte) (int, error) {
	t.observe()
	n, err := t.rc.Read(p)
	if n > 0 {
		if t.ex.first.IsZero() {
			t.ex.first = time.Now()
		}
		t.pending = p[:n]
	}
	if err != nil && !errors.Is(err, io.EOF) && t.ex.err == nil {
		t.ex.err = err
	}
	return n, err
}

func (t *teeBody) Close() error {
	t.observe()
	return t.rc.Close()
}

// IsLoopback reports whether a listen address (host:port) names a loopback
// host only: localhost, 127.0.0.0/8 or ::1.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
