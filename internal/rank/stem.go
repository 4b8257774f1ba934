package rank

// Stem reduces a lower-case token (as produced by Tokens) to a light stem so
// that "deploying", "deployed" and "deployment" meet "deploy", and "queries"
// meets "query". It is deliberately conservative: a suffix comes off only
// when at least four letters including a vowel remain, so short words
// ("string", "comment", "action") stay whole. Stem is idempotent.
func Stem(tok string) string {
	for {
		s := stemOnce(tok)
		if s == tok {
			return s
		}
		tok = s
	}
}

func stemOnce(w string) string {
	switch {
	case hasSuffix(w, "ie") && len(w) > 4:
		// Tokens already dropped the plural s: "querie" → "query".
		return w[:len(w)-2] + "y"
	case hasSuffix(w, "ation") && keep(w[:len(w)-5]):
		return w[:len(w)-5]
	case hasSuffix(w, "ment") && keep(w[:len(w)-4]):
		return w[:len(w)-4]
	case hasSuffix(w, "ion") && keep(w[:len(w)-3]):
		return w[:len(w)-3]
	case hasSuffix(w, "ing") && keep(w[:len(w)-3]):
		return undouble(w[:len(w)-3])
	case hasSuffix(w, "ed") && keep(w[:len(w)-2]):
		return undouble(w[:len(w)-2])
	case hasSuffix(w, "e") && keep(w[:len(w)-1]):
		return w[:len(w)-1]
	}
	return w
}

func hasSuffix(w, s string) bool { return len(w) > len(s) && w[len(w)-len(s):] == s }

// keep reports whether a stem is long enough to stand alone.
func keep(stem string) bool {
	if len(stem) < 4 {
		return false
	}
	for i := 0; i < len(stem); i++ {
		switch stem[i] {
		case 'a', 'e', 'i', 'o', 'u', 'y':
			return true
		}
	}
	return false
}

// undouble turns "logg" into "log" and "mapp" into "map" (but leaves "ll",
// "ss" and "zz", which English keeps: "install", "process").
func undouble(w string) string {
	n := len(w)
	if n >= 2 && w[n-1] == w[n-2] {
		switch w[n-1] {
		case 'l', 's', 'z':
			return w
		}
		if w[n-1] < '0' || w[n-1] > '9' {
			return w[:n-1]
		}
	}
	return w
}
