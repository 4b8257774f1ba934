package bench

import (
	"runtime"
	"strings"
	"testing"
)

func TestWriteTable(t *testing.T) {
	var b strings.Builder
	rows := [][]string{
		{"file", "before", "reducer", "ms"},
		{"a-long-name.txt", "1,234", "go-test", "0.50"},
		{"b.txt", "5", "\x1b[31mnone\x1b[0m", "12.25"},
		{"µ.txt", "12", "x"},
	}
	if err := WriteTable(&b, rows, 2); err != nil {
		t.Fatal(err)
	}
	want := "" +
		"file             before  reducer     ms\n" +
		"a-long-name.txt   1,234  go-test   0.50\n" +
		"b.txt                 5  \x1b[31mnone\x1b[0m     12.25\n" +
		"µ.txt                12  x\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestPct(t *testing.T) {
	for _, tt := range []struct {
		part, whole int
		want        float64
	}{{1, 3, 33.3}, {2, 3, 66.7}, {0, 0, 0}, {5, 5, 100}, {1, 2000, 0.1}} {
		if got := Pct(tt.part, tt.whole); got != tt.want {
			t.Errorf("Pct(%d, %d) = %v, want %v", tt.part, tt.whole, got, tt.want)
		}
	}
}

func TestMedianMicros(t *testing.T) {
	calls, befores := 0, 0
	MedianMicros(7, func() { calls++ }, func() { befores++ })
	if calls != 7 || befores != 7 {
		t.Errorf("%d calls, %d befores, want 7 each", calls, befores)
	}
}

// TestPeakCoversAllocation: a peak read after touching 96 MiB is at least
// that much; after StartPeak frees it and resets the mark (where the
// platform can), the peak drops below it again.
func TestPeakCoversAllocation(t *testing.T) {
	reset := StartPeak()
	before := ReadPeak(reset)
	if before.Source == "" {
		t.Skip("no peak resident set size on this platform")
	}
	const size = 96 << 20
	buf := make([]byte, size)
	for i := 0; i < len(buf); i += 4096 {
		buf[i] = 1
	}
	after := ReadPeak(reset)
	runtime.KeepAlive(buf)
	if after.KiB < size/1024 {
		t.Fatalf("peak %d KiB after touching %d KiB (%s)", after.KiB, size/1024, after.Source)
	}
	buf = nil
	if !StartPeak() {
		t.Skipf("%s cannot be reset here", after.Source)
	}
	if again := ReadPeak(true); again.KiB >= after.KiB {
		t.Errorf("peak %d KiB after the reset, %d KiB before it", again.KiB, after.KiB)
	}
}
