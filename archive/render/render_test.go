package render

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/skillopt/skillopt/archive"
)

var when = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func TestList(t *testing.T) {
	entries := []archive.Entry{{Handle: "sko:ab", Bytes: 1234567, Modified: when}, {Handle: "sko:abcdef12", Bytes: 5, Modified: when}}
	var out bytes.Buffer
	ListText(&out, entries, Options{})
	want := "HANDLE            BYTES  STORED\n" +
		"sko:ab        1,234,567  2026-01-02 03:04:05Z\n" +
		"sko:abcdef12          5  2026-01-02 03:04:05Z\n" +
		"2 original(s), 1,234,572 bytes\n"
	if out.String() != want {
		t.Errorf("text\n%s\nwant\n%s", out.String(), want)
	}
	out.Reset()
	ListText(&out, entries, Options{Quiet: true})
	if want := "sko:ab        1,234,567  2026-01-02 03:04:05Z\nsko:abcdef12          5  2026-01-02 03:04:05Z\n"; out.String() != want {
		t.Errorf("quiet %q", out.String())
	}
	data, _ := json.Marshal(ListJSON([]archive.Entry{}))
	if string(data) != `{"entries":[]}` {
		t.Errorf("json %s", data)
	}
}

// TestVerify: damage and stale files are listed with paths and problems
// escaped, painted only with colour on, and counted unless quiet.
func TestVerify(t *testing.T) {
	v := Verify{Objects: 3, Damaged: []archive.Damage{{Handle: "sko:1", Problem: "hash \x1b[2J"}}, Stale: []archive.TempFile{{Path: "a/.tmp", Bytes: 2048, Modified: when}}}
	var out bytes.Buffer
	VerifyText(&out, v, Options{})
	want := "sko:1: damaged: hash \\x1b[2J\n" +
		"a/.tmp: stale temporary file: 2,048 bytes, last written 2026-01-02 03:04:05Z\n" +
		"3 original(s) verified, 1 damaged\n" +
		"1 stale temporary file(s); `skillopt archive gc` removes them\n"
	if out.String() != want {
		t.Errorf("text\n%s\nwant\n%s", out.String(), want)
	}
	out.Reset()
	VerifyText(&out, v, Options{Color: true, Quiet: true})
	if want := "sko:1: \x1b[31mdamaged\x1b[0m: hash \\x1b[2J\na/.tmp: \x1b[33mstale temporary file\x1b[0m: 2,048 bytes, last written 2026-01-02 03:04:05Z\n"; out.String() != want {
		t.Errorf("colour, quiet %q", out.String())
	}
}

func TestRemoved(t *testing.T) {
	var out bytes.Buffer
	RemovedText(&out, []archive.TempFile{{Path: "x\x07", Bytes: 1000}, {Path: "y", Bytes: 1}}, Options{})
	if want := "removed x\\x07 (1,000 bytes)\nremoved y (1 bytes)\n2 temporary file(s) removed, 1,001 bytes\n"; out.String() != want {
		t.Errorf("text %q", out.String())
	}
	data, _ := json.Marshal(RemovedJSON([]archive.TempFile{}))
	if string(data) != `{"removed":[]}` {
		t.Errorf("json %s", data)
	}
}
