package record

import (
	"bytes"
	"testing"
)

// feed passes data to a new observer in pieces of size n.
func feed(data []byte, n int, sse bool) []byte {
	ct := "application/json"
	if sse {
		ct = "text/event-stream"
	}
	o := newObserver(ct, "", false)
	for len(data) > 0 {
		k := min(n, len(data))
		o.Write(data[:k])
		data = data[k:]
	}
	u, _, _ := o.finish()
	return u
}

func TestObserverUsage(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		sse        bool
		want       string
	}{
		{"anthropic stream", "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":3,\"cache_read_input_tokens\":9,\"output_tokens\":1}}}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":40}}\n\n", true,
			`{"input_tokens":3,"cache_read_input_tokens":9,"output_tokens":40}`},
		{"openai chat stream, CRLF, no final newline", "data: {\"choices\":[],\"usage\":null}\r\n\r\ndata: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2}}", true,
			`{"prompt_tokens":5,"completion_tokens":2}`},
		{"responses completed", "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"usage\":null}}\n\nevent: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"usage\":{\"input_tokens\":7,\"input_tokens_details\":{\"cached_tokens\":4},\"output_tokens\":1}}}\n\n", true,
			`{"input_tokens":7,"input_tokens_details":{"cached_tokens":4},"output_tokens":1}`},
		{"gemini array", `[{"usageMetadata":{"promptTokenCount":4}},{"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":6}}]`, false,
			`{"promptTokenCount":4,"candidatesTokenCount":6}`},
		{"json body", `{"id":"x","usage":{"prompt_tokens":1,"completion_tokens":1}}`, false, `{"prompt_tokens":1,"completion_tokens":1}`},
		{"no usage", "data: {\"x\":1}\n\n", true, ""},
		{"anthropic stream, lone CR line ends", "event: message_start\rdata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\r\revent: message_delta\rdata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":40}}\r\r", true,
			`{"input_tokens":3,"output_tokens":40}`},
		{"gemini stream, CR, LF and CRLF mixed", "data: {\"usageMetadata\":{\"promptTokenCount\":4}}\r\n\r\ndata: {\"usageMetadata\":{\"promptTokenCount\":4,\"candidatesTokenCount\":6}}\r\rdata: {\"candidates\":[]}\n", true,
			`{"promptTokenCount":4,"candidatesTokenCount":6}`},
	} {
		for _, n := range []int{1, 2, 3, 7, 1 << 20} {
			if got := string(feed([]byte(tc.data), n, tc.sse)); got != tc.want {
				t.Errorf("%s in pieces of %d: %s, want %s", tc.name, n, got, tc.want)
			}
		}
	}
}

// FuzzObserver: the usage read from a response does not depend on how it
// arrives in pieces, and is a JSON object when there is one.
func FuzzObserver(f *testing.F) {
	f.Add([]byte("event: message_start\ndata: {\"message\":{\"usage\":{\"input_tokens\":3}}}\n\ndata: {\"usage\":{\"output_tokens\":4}}\n\n"), uint8(3), true)
	f.Add([]byte(`[{"usageMetadata":{"promptTokenCount":4}}]`), uint8(1), false)
	f.Fuzz(func(t *testing.T, data []byte, n uint8, sse bool) {
		if len(data) > 1<<14 {
			return
		}
		whole := feed(data, len(data)+1, sse)
		if got := feed(data, int(n)+1, sse); !bytes.Equal(got, whole) {
			t.Fatalf("in pieces of %d: %s, whole: %s", int(n)+1, got, whole)
		}
		if whole != nil && (whole[0] != '{' || whole[len(whole)-1] != '}') {
			t.Fatalf("usage %s is not an object", whole)
		}
	})
}
