package capture

import (
	"path/filepath"
	"strconv"
	"strings"
)

// Sidecar is the NAME.meta.json a bare body was read with (its URL path,
// method and headers): where it was, and its bytes with every value
// redacted that reading redacts in an envelope.
type Sidecar struct {
	Path string
	Data []byte
}

// SidecarPath is where the sidecar of a body written to path goes:
// NAME.meta.json beside it, which ReadFile reads with it.
func SidecarPath(path string) string {
	return strings.TrimSuffix(path, filepath.Ext(path)) + ".meta.json"
}

// For returns the sidecar of body: its bytes, with the "bytes" member and
// a Content-Length header, when it has them, giving body's length.
func (s *Sidecar) For(body []byte) []byte {
	d, err := Parse(s.Data)
	if err != nil || d.Kind(0) != Object {
		return s.Data
	}
	n := strconv.Itoa(len(body))
	var fixes []fix
	length := func(v Node) {
		nd := d.Nodes[v]
		switch d.Kind(v) {
		case Number:
			fixes = append(fixes, fix{[2]int{int(nd.Start), int(nd.End)}, []byte(n)})
		case String:
			fixes = append(fixes, fix{[2]int{int(nd.Start), int(nd.End)}, Quote(n)})
		}
	}
	if v := d.Get(0, "bytes"); v != NoNode && d.Kind(v) == Number {
		length(v)
	}
	h := d.Get(0, "headers")
	switch d.Kind(h) {
	case Object:
		for m := range d.Children(h) {
			if strings.EqualFold(d.Key(m), "content-length") {
				length(m)
			}
		}
	case Array:
		for e := range d.Children(h) {
			if name := d.GetAny(e, "name", "key"); d.Kind(name) == String && strings.EqualFold(d.Str(name), "content-length") {
				length(d.Get(e, "value"))
			}
		}
	}
	return applyFixes(s.Data, fixes)
}
