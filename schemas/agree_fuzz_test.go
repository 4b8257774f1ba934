package schemas

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/skillopt/skillopt/capture"
)

// agreeProviders are the shapes both evaluators judge alike. Gemini is left
// out: its bodies are normalised before validation, which a plain validator
// does not do.
var agreeProviders = []string{"anthropic", "openai-chat", "openai-responses", "mistral", "pi-messages"}

// agreePalette holds the values a mutation puts in place of a node: the
// type confusions, empty values and integer edges (2^53+1, the 64-bit
// limits and one past them) that request bodies get wrong.
var agreePalette = []string{
	`0`, `-1`, `1`, `1.5`, `1.0`, `1e3`, `-0`,
	`9007199254740993`, `9223372036854775807`, `9223372036854775808`,
	`-9223372036854775808`, `-9223372036854775809`, `1e19`, `1e400`, `1e-400`,
	`""`, `" "`, `"x"`, `"text"`, `null`, `true`, `false`,
	`[]`, `{}`, `[1]`, `["x"]`, `{"type":"text","text":"x"}`,
}

// mutateBody applies edits to a JSON body, three bytes per edit: two pick a
// node and one the operation. Operations 0-3 of op%8 replace any node, 4
// and 5 a number (where the integer edges matter), with the palette value
// op/8 names; 6 replaces a node with a copy of another (named by two more
// bytes); 7 removes a node that is an object member or an array element.
// The body is re-indexed after every edit; an edit that would leave invalid
// JSON is skipped.
func mutateBody(body, edits []byte) []byte {
	for len(edits) >= 3 {
		d, err := capture.Parse(body)
		if err != nil || len(d.Nodes) == 0 {
			return body
		}
		pick, op := int(edits[0])<<8|int(edits[1]), int(edits[2])
		edits = edits[3:]
		node := capture.Node(pick % len(d.Nodes))
		if op%8 == 4 || op%8 == 5 {
			var numbers []capture.Node
			for i := range capture.Node(len(d.Nodes)) {
				if d.Nodes[i].Kind == capture.Number {
					numbers = append(numbers, i)
				}
			}
			if len(numbers) == 0 {
				continue
			}
			node = numbers[pick%len(numbers)]
		}
		n := d.Nodes[node]
		start, end := int(n.Start), int(n.End)
		var repl []byte
		switch op % 8 {
		case 6:
			if len(edits) < 2 {
				continue
			}
			src := d.Nodes[(int(edits[0])<<8|int(edits[1]))%len(d.Nodes)]
			repl = append([]byte(nil), d.Src[src.Start:src.End]...)
			edits = edits[2:]
		case 7:
			if node == 0 {
				continue
			}
			if d.IsMember(node) {
				start, _ = d.KeySpan(node)
			}
			start, end = widenToComma(body, start, end)
		default:
			repl = []byte(agreePalette[op/8%len(agreePalette)])
		}
		out := make([]byte, 0, len(body)-(end-start)+len(repl))
		out = append(append(append(out, body[:start]...), repl...), body[end:]...)
		if _, err := capture.Parse(out); err == nil {
			body = out
		}
	}
	return body
}

