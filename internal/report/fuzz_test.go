package report

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// FuzzRead: reading arbitrary bytes never panics; a report that reads
// renders in every format, and its JSON reads back to the same JSON.
func FuzzRead(f *testing.F) {
	if golden, err := os.ReadFile("testdata/golden.json"); err == nil {
		f.Add(golden)
	}
	for _, s := range []string{
		`{"tool":"skillopt","version":"","command":"lint","inputs":[],"diagnostics":[],"summary":{"errors":0,"warnings":0,"info":0,"skills":0},"incomplete":false,"config":null}`,
		`{"tool":"skillopt","diagnostics":[{"rule":"R","severity":"info","capture":"c","pointer":"","line":1,"column":1,"message":"m"}]}`,
		`{"tool":"skillopt","diagnostics":[{"rule":"R","severity":"error","file":"f","line":3,"column":2,"column_utf16":4,"message":"%0A\n"}]}`,
		`{"tool":"skillopt","inputs":[{"name":"a#1","file":"a","valid":false}],"diagnostics":null}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		r, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, format := range Formats {
			if err := Write(io.Discard, r, format, Options{Root: "/repo"}); err != nil {
				t.Fatalf("%s: %v", format, err)
			}
		}
		var first bytes.Buffer
		if err := Write(&first, r, "json", Options{}); err != nil {
			t.Fatal(err)
		}
		again, err := Read(bytes.NewReader(first.Bytes()))
		if err != nil {
			t.Fatalf("own JSON does not read: %v\n%s", err, first.Bytes())
		}
		var second bytes.Buffer
		Write(&second, again, "json", Options{})
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatalf("JSON changed on reading:\n%s\n%s", first.Bytes(), second.Bytes())
		}
	})
}
