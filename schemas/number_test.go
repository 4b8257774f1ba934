package schemas

import (
	"fmt"
	"math/big"
	"strings"
	"testing"
)

func TestDecimalCompare(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"0", "-0", 0},
		{"0.0", "0e5", 0},
		{"1", "1.0", 0},
		{"1e2", "100", 0},
		{"100", "1E+2", 0},
		{"0.5", "5e-1", 0},
		{"12", "123", -1},
		{"2", "123", -1},
		{"0.2", "0.123", 1},
		{"-1", "1", -1},
		{"-2", "-1", -1},
		{"-0.5", "0", -1},
		{"1e1000000000", "9223372036854775807", 1},
		{"-1e1000000000", "-9223372036854775807", -1},
		{"1e-1000000000", "0", 1},
		{"123456789012345678901234567890", "123456789012345678901234567891", -1},
		{"1.0000000000000000000001", "1", 1},
	}
	for _, c := range cases {
		got := parseDecimal([]byte(c.a)).cmp(parseDecimal([]byte(c.b)))
		if got != c.want {
			t.Errorf("cmp(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
		if back := parseDecimal([]byte(c.b)).cmp(parseDecimal([]byte(c.a))); back != -c.want {
			t.Errorf("cmp(%s, %s) = %d, want %d", c.b, c.a, back, -c.want)
		}
	}
}

// An integer is a number without a fractional part, whatever its size
// (draft 2020-12): the 64-bit range is the schemas' minimum and maximum.
func TestDecimalInteger(t *testing.T) {
	cases := []struct {
		num     string
		integer bool
	}{
		{"0", true},
		{"-0", true},
		{"1.0", true},
		{"1e2", true},
		{"1.5", false},
		{"1e-2", false},
		{"9223372036854775807", true},
		{"9223372036854775808", true},
		{"-9223372036854775809", true},
		{"1e1000000000", true},
		{"12345678901234567890123", true},
		{"12345678901234567890123.5", false},
	}
	for _, c := range cases {
		if got := parseDecimal([]byte(c.num)).isInteger(); got != c.integer {
			t.Errorf("%s: integer %v, want %v", c.num, got, c.integer)
		}
	}
}

func TestRatDecimal(t *testing.T) {
	for _, s := range []string{"0", "1", "-3", "0.5", "1024", "0.001", "2.75"} {
		r, _ := new(big.Rat).SetString(s)
		if ratDecimal(r).cmp(parseDecimal([]byte(s))) != 0 {
			t.Errorf("ratDecimal(%s) = %v", s, ratDecimal(r))
		}
	}
}

// Numbers of any size are ordinary values: no panic, a normal validation
// error, and work linear in their spelling.
func TestHugeNumbers(t *testing.T) {
	cases := []struct {
		num, want string
	}{
		{"1e1000000000", "max_tokens must be <= 9223372036854775807, got 1e1000000000"},
		{"-1e1000000000", "max_tokens must be >= 0, got -1e1000000000"},
		{"9223372036854775808", "max_tokens must be <= 9223372036854775807, got 9223372036854775808"},
		{"1e-1000000000", "max_tokens must be integer, got number 1e-1000000000"},
		{"0.5", "max_tokens must be integer, got number 0.5"},
		{"-1", "max_tokens must be >= 0, got -1"},
		{"1" + strings.Repeat("0", 2_000_000), "max_tokens must be <= 9223372036854775807, got 100000000000000000000000… (2000001 characters)"},
	}
	for _, c := range cases {
		body := `{"model":"claude-sonnet-4-5","max_tokens":` + c.num + `,"messages":[{"role":"user","content":"hi"}]}`
		errs, err := Validate("anthropic", []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		if len(errs) != 1 || errs[0].Pointer != "/max_tokens" || errs[0].Message != c.want {
			t.Errorf("%.40s: got %v, want [/max_tokens: %s]", c.num, errs, c.want)
		}
	}
	// Integers in any spelling up to the 64-bit limit pass.
	for _, num := range []string{"1.024e3", "9223372036854775807", "9.223372036854775807e18"} {
		body := `{"model":"claude-sonnet-4-5","max_tokens":` + num + `,"messages":[{"role":"user","content":"hi"}]}`
		if errs, err := Validate("anthropic", []byte(body)); err != nil || len(errs) != 0 {
			t.Errorf("%s: %v %v", num, errs, err)
		}
	}
}

// BenchmarkLongInteger shows that validation time grows linearly with the
// length of an integer's spelling.
func BenchmarkLongInteger(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000, 2_000_000} {
		body := []byte(`{"model":"m","max_tokens":1` + strings.Repeat("0", n) + `,"messages":[{"role":"user","content":"hi"}]}`)
		b.Run(fmt.Sprintf("%ddigits", n+1), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for range b.N {
				if _, err := Validate("anthropic", body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
