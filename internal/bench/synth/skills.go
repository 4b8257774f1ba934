// Package synth generates synthetic agent skill catalogs and LLM provider
// request bodies that carry them, for tests and benchmarks.
package synth

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Skill is one entry of an agent's skill catalog.
type Skill struct {
	Name        string
	Description string
	Location    string
}

// Description length bounds, in characters (runes).
const (
	MinDescriptionLen = 80
	MaxDescriptionLen = 400
)

// SkillsRoot is the directory under which generated skill locations live.
const SkillsRoot = "/home/dev/.pi/agent/skills"

// maxNameLen is the longest skill name the generator emits.
const maxNameLen = 64

// rng is a splitmix64 generator: tiny, fast and stable across Go releases,
// so a seed always yields the same catalog.
type rng struct{ s uint64 }

func newRNG(seed int64) *rng { return &rng{s: uint64(seed) ^ 0x5eed5eed5eed5eed} }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a value in [0, n). The modulo bias is irrelevant here.
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

// float returns a value in [0, 1).
func (r *rng) float() float64 { return float64(r.next()>>11) / (1 << 53) }

// between returns a value in [lo, hi].
func (r *rng) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

// Skills returns n deterministic synthetic skills: the same n and seed give
// the same skills. Names are unique kebab-case, descriptions are 80–400
// characters long and some contain XML-special characters, and locations
// follow the SkillsRoot/<group>/<name>/SKILL.md layout.
//
// All strings of one call share a single backing allocation.
func Skills(n int, seed int64) []Skill {
	if n <= 0 {
		return []Skill{}
	}
	r := newRNG(seed)
	// Names are checked for uniqueness by their 64-bit hash: equal names
	// always collide, and a rare false collision only costs another draw.
	seen := make(map[uint64]struct{}, n)
	// ends[i] holds the arena offsets where skill i's name starts and ends,
	// where its location ends and where its description ends; the location
	// starts where the previous description ended.
	ends := make([][4]int, n)
	var arena strings.Builder
	arena.Grow(n * 240)
	var d descBuilder
	var name []byte
	for i := range ends {
		var t topic
		var o object
		var ro role
		name, t, o, ro = uniqueName(r, seen, name[:0], i)
		arena.WriteString(SkillsRoot)
		arena.WriteByte('/')
		arena.WriteString(t.group)
		arena.WriteByte('/')
		e := &ends[i]
		e[0] = arena.Len()
		arena.Write(name)
		e[1] = arena.Len()
		arena.WriteString("/SKILL.md")
		e[2] = arena.Len()
		arena.Write(d.description(r, name, t, o, ro))
		e[3] = arena.Len()
	}
	all := arena.String()
	out := make([]Skill, n)
	start := 0
	for i, e := range ends {
		out[i] = Skill{Name: all[e[0]:e[1]], Description: all[e[2]:e[3]], Location: all[start:e[2]]}
		start = e[3]
	}
	return out
}

