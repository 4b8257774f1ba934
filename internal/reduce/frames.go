package reduce

import "strings"

// Stack traces: a reader fixing a failure needs the frames in their own
// code, not the frames of the runtime that called it (node:internal, the
// Rust standard library under /rustc/, Go's runtime and testing packages,
// java.* and jdk.*). In a trace that has at least one frame outside the
// runtime, the runtime frames are elided; a trace of runtime frames only
// is left alone, since its top frame is then the only location there is.

// frameKind is what one line of a trace is.
type frameKind uint8

const (
	notFrame     frameKind = iota
	neutralFrame           // part of a trace but no location: "goroutine 7 [running]:", "Caused by: …"
	userFrame
	runtimeFrame
)

// trimRuntimeFrames elides the runtime frames of every trace that has a
// frame in user code. Only kept lines change; elided lines stay elided.
func (p *plan) trimRuntimeFrames(d *doc) {
	kinds := make([]frameKind, 0, 32)
	for i := 0; i < d.n(); {
		k := frameAt(d, i, notFrame)
		if k == notFrame {
			i++
			continue
		}
		kinds = append(kinds[:0], k)
		j := i + 1
		for j < d.n() {
			k := frameAt(d, j, kinds[len(kinds)-1])
			if k == notFrame {
				break
			}
			kinds = append(kinds, k)
			j++
		}
		user := false
		for _, k := range kinds {
			user = user || k == userFrame
		}
		if user {
			for n, k := range kinds {
				if k == runtimeFrame {
					p.mark[i+n] = drop
				}
			}
		}
		i = j
	}
}

// frameAt classifies line i; prev is the kind of the line before it when
// that line is part of the same trace.
func frameAt(d *doc, i int, prev frameKind) frameKind {
	raw := d.line(i)
	t := strings.TrimSpace(raw)
	if t == "" {
		return notFrame
	}
	switch {
	case strings.HasPrefix(t, "goroutine ") && strings.HasSuffix(t, ":") && strings.Contains(t, " ["),
		strings.HasPrefix(t, "Caused by: "), strings.HasPrefix(t, "Traceback (most recent call last)"),
		strings.HasPrefix(t, "...") && strings.HasSuffix(t, " more"):
		return neutralFrame
	}
	// Go: "pkg.Func(…)" or "created by …" followed by "\t/path/file.go:12 +0x1d".
	if goPathLine(raw) {
		return goPathKind(t)
	}
	if raw[0] != '\t' && raw[0] != ' ' && i+1 < d.n() && goPathLine(d.line(i+1)) {
		return goPathKind(strings.TrimSpace(d.line(i + 1)))
	}
	// Rust: "  3: core::panicking::assert_failed" with its "at …" line after.
	if sym, ok := rustSymbol(t); ok {
		if i+1 < d.n() {
			if next := strings.TrimSpace(d.line(i + 1)); strings.HasPrefix(next, "at ") {
				if k := locationKind(next[3:]); k != notFrame {
					return k
				}
			}
		}
		if prev == notFrame && !(i > 0 && strings.TrimSpace(d.line(i-1)) == "stack backtrace:") {
			return notFrame
		}
		for _, rt := range []string{"std::", "core::", "alloc::", "__rustc::", "test::", "rust_begin_unwind", "<"} {
			if strings.HasPrefix(sym, rt) {
				return runtimeFrame
			}
		}
		return userFrame
	}
	// V8, Java and Rust "at …" lines.
	if strings.HasPrefix(t, "at ") {
		rest := strings.TrimSuffix(t[3:], " {")
		for _, rt := range []string{"java.", "jdk.", "sun."} {
			if strings.HasPrefix(rest, rt) && strings.Contains(rest, "(") {
				return runtimeFrame
			}
		}
		if k := locationKind(rest); k != notFrame {
			return k
		}
		return notFrame
	}
	// V8 frames as TAP's YAML stack writes them: "Test.run (node:internal/…:796:25)".
	return locationKind(strings.TrimSuffix(t, " {"))
}

// locationKind classifies "name (location)" or a bare location.
func locationKind(s string) frameKind {
	loc := s
	if strings.HasSuffix(s, ")") {
		if k := strings.LastIndex(s, " ("); k >= 0 {
			loc = s[k+2 : len(s)-1]
		}
	}
	switch {
	case loc == "<anonymous>", loc == "native", strings.HasPrefix(loc, "index ") && loc != s:
		return runtimeFrame
	case strings.HasPrefix(loc, "node:") && !strings.Contains(loc, " "), strings.HasPrefix(loc, "/rustc/") && hasFileRef(loc):
		return runtimeFrame
	case loc != s && hasFileRef(loc), loc == s && !strings.Contains(s, " ") && hasFileRef(s):
		return userFrame
	}
	return notFrame
}

// goPathLine reports whether l is the file line of a Go frame:
// "\t/path/file.go:12 +0x1d".
func goPathLine(l string) bool {
	return strings.HasPrefix(l, "\t") && strings.Contains(l, ".go:") && hasFileRef(l)
}

func goPathKind(t string) frameKind {
	if strings.Contains(t, "/src/runtime/") || strings.Contains(t, "/src/testing/") {
		return runtimeFrame
	}
	return userFrame
}

// rustSymbol parses a backtrace symbol line "12: name" (left-trimmed).
func rustSymbol(t string) (string, bool) {
	k := 0
	for k < len(t) && isDigit(t[k]) {
		k++
	}
	if k == 0 || k > 4 || !strings.HasPrefix(t[k:], ": ") || len(t) <= k+2 {
		return "", false
	}
	return t[k+2:], true
}
