package tokens

import "unicode/utf8"

// The scanner splits text into pieces exactly as the reference split patterns
// do. The patterns are, for o200k_base:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// and for cl100k_base:
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}
//	| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// Matching is leftmost-first over the alternatives with backtracking, on the
// runes of the text. The reference matcher has two peculiarities that the
// scanner reproduces:
//
//   - \s*[\r\n]+ ends after the first run of [\r\n] inside a run of white
//     space (its backtracking stops at the first line break rather than the
//     last one), so "\n\n  \n" splits into "\n\n" and "  \n".
//   - U+007F is matched by no alternative and is skipped without a token.
//
// Invalid UTF-8 bytes decode to U+FFFD, one per byte.

// classAt returns the class flags and the width of the rune at i, or 0, 0 at
// the end of s.
func classAt(s string, i int) (uint8, int) {
	if uint(i) < uint(len(s)) && byteClass[s[i]] != notASCII {
		return byteClass[s[i]], 1
	}
	return classAtSlow(s, i)
}

func classAtSlow(s string, i int) (uint8, int) {
	if i >= len(s) {
		return 0, 0
	}
	r, w := utf8.DecodeRuneInString(s[i:])
	return classOf(r), w
}

// contraction returns the end of (?i:'s|'t|'re|'ve|'m|'ll|'d) at i, or i
// if there is none. Case folding makes 's match U+017F (long s) too.
func contraction(s string, i int) int {
	if i+1 < len(s) && s[i] == '\'' {
		return contractionAt(s, i)
	}
	return i
}

func contractionAt(s string, i int) int {
	switch s[i+1] {
	case 's', 'S', 't', 'T', 'm', 'M', 'd', 'D':
		return i + 2
	case 'r', 'R', 'v', 'V':
		if i+2 < len(s) && s[i+2]|0x20 == 'e' {
			return i + 3
		}
	case 'l', 'L':
		if i+2 < len(s) && s[i+2]|0x20 == 'l' {
			return i + 3
		}
	case 0xc5: // U+017F is C5 BF
		if i+2 < len(s) && s[i+2] == 0xbf {
			return i + 3
		}
	}
	return i
}

// upperRun scans [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]* from i. It returns the end
// of the run, the start of the last rune in the run that is also in
// [\p{Ll}\p{Lm}\p{Lo}\p{M}] (or -1), and the flags of the rune after it.
func upperRun(s string, i int) (end, lastLower int, next uint8) {
	lastLower = -1
	for {
		for i < len(s) && s[i]-'A' < 26 {
			i++
		}
		f, w := classAt(s, i)
		if f&fUpper == 0 {
			return i, lastLower, f
		}
		if f&fLower != 0 {
			lastLower = i
		}
		i += w
	}
}

// lowerRun returns the end of [\p{Ll}\p{Lm}\p{Lo}\p{M}]* from i.
func lowerRun(s string, i int) int {
	for {
		// ASCII lower-case letters dominate ordinary text.
		for i < len(s) && s[i]-'a' < 26 {
			i++
		}
		f, w := classAt(s, i)
		if f&fLower == 0 {
			return i
		}
		i += w
	}
}

// letterRun returns the end of \p{L}* from i.
func letterRun(s string, i int) int {
	for {
		for i < len(s) && (s[i]|0x20)-'a' < 26 {
			i++
		}
		f, w := classAt(s, i)
		if f&fLetter == 0 {
			return i
		}
		i += w
	}
}

// numberRun returns the end of \p{N}{1,3} from i, where the rune at i is
// known to be a number of width w.
func numberRun(s string, i, w int) int {
	i += w
	for k := 1; k < 3; k++ {
		f, w := classAt(s, i)
		if f&fNumber == 0 {
			break
		}
		i += w
	}
	return i
}

// punctRun matches ' ?[^\s\p{L}\p{N}]+' followed by a run of trailing
// bytes (\r, \n, and / when slash is set) from i. It returns i if there is
// no match.
func punctRun(s string, i int, slash bool) int {
	j := i
	if s[j] == ' ' {
		j++
	}
	f, w := classAt(s, j)
	if f&fPunct == 0 {
		return i
	}
	j += w
	for {
		for j < len(s) && byteClass[s[j]]&fPunct != 0 && s[j] < utf8.RuneSelf {
			j++
		}
		f, w := classAt(s, j)
		if f&fPunct == 0 {
			break
		}
		j += w
	}
	for j < len(s) && (s[j] == '\r' || s[j] == '\n' || slash && s[j] == '/') {
		j++
	}
	return j
}

// spaceRun matches \s*[\r\n]+|\s+(?!\S)|\s+ at i, where the rune at i is
// white space.
func spaceRun(s string, i int) int {
	j, last, runes := i, 0, 0
	for {
		if j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j, last, runes = j+1, 1, runes+1
			continue
		}
		f, w := classAt(s, j)
		if f&fSpace == 0 {
			break
		}
		if f&fNewline != 0 {
			j++
			for j < len(s) && (s[j] == '\r' || s[j] == '\n') {
				j++
			}
			return j
		}
		j += w
		last = w
		runes++
	}
	if j == len(s) || runes == 1 {
		return j
	}
	return j - last
}

// nextO200k returns the end of the o200k_base piece starting at i. If no
// alternative matches at i, it returns i+1 and false.
func nextO200k(s string, i int) (int, bool) {
	f0, w0 := classAt(s, i)
	if f0&fPrefix != 0 {
		// The letter alternatives with the optional prefix taken.
		p := i + w0
		end, lastLower, next := upperRun(s, p)
		if next&fLower != 0 {
			return contraction(s, lowerRun(s, end)), true
		}
		if lastLower >= 0 {
			return contraction(s, lowerRun(s, lastLower)), true
		}
		if f0&fLower != 0 {
			// A mark: the first alternative without the prefix matches the
			// mark alone, since nothing after it is lower-case.
			return contraction(s, lowerRun(s, i)), true
		}
		if end > p {
			return contraction(s, lowerRun(s, end)), true
		}
	} else if f0&(fUpper|fLower) != 0 {
		end, lastLower, next := upperRun(s, i)
		if next&fLower != 0 {
			return contraction(s, lowerRun(s, end)), true
		}
		if lastLower >= 0 {
			return contraction(s, lowerRun(s, lastLower)), true
		}
		return contraction(s, lowerRun(s, end)), true
	}
	switch {
	case f0&fNumber != 0:
		return numberRun(s, i, w0), true
	case f0&(fPunct|fSpace) != 0:
		if j := punctRun(s, i, true); j > i {
			return j, true
		}
		if f0&fSpace != 0 {
			return spaceRun(s, i), true
		}
	}
	return i + 1, false
}

// nextCl100k returns the end of the cl100k_base piece starting at i. If no
// alternative matches at i, it returns i+1 and false.
func nextCl100k(s string, i int) (int, bool) {
	if s[i] == '\'' {
		if j := contraction(s, i); j > i {
			return j, true
		}
	}
	f0, w0 := classAt(s, i)
	if f0&fPrefix != 0 {
		if f1, w1 := classAt(s, i+w0); f1&fLetter != 0 {
			return letterRun(s, i+w0+w1), true
		}
	} else if f0&fLetter != 0 {
		return letterRun(s, i+w0), true
	}
	switch {
	case f0&fNumber != 0:
		return numberRun(s, i, w0), true
	case f0&(fPunct|fSpace) != 0:
		if j := punctRun(s, i, false); j > i {
			return j, true
		}
		if f0&fSpace != 0 {
			return spaceRun(s, i), true
		}
	}
	return i + 1, false
}
