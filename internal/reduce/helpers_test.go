package reduce

// DefaultOptions returns the options used when nothing is configured.
func DefaultOptions() Options {
	return Options{HeadLines: 6, TailLines: 6, ContextLines: 2, MaxLineBytes: 1024}
}

// Detect names the format-aware reducer that recognises text, or "generic".
func Detect(text string) string {
	d := newDoc(text)
	for _, r := range formats {
		if r.detect(d) {
			return r.name
		}
	}
	return generic.name
}

// With reduces text with the named reducer only (no detection, no
// fallback).
func With(name, text string, o Options) (Result, bool) {
	r, ok := byName(name)
	if !ok {
		return Result{}, false
	}
	return run(r, newDoc(text), o)
}
