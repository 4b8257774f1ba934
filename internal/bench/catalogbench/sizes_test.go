package catalogbench

import (
	"fmt"
	"testing"
)

func TestParseSizes(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"355,2000, 10000", "[355 2000 10000]"},
		{"1", "[1]"},
		{"0", `bad size "0"`},
		{"12,x", `bad size "x"`},
		{"1000001", `bad size "1000001"`},
		{"", `bad size ""`},
	} {
		got, err := ParseSizes(tc.in)
		s := fmt.Sprint(got)
		if err != nil {
			s = err.Error()
		}
		if s != tc.want {
			t.Errorf("ParseSizes(%q) = %s, want %s", tc.in, s, tc.want)
		}
	}
}
