package capture

import (
	"math/rand/v2"
	"testing"
)

// loneSurrogateRef is LoneSurrogate byte by byte, the reference its
// search for escapes must agree with.
func loneSurrogateRef(tok []byte) int {
	for i := 0; i+1 < len(tok); i++ {
		if tok[i] != '\\' {
			continue
		}
		if tok[i+1] != 'u' || i+6 > len(tok) {
			i++
			continue
		}
		r := hex4(tok[i+2 : i+6])
		switch {
		case r >= 0xDC00 && r <= 0xDFFF:
			return i
		case r >= 0xD800 && r <= 0xDBFF:
			if i+12 > len(tok) || tok[i+6] != '\\' || tok[i+7] != 'u' {
				return i
			}
			if r2 := hex4(tok[i+8 : i+12]); r2 < 0xDC00 || r2 > 0xDFFF {
				return i
			}
			i += 11
			continue
		}
		i += 5
	}
	return -1
}

func TestLoneSurrogateAgrees(t *testing.T) {
	parts := []string{`\`, `\\`, `\u`, `\ud83d`, `\ude00`, `\u0041`, `\n`, `a`, `"`, `\ud83d\ude00`, `d800`, `\uDBFF`, `\uDC00`}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b []byte
		for range rng.IntN(8) {
			b = append(b, parts[rng.IntN(len(parts))]...)
		}
		if got, want := LoneSurrogate(b), loneSurrogateRef(b); got != want {
			t.Fatalf("LoneSurrogate(%q) = %d, want %d", b, got, want)
		}
	}
}