// widenToComma extends the span of a removed member or element over the
// comma that separates it from its neighbour.
func widenToComma(b []byte, start, end int) (int, int) {
	i := start - 1
	for i >= 0 && isSpace(b[i]) {
		i--
	}
	if i >= 0 && b[i] == ',' {
		return i, end
	}
	j := end
	for j < len(b) && isSpace(b[j]) {
		j++
	}
	if j < len(b) && b[j] == ',' {
		return start, j + 1
	}
	return start, end
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// referenceCanJudge reports whether the reference validator can be asked
// about the body at all; what it cannot be asked about is a difference of
// readers or of cost, not of schema semantics:
//   - invalid UTF-8 and escaped surrogates: encoding/json turns invalid
//     bytes and lone surrogates into U+FFFD before the reference sees the
//     string (pairs are left out with them, for simplicity);
//   - numbers longer than 400 characters or with an exponent beyond ±400,
//     which the reference turns into a big.Rat (seconds for a million
//     digits, a nil-pointer panic for 1e1000000000); ours compares them in
//     linear time (number_test.go).
func referenceCanJudge(d *capture.Doc) bool {
	if !utf8.Valid(d.Src) || hasSurrogateEscape(d.Src) {
		return false
	}
	for i := range capture.Node(len(d.Nodes)) {
		if d.Nodes[i].Kind != capture.Number {
			continue
		}
		raw := d.Raw(i)
		if len(raw) > 400 {
			return false
		}
		if e := bytes.IndexAny(raw, "eE"); e >= 0 {
			exp := bytes.TrimLeft(raw[e+1:], "+-0")
			if len(exp) > 3 || len(exp) == 3 && string(exp) > "400" {
				return false
			}
		}
	}
	return true
}

func hasSurrogateEscape(b []byte) bool {
	backslashes := 0
	for i, c := range b {
		if c != '\\' {
			backslashes = 0
			continue
		}
		backslashes++
		// An odd backslash starts an escape; an even one is escaped itself.
		if backslashes%2 == 1 && i+3 < len(b) && b[i+1] == 'u' && (b[i+2] == 'd' || b[i+2] == 'D') &&
			bytes.IndexByte([]byte("89abcdefABCDEF"), b[i+3]) >= 0 {
			return true
		}
	}
	return false
}

// agreeSeeds returns the real bodies the fuzzer starts from: every body of
// testdata and the applied mutations, and, when the shared corpus is there,
// its provider examples and Pi captures (read at run time, not copied).
func agreeSeeds(tb testing.TB) (provider []uint8, bodies [][]byte) {
	index := map[string]uint8{}
	for i, p := range agreeProviders {
		index[p] = uint8(i)
	}
	add := func(p string, b []byte) {
		if i, ok := index[p]; ok && len(b) <= 1<<14 {
			provider = append(provider, i)
			bodies = append(bodies, b)
		}
	}
	for _, m := range loadMutations(tb) {
		add(m.provider, m.body)
	}
	for _, pattern := range []string{"invalid", "valid", "compatible"} {
		files, _ := filepath.Glob(filepath.Join("testdata", pattern, "*", "*.json"))
		for _, f := range files {
			add(filepath.Base(filepath.Dir(f)), readFile(tb, f))
		}
	}
	if dir := filepath.Join("..", "..", "shared", "corpus"); isDir(dir) {
		for folder, p := range exampleProvider {
			files, _ := filepath.Glob(filepath.Join(dir, "provider-examples", folder, "*.json"))
			for _, f := range files {
				data := readFile(tb, f)
				if folder == "pi" {
					data = piBody(tb, filepath.Base(f), data)
				}
				add(p, data)
			}
		}
		files, _ := filepath.Glob(filepath.Join(dir, "captures", "pi-0.73.1", "*.json"))
		for _, f := range files {
			add(captureProvider(filepath.Base(f)), readFile(tb, f))
		}
	}
	return provider, bodies
}

// FuzzAgreesWithReference mutates real request bodies and requires our
// evaluator and santhosh-tekuri/jsonschema to agree on whether each one is
// valid.
func FuzzAgreesWithReference(f *testing.F) {
	providers, bodies := agreeSeeds(f)
	for i, b := range bodies {
		f.Add(providers[i], b, []byte{})
		// Every seed also starts with one edit of a node spread over the
		// body and one of its numbers to an integer edge (palette entries
		// 7 to 12).
		f.Add(providers[i], b, []byte{byte(i >> 8), byte(i * 7), byte(i % 256)})
		f.Add(providers[i], b, []byte{0, byte(i), byte(8*(7+i%6) + 4)})
	}
	reference := make([]*jsonschema.Schema, len(agreeProviders))
	for i, p := range agreeProviders {
		reference[i] = referenceSchema(f, p)
	}
	f.Fuzz(func(t *testing.T, which uint8, body, edits []byte) {
		if len(body) > 1<<16 || len(edits) > 30 {
			return
		}
		p := int(which) % len(agreeProviders)
		body = mutateBody(body, edits)
		d, err := capture.Parse(body)
		if err != nil || !referenceCanJudge(d) {
			return
		}
		var v any
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("the index accepts a body encoding/json rejects: %v", err)
		}
		refErr := reference[p].Validate(v)
		errs, err := ValidateDoc(agreeProviders[p], d)
		if err != nil {
			t.Fatal(err)
		}
		if (refErr == nil) != (len(errs) == 0) {
			t.Fatalf("%s: reference says %v, ours %v\nbody: %s", agreeProviders[p], refErr, errs, body)
		}
	})
}
