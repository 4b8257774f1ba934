package catalog

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"slices"
	"sync"

	"github.com/skillopt/skillopt/internal/rank"
)

// Skill is one skill of a catalog.
type Skill struct {
	Name        string
	Description string
	// Location is where the skill's file lives, when known. It is used to
	// load the skill and never rendered into provider-visible text.
	Location string
	// Root is the discovery root the skill came from ("" for a capture).
	Root string
	// DisableModelInvocation excludes the skill from model-facing catalogs.
	DisableModelInvocation bool
	// Body is the start of the skill file's body (at most MaxSearchBody
	// bytes, ending at a whole character), when read from disk. Search
	// weighs it below the name and the description; it is never shown or
	// sent to a model.
	Body string
}

// MaxSearchBody bounds the part of a skill's body that search reads: the
// overview a file opens with, not its reference sections.
const MaxSearchBody = 2048

// bodyWeight is the weight of the body against the description's 1.
const bodyWeight = 0.3

// Options selects which skills are eligible.
type Options struct {
	// Exclude names skills that are never eligible.
	Exclude []string
	// Profile, when set, supplies cards and tags.
	Profile *Profile
}

// Snapshot is an immutable catalog: the eligible skills in source order,
// their fingerprint, a BM25F index over names and descriptions and a name
// table for typo recovery (both built on first search), and (with a
// profile) the tag buckets. Build it once and share it; it is safe for
// concurrent use.
type Snapshot struct {
	Skills      []Skill // eligible skills, source order
	Excluded    int     // skills left out (disabled or excluded)
	Fingerprint string  // sha256 hex over eligible names and descriptions

	byName map[string]int
	// shadowed holds, by name, the later skills of a repeated name: left
	// out of the catalog (the first wins, as in an agent host) but kept so
	// that loading such a name by hand is refused as ambiguous.
	shadowed map[string][]Skill
	cards    []Card           // per skill; zero Card when missing or stale
	tagged   map[string][]int // tag → skill indexes in source order ("unclassified" included)

	// The search structures are built on first use: a snapshot that is
	// only listed, browsed by tag or compacted never pays for them.
	prepareOnce sync.Once
	indexOnce   sync.Once
	index       *rank.Index // BM25F over names and descriptions
	typoOnce    sync.Once
	typo        *typoIndex // names and name parts for typo recovery
	vocab       []string   // the index's terms by ID
	termOnce    sync.Once
	termTypo    *typoIndex // the vocabulary, for typo recovery on terms
}

// Card is a skill's card from a profile, when current.
type Card struct {
	Text string
	Tags []string
}

// NewSnapshot builds a snapshot from skills in source order. A name that
// repeats keeps its first occurrence.
func NewSnapshot(all []Skill, opts Options) *Snapshot {
	s := &Snapshot{byName: make(map[string]int, len(all))}
	excluded := make(map[string]bool, len(opts.Exclude))
	for _, n := range opts.Exclude {
		excluded[n] = true
	}
	s.Skills = make([]Skill, 0, len(all))
	for _, sk := range all {
		if sk.DisableModelInvocation || excluded[sk.Name] {
			s.Excluded++
			continue
		}
		if _, dup := s.byName[sk.Name]; dup {
			s.Excluded++
			if s.shadowed == nil {
				s.shadowed = map[string][]Skill{}
			}
			s.shadowed[sk.Name] = append(s.shadowed[sk.Name], sk)
			continue
		}
		s.byName[sk.Name] = len(s.Skills)
		s.Skills = append(s.Skills, sk)
	}
	// The cards and the fingerprint are independent: build them side by
	// side.
	if opts.Profile == nil {
		s.Fingerprint = Fingerprint(s.Skills)
		return s
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.assignCards(opts.Profile)
	}()
	s.Fingerprint = Fingerprint(s.Skills)
	<-done
	return s
}

