package units

import "testing"

func TestRound(t *testing.T) {
	cases := []struct {
		v    float64
		d    int
		want float64
	}{
		{65.149, 1, 65.1},
		{65.15, 1, 65.2}, // 65.15 is 65.1499… in binary: decimal halves go up
		{65.145, 2, 65.15},
		{0.865, 2, 0.87},
		{0.8649, 2, 0.86},
		{-2.25, 1, -2.3},
		{9.96, 1, 10},
		{99.999, 2, 100},
		{12, 1, 12},
		{0.04, 1, 0},
		{1e-7, 2, 0},
	}
	for _, c := range cases {
		if got := Round(c.v, c.d); got != c.want {
			t.Errorf("Round(%v, %d) = %v, want %v", c.v, c.d, got, c.want)
		}
	}
}

// The same share reads the same to one decimal whether it is written from
// the exact ratio or looked up in a report: the one-decimal text is never
// written from the two-decimal figure.
func TestPercent(t *testing.T) {
	cases := []struct {
		part, whole int
		pct         float64
		text, sign  string
	}{
		{651490, 1000000, 65.15, "65.1 %", "+65.1 %"},
		{-651490, 1000000, -65.15, "-65.1 %", "−65.1 %"},
		{1, 3, 33.33, "33.3 %", "+33.3 %"},
		{1, 8, 12.5, "12.5 %", "+12.5 %"},
		{1, 16, 6.25, "6.3 %", "+6.3 %"},
		{1, 10000, 0.01, "0.0 %", "±0.0 %"},
		{-1, 10000, -0.01, "0.0 %", "±0.0 %"},
		{5, 0, 0, "0.0 %", "±0.0 %"},
	}
	for _, c := range cases {
		if got := Percent(c.part, c.whole); got != c.pct {
			t.Errorf("Percent(%d, %d) = %v, want %v", c.part, c.whole, got, c.pct)
		}
		if got := PercentText(c.part, c.whole); got != c.text {
			t.Errorf("PercentText(%d, %d) = %q, want %q", c.part, c.whole, got, c.text)
		}
		if got := SignedPercentText(c.part, c.whole); got != c.sign {
			t.Errorf("SignedPercentText(%d, %d) = %q, want %q", c.part, c.whole, got, c.sign)
		}
	}
}

func TestFigures(t *testing.T) {
	cases := []struct{ got, want string }{
		{Size(0), "0 B"},
		{Size(1023), "1023 B"},
		{Size(1024), "1.0 KiB"},
		{Size(1536), "1.5 KiB"},
		{Size(-2048), "-2.0 KiB"},
		{Size(3 << 20), "3.0 MiB"},
		{Thousands(1234567), "1,234,567"},
		{Thousands(-1000), "-1,000"},
		{Thousands(12), "12"},
		{Thousands(0), "0"},
		{Thousands(999), "999"},
		{Thousands(1000), "1,000"},
		{Thousands(-1234), "-1,234"},
		{USD(12.345), "$12.35"},
		{USD(0.02165), "$0.0217"},
		{USD(0.00001), "<$0.0001"},
		{USD(-0.5), "-$0.5000"},
		{USD(-0.00001), ">-$0.0001"},
		{USD(0), "$0.0000"},
		{USD(0.02164), "$0.0216"},
		{USD(0.00002), "<$0.0001"},
		{USD(-0.0002), "-$0.0002"},
		{USD(-3), "-$3.00"},
		{Fixed(0.865, 2), "0.87"},
		{Fixed(-0.01, 1), "0.0"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