// fnv64 is the FNV-1a hash of b.
func fnv64(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// uniqueName draws names into buf until one is unused and records it in
// seen, falling back to a numbered name after a few collisions so that any
// n terminates.
func uniqueName(r *rng, seen map[uint64]struct{}, buf []byte, i int) ([]byte, topic, object, role) {
	for try := 0; ; try++ {
		var t topic
		var o object
		var ro role
		buf, t, o, ro = drawName(r, buf[:0])
		if try >= 12 {
			buf = append(buf, "-v"...)
			buf = strconv.AppendInt(buf, int64(try-10+i%7), 10)
		}
		if len(buf) > maxNameLen {
			continue
		}
		h := fnv64(buf)
		if _, dup := seen[h]; !dup {
			seen[h] = struct{}{}
			return buf, t, o, ro
		}
	}
}

func drawName(r *rng, buf []byte) ([]byte, topic, object, role) {
	t := topics[r.intn(len(topics))]
	o := objects[r.intn(len(objects))]
	ro := roles[r.intn(len(roles))]
	switch p := r.intn(100); {
	case p < 62: // topic-object-role
		buf = join(buf, t.slug, o.slug, ro.slug)
	case p < 80: // topic-role
		buf = join(buf, t.slug, ro.slug)
	case p < 92: // qualifier-topic-object-role
		buf = join(buf, qualifiers[r.intn(len(qualifiers))], t.slug, o.slug, ro.slug)
	default: // topic-topic-role
		t2 := topics[r.intn(len(topics))]
		if t2.slug == t.slug {
			buf = join(buf, t.slug, o.slug, ro.slug)
		} else {
			buf = join(buf, t.slug, t2.slug, ro.slug)
		}
	}
	return buf, t, o, ro
}

// join appends parts to buf separated by hyphens.
func join(buf []byte, parts ...string) []byte {
	for i, p := range parts {
		if i > 0 {
			buf = append(buf, '-')
		}
		buf = append(buf, p...)
	}
	return buf
}

// descBuilder holds scratch buffers reused across descriptions.
type descBuilder struct {
	out  []byte
	sent []byte
}

// fitSlack is how far a sentence may push a description past its target.
const fitSlack = 12

// description assembles sentences until a randomly drawn target length is
// reached, never going below MinDescriptionLen or above MaxDescriptionLen.
// The result is valid until the next call.
func (d *descBuilder) description(r *rng, name []byte, t topic, o object, ro role) []byte {
	// Mostly short descriptions with a long tail, as in real catalogs.
	var target int
	switch u := r.float(); {
	case u < 0.65:
		target = r.between(MinDescriptionLen, 115)
	case u < 0.92:
		target = r.between(115, 220)
	default:
		target = r.between(220, MaxDescriptionLen)
	}
	t2 := topics[r.intn(len(topics))]
	if t2.slug == t.slug {
		t2 = topics[(indexOfTopic(t)+1)%len(topics)]
	}
	f := fill{t: t, t2: t2, o: o, ro: ro, name: name, r: r}

	d.out = f.render(d.out[:0], whatSentences[r.intn(len(whatSentences))])
	length := utf8.RuneCount(d.out)
	// add appends the sentence in d.sent if it fits and reports whether it did.
	add := func(force bool) bool {
		n := utf8.RuneCount(d.sent) + 1
		if length+n > MaxDescriptionLen {
			return false
		}
		if !force && length+n > target+fitSlack {
			return false
		}
		sep := byte(' ')
		if r.intn(40) == 0 {
			sep = '\n'
		}
		d.out = append(d.out, sep)
		d.out = append(d.out, d.sent...)
		length += n
		return true
	}
	if r.intn(10) < 8 {
		d.sent = f.render(d.sent[:0], whenSentences[r.intn(len(whenSentences))])
		add(false)
	}
	var used uint64
	for tries := 0; length < target && tries < 24; tries++ {
		k := r.intn(len(detailSentences))
		if used&(1<<k) != 0 {
			continue
		}
		d.sent = f.render(d.sent[:0], detailSentences[k])
		if add(false) {
			used |= 1 << k
		}
	}
	if length < MinDescriptionLen {
		d.sent = append(d.sent[:0], "Covers the common cases and says clearly when a task is out of scope."...)
		add(true)
	}
	return d.out
}

func indexOfTopic(t topic) int {
	for i := range topics {
		if topics[i].slug == t.slug {
			return i
		}
	}
	return 0
}

// fill expands description templates.
type fill struct {
	t, t2 topic
	o     object
	ro    role
	name  []byte
	r     *rng
}

// render appends the expansion of tmpl to dst, capitalising its first letter.
func (f *fill) render(dst []byte, tmpl string) []byte {
	start := len(dst)
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			dst = append(dst, tmpl...)
			break
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			dst = append(dst, tmpl...)
			break
		}
		dst = append(dst, tmpl[:i]...)
		switch key := tmpl[i+1 : i+j]; key {
		case "T":
			dst = append(dst, f.t.text...)
		case "T2":
			dst = append(dst, f.t2.text...)
		case "O":
			dst = append(dst, f.o.text...)
		case "V":
			dst = append(dst, f.ro.verb...)
		case "Vs":
			dst = append(dst, f.ro.verbs...)
		case "G":
			dst = append(dst, f.ro.gerund...)
		case "N":
			dst = strconv.AppendInt(dst, int64(f.r.between(3, 12)), 10)
		case "M":
			dst = strconv.AppendInt(dst, int64(f.r.between(1, 9)), 10)
		case "ms":
			dst = strconv.AppendInt(dst, int64(f.r.between(2, 18)*50), 10)
		case "ver":
			dst = append(dst, versions[f.r.intn(len(versions))]...)
		case "tag":
			dst = append(dst, tags[f.r.intn(len(tags))]...)
		case "name":
			dst = append(dst, f.name...)
		default:
			dst = append(dst, tmpl[i:i+j+1]...)
		}
		tmpl = tmpl[i+j+1:]
	}
	if start < len(dst) && dst[start] >= 'a' && dst[start] <= 'z' {
		dst[start] -= 'a' - 'A'
	}
	return dst
}
