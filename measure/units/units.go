// Package units writes the figures every report shows: byte sizes, counts,
// percentages, scores and amounts of money. Each kind of figure is rounded
// in one place, by Round, so that one number reads the same in every view
// (measure's report and its quiet total, diff --stat, a rule's own section).
//
// The package imports nothing of the project, so the rule families format
// their sections with it without depending on measure.
package units

import (
	"fmt"
	"strconv"
	"strings"
)

// Round rounds v to the given number of decimals, halves away from zero, as
// v reads in decimal: 65.15 becomes 65.2 and 0.865 becomes 0.87, although
// neither is exactly a binary float. Rounding an already rounded figure to
// fewer decimals rounds twice (65.149 → 65.15 → 65.2); round the exact
// value instead.
func Round(v float64, decimals int) float64 {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, _ := strings.Cut(s, ".")
	if len(frac) <= decimals {
		return v
	}
	digits := []byte(intPart + frac[:decimals])
	if frac[decimals] >= '5' {
		i := len(digits) - 1
		for ; i >= 0 && digits[i] == '9'; i-- {
			digits[i] = '0'
		}
		if i < 0 {
			digits = append([]byte{'1'}, digits...)
		} else {
			digits[i]++
		}
	}
	out := string(digits[:len(digits)-decimals])
	if decimals > 0 {
		out += "." + string(digits[len(digits)-decimals:])
	}
	r, _ := strconv.ParseFloat(out, 64)
	if neg {
		r = -r
	}
	return r
}

// Fixed writes v rounded to the given number of decimals: Fixed(0.865, 2)
// is "0.87".
func Fixed(v float64, decimals int) string {
	s := strconv.FormatFloat(Round(v, decimals), 'f', decimals, 64)
	if strings.TrimLeft(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-") // no "-0.0"
	}
	return s
}

// ratio is part of whole in percent, exact; 0 when whole is 0.
func ratio(part, whole int) float64 {
	if whole == 0 {
		return 0
	}
	return float64(part) * 100 / float64(whole)
}

// Percent is part of whole in percent to two decimals, the figure JSON
// reports carry (0 when whole is 0).
func Percent(part, whole int) float64 { return Round(ratio(part, whole), 2) }

// PercentText is part of whole in percent as text shows it, to one decimal:
// "65.1 %" ("0.0 %" when whole is 0).
func PercentText(part, whole int) string { return Fixed(ratio(part, whole), 1) + " %" }

// SignedPercentText is PercentText with its sign: "+4.0 %", "−65.1 %"
// (a minus sign, not a hyphen), and "±0.0 %" for what rounds to zero.
func SignedPercentText(part, whole int) string {
	s := Fixed(ratio(part, whole), 1)
	switch {
	case strings.TrimLeft(s, "0.") == "":
		return "±" + s + " %"
	case strings.HasPrefix(s, "-"):
		return "−" + s[1:] + " %"
	default:
		return "+" + s + " %"
	}
}

// Size writes a byte count in B, KiB or MiB, one decimal from a KiB up.
func Size(n int) string {
	switch {
	case n < 1024 && n > -1024:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20 && n > -(1<<20):
		return Fixed(float64(n)/1024, 1) + " KiB"
	default:
		return Fixed(float64(n)/(1<<20), 1) + " MiB"
	}
}

// Thousands writes an integer with comma grouping: "1,234,567".
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// USD writes an amount of US dollars: cents from a dollar up, four
// decimals below ("$0.0216"), and "<$0.0001" for less; a negative amount
// (a rule that costs) carries its sign before the dollar sign.
func USD(v float64) string {
	if v < 0 {
		if v > -0.0001 {
			return ">-$0.0001"
		}
		return "-" + USD(-v)
	}
	switch {
	case v >= 1:
		return "$" + Fixed(v, 2)
	case v != 0 && v < 0.0001:
		return "<$0.0001"
	}
	return "$" + Fixed(v, 4)
}