// bm25 returns the BM25F index over names (weight 3), descriptions (1)
// and the start of bodies (bodyWeight), building it on first use.
func (s *Snapshot) bm25() *rank.Index {
	s.indexOnce.Do(func() {
		b := rank.NewIDBuilder(rank.Field{Name: "name", Weight: 3, B: 0.3}, rank.Field{Name: "description", Weight: 1, B: 0.75},
			rank.Field{Name: "body", Weight: bodyWeight, B: 0.75})
		norm := map[string]string{}
		var buf []byte
		var ids [3][]int32
		for _, sk := range s.Skills {
			for f, text := range [3]string{sk.Name, sk.Description, sk.Body} {
				cur := ids[f][:0]
				buf = indexTerms(text, buf, norm, func(t string) {
					id := b.ID(t)
					if int(id) == len(s.vocab) {
						s.vocab = append(s.vocab, t)
					}
					cur = append(cur, id)
				})
				ids[f] = cur
			}
			b.Add(ids[0], ids[1], ids[2])
		}
		s.index = b.Build()
	})
	return s.index
}

// typos returns the name table for typo recovery, building it on first
// use.
func (s *Snapshot) typos() *typoIndex {
	s.typoOnce.Do(func() { s.typo = newTypoIndex(s.Skills) })
	return s.typo
}

// termTypos returns the vocabulary table for typo recovery on terms,
// building it on first use (only a query with an unknown word needs it).
func (s *Snapshot) termTypos() *typoIndex {
	s.termOnce.Do(func() {
		s.bm25() // fills the vocabulary
		terms := make([]Skill, len(s.vocab))
		for i, t := range s.vocab {
			terms[i] = Skill{Name: t}
		}
		s.termTypo = newTypoIndex(terms)
	})
	return s.termTypo
}

// prepareSearch builds the search structures of a snapshot not searched
// yet: the name table on another goroutine while the BM25F index is built
// on this one (a search that needs no typo recovery does not wait for it).
func (s *Snapshot) prepareSearch() {
	s.prepareOnce.Do(func() { go s.typos() })
	s.bm25()
}

// Fingerprint hashes names and descriptions in order, length-prefixed so
// that no two catalogs collide by concatenation.
func Fingerprint(skills []Skill) string {
	h := sha256.New()
	var n [8]byte
	for _, sk := range skills {
		for _, f := range []string{sk.Name, sk.Description} {
			binary.BigEndian.PutUint64(n[:], uint64(len(f)))
			h.Write(n[:])
			h.Write([]byte(f))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Len returns the number of eligible skills.
func (s *Snapshot) Len() int { return len(s.Skills) }

// Lookup returns the index of the skill named name, or -1.
func (s *Snapshot) Lookup(name string) int {
	if i, ok := s.byName[name]; ok {
		return i
	}
	return -1
}

// Names returns the eligible names in source order.
func (s *Snapshot) Names() []string {
	out := make([]string, len(s.Skills))
	for i, sk := range s.Skills {
		out[i] = sk.Name
	}
	return out
}

// HasCards reports whether the snapshot was built with a profile.
func (s *Snapshot) HasCards() bool { return s.tagged != nil }

// CardOf returns skill i's current card (zero when missing or stale).
func (s *Snapshot) CardOf(i int) Card {
	if s.cards == nil {
		return Card{}
	}
	return s.cards[i]
}

// Bucket returns the skills of a tag in source order.
func (s *Snapshot) Bucket(tag string) []int { return s.tagged[tag] }

// TagCounts returns the number of skills per tag, in vocabulary order, then
// unclassified; tags without skills are left out.
func (s *Snapshot) TagCounts() []TagCount {
	var out []TagCount
	for _, t := range Vocabulary {
		if n := len(s.tagged[t.Name]); n > 0 {
			out = append(out, TagCount{Tag: t.Name, Count: n})
		}
	}
	if n := len(s.tagged[Unclassified]); n > 0 {
		out = append(out, TagCount{Tag: Unclassified, Count: n})
	}
	return out
}

// TagCount is a tag and how many skills carry it.
type TagCount struct {
	Tag   string
	Count int
}

func (s *Snapshot) assignCards(p *Profile) {
	if p == nil {
		return
	}
	s.cards = make([]Card, len(s.Skills))
	s.tagged = map[string][]int{}
	for i, sk := range s.Skills {
		c, ok := p.Current(sk)
		if !ok {
			s.tagged[Unclassified] = append(s.tagged[Unclassified], i)
			continue
		}
		s.cards[i] = c
		for _, t := range c.Tags {
			s.tagged[t] = append(s.tagged[t], i)
		}
	}
}

// Clone-free helper for deterministic output of tag lists.
func sortedTags(tags []string) []string {
	out := slices.Clone(tags)
	slices.SortFunc(out, func(a, b string) int { return tagOrder(a) - tagOrder(b) })
	return out
}
