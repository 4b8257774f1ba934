package output

import (
	"strings"
	"testing"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/internal/reduce"
)

func TestReadSlice(t *testing.T) {
	line := strings.Repeat("é", 99) + "\n" // 100 characters, 199 bytes
	data := []byte(strings.Repeat(line, 400))
	cases := []struct {
		r    archive.Range
		want string // error substring; "" for a slice
	}{
		{archive.Range{From: 1, To: 320}, ""},
		{archive.Range{From: 1, To: 321}, "lines 1:321 are 32,100 characters, over the 32,000-character read limit; ask for lines 1:320, then go on from 321"},
		{archive.Range{From: 81}, ""}, // 320 lines, exactly the limit
		{archive.Range{From: 80}, "ask for lines 80:399, then go on from 400"},
	}
	for _, c := range cases {
		out, err := ReadSlice(data, c.r)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v: %v", c.r, err)
		case c.want == "" && len([]rune(string(out))) > MaxReadChars:
			t.Errorf("%v: %d characters", c.r, len([]rune(string(out))))
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v: error %v, want %q", c.r, err, c.want)
		}
	}
	long := []byte(strings.Repeat("x", MaxReadChars+1) + "\nend\n")
	if _, err := ReadSlice(long, archive.Range{From: 1}); err == nil || !strings.Contains(err.Error(), "line 1 alone is over it") {
		t.Errorf("one long line: %v", err)
	}
}

func TestMemoryLimits(t *testing.T) {
	m := memory{max: 2, maxBytes: 5000}
	if why := m.refuse(6000); !strings.Contains(why, "0 of max_bytes_per_run (5000)") {
		t.Errorf("too large: %q", why)
	}
	m.add(3000)
	if why := m.refuse(2000); why != "" {
		t.Errorf("fits: %q", why)
	}
	m.add(2000)
	if why := m.refuse(1); !strings.Contains(why, "max_entries (2)") {
		t.Errorf("full: %q", why)
	}
	text := reduce.OverflowText("codebase-retrieval", 39426, 25000, handleOf("x"), "x", 1, 1)
	if n, ok := reduce.OverflowBytes(text); !ok || n != 39426 {
		t.Errorf("OverflowBytes = %d, %v", n, ok)
	}
	if _, ok := reduce.OverflowBytes("the output of x was 12 bytes"); ok {
		t.Error("OverflowBytes read a text that is not a replacement")
	}
}
