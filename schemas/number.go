package schemas

import (
	"bytes"
	"math/big"
)

// decimal is a JSON number as sign, significant digits and exponent:
// value = ±0.digits × 10^exp. Digits carry no leading or trailing zeros; an
// empty digit string is zero. Parsing and comparing are linear in the
// spelling's length whatever its exponent, so numbers such as
// 1e1000000000 or a million-digit integer cost no more than reading them.
type decimal struct {
	neg    bool
	digits []byte
	exp    int64
}

// expLimit saturates exponents; anything beyond is far outside every bound a
// schema can state and every range a provider accepts.
const expLimit = 1 << 40

// parseDecimal reads a number token that the index has already validated.
func parseDecimal(raw []byte) decimal {
	var d decimal
	i := 0
	if i < len(raw) && raw[i] == '-' {
		d.neg = true
		i++
	}
	start := i
	for i < len(raw) && raw[i] >= '0' && raw[i] <= '9' {
		i++
	}
	intPart := raw[start:i]
	var frac []byte
	if i < len(raw) && raw[i] == '.' {
		i++
		fs := i
		for i < len(raw) && raw[i] >= '0' && raw[i] <= '9' {
			i++
		}
		frac = raw[fs:i]
	}
	var e int64
	if i < len(raw) && (raw[i] == 'e' || raw[i] == 'E') {
		i++
		eneg := false
		if i < len(raw) && (raw[i] == '+' || raw[i] == '-') {
			eneg = raw[i] == '-'
			i++
		}
		for ; i < len(raw); i++ {
			if e < expLimit {
				e = e*10 + int64(raw[i]-'0')
			}
		}
		if eneg {
			e = -e
		}
	}
	// Significant digits: integer part then fraction, leading zeros
	// dropped (each shifting the exponent), trailing zeros dropped.
	all := intPart
	if len(frac) > 0 {
		all = make([]byte, 0, len(intPart)+len(frac))
		all = append(all, intPart...)
		all = append(all, frac...)
	}
	pointAt := int64(len(intPart))
	lead := 0
	for lead < len(all) && all[lead] == '0' {
		lead++
	}
	all = all[lead:]
	all = bytes.TrimRight(all, "0")
	if len(all) == 0 {
		return decimal{}
	}
	d.digits = all
	d.exp = clampExp(pointAt - int64(lead) + e)
	return d
}

func clampExp(e int64) int64 {
	return max(-expLimit, min(expLimit, e))
}

func (d decimal) isZero() bool { return len(d.digits) == 0 }

// isInteger reports a number without a fractional part (1.0 and 1e2 are
// integers, as JSON Schema says).
func (d decimal) isInteger() bool { return d.isZero() || d.exp >= int64(len(d.digits)) }

// cmp compares two decimals: -1, 0 or +1.
func (a decimal) cmp(b decimal) int {
	switch {
	case a.isZero() && b.isZero():
		return 0
	case a.isZero():
		if b.neg {
			return 1
		}
		return -1
	case b.isZero():
		if a.neg {
			return -1
		}
		return 1
	case a.neg != b.neg:
		if a.neg {
			return -1
		}
		return 1
	}
	m := a.cmpAbs(b)
	if a.neg {
		return -m
	}
	return m
}

func (a decimal) cmpAbs(b decimal) int {
	if a.exp != b.exp {
		if a.exp < b.exp {
			return -1
		}
		return 1
	}
	if c := bytes.Compare(a.digits, b.digits); c != 0 {
		// Digit strings without trailing zeros compare as fractions.
		return c
	}
	return 0
}

// ratDecimal converts a schema bound to a decimal. Bounds come from JSON
// numbers in the schema, so their expansion terminates; a bound that does
// not is rounded to 40 places.
func ratDecimal(r *big.Rat) decimal {
	if r.IsInt() {
		return parseDecimal([]byte(r.Num().String()))
	}
	return parseDecimal([]byte(r.FloatString(40)))
}

// rat returns the number as a big.Rat when it is small enough to convert in
// bounded time (used only for multipleOf).
func (d decimal) rat() (*big.Rat, bool) {
	if len(d.digits) > 400 || d.exp > 400 || d.exp < -400 {
		return nil, false
	}
	s := make([]byte, 0, len(d.digits)+24)
	if d.neg {
		s = append(s, '-')
	}
	s = append(s, "0."...)
	s = append(s, d.digits...)
	s = append(s, 'e')
	s = big.NewInt(d.exp).Append(s, 10)
	r, ok := new(big.Rat).SetString(string(s))
	return r, ok
}

// canonical is the number's spelling-independent form, for equality.
func (d decimal) canonical() string {
	if d.isZero() {
		return "0"
	}
	var b []byte
	if d.neg {
		b = append(b, '-')
	}
	b = append(b, "0."...)
	b = append(b, d.digits...)
	b = append(b, 'e')
	b = big.NewInt(d.exp).Append(b, 10)
	return string(b)
}
