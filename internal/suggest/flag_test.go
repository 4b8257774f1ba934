package suggest

import (
	"strings"
	"testing"
)

func TestFlagError(t *testing.T) {
	flags := []string{"select", "quiet", "q"}
	for _, tc := range []struct {
		msg  string
		args []string
		want string
	}{
		{"flag provided but not defined: -selcet", []string{"skillopt", "lint", "--selcet", "x"}, "flag provided but not defined: --selcet (did you mean --select?)"},
		{"flag provided but not defined: -selcet", []string{"skillopt", "lint", "-selcet"}, "flag provided but not defined: -selcet (did you mean --select?)"},
		{"flag provided but not defined: -zzzzzz", []string{"skillopt", "lint", "--zzzzzz=1"}, "flag provided but not defined: --zzzzzz"},
		{"flag needs an argument: -select", []string{"skillopt", "lint", "--select"}, "flag needs an argument: --select"},
		{`invalid value "x" for flag -replay: parse error`, []string{"skillopt", "measure", "--replay", "x"}, `invalid value "x" for flag --replay: parse error`},
		{"flag provided but not defined: -x", nil, "flag provided but not defined: -x"},
		{"something else", nil, "something else"},
	} {
		if got := FlagError(tc.msg, tc.args, flags); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.msg, got, tc.want)
		}
	}
}

// FuzzFlagError: any parser message and command line rewrite without a
// panic, keeping the message's flag name.
func FuzzFlagError(f *testing.F) {
	f.Add("flag provided but not defined: -selcet", "--selcet")
	f.Add(`invalid value "a\"b" for flag -replay: x`, "-replay=a")
	f.Add("flag needs an argument: -f", "-f")
	flags := []string{"select", "f"}
	f.Fuzz(func(t *testing.T, msg, arg string) {
		got := FlagError(msg, []string{"skillopt", arg}, flags)
		if m := flagErr().FindStringSubmatch(msg); m != nil && !strings.Contains(got, m[2]) {
			t.Fatalf("%q became %q, losing the flag %q", msg, got, m[2])
		}
		_ = Typo(msg, []string{arg, "measure"})
	})
}
