package catalog

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// MaxPageChars bounds one complete browse response, in characters.
const MaxPageChars = 3000

// DefaultPageSize is the number of cards asked for when none is given.
const DefaultPageSize = 10

// BrowseRequest asks for one page of cards.
type BrowseRequest struct {
	Tags     []string
	Match    string // "any" (default) or "all"
	Query    string // orders a tag bucket; filters when there are no tags
	Cursor   string
	PageSize int
}

// BrowseCard is one card of a page.
type BrowseCard struct {
	Name string   `json:"name"`
	Card string   `json:"card"`
	Tags []string `json:"tags"`
}

// Page is one browse response. Its JSON is at most MaxPageChars characters.
type Page struct {
	Cards  []BrowseCard   `json:"cards"`
	Cursor *string        `json:"cursor"`
	Facets map[string]int `json:"facets"`
}

// cursorState is what a cursor carries: where it continues and what it is
// bound to.
type cursorState struct {
	Fingerprint string `json:"f"`
	Key         string `json:"k"`
	Offset      int    `json:"o"`
}

// ErrCursor reports a cursor that cannot continue this browse.
var ErrCursor = errors.New("invalid cursor")

// Browse returns one page of cards. With tags, every skill of the selected
// buckets is a candidate (match any: union, all: intersection) and a query
// only orders them (matches first, then source order); without tags, the
// query filters lexically. Cursors are bound to the catalog fingerprint, the
// tags, the match mode and the query.
func (s *Snapshot) Browse(req BrowseRequest) (*Page, []byte, error) {
	if req.Match == "" {
		req.Match = "any"
	}
	if req.Match != "any" && req.Match != "all" {
		return nil, nil, fmt.Errorf("match %q is not any or all", req.Match)
	}
	tags := make([]string, 0, len(req.Tags))
	for _, t := range req.Tags {
		t = strings.TrimSpace(t)
		if t == "" {
			continue
		}
		if !IsTag(t) && t != Unclassified {
			return nil, nil, fmt.Errorf("unknown tag %q (see the directory or `skillopt catalog browse --help`)", t)
		}
		tags = append(tags, t)
	}
	tags = sortedTags(dedup(tags))
	if req.PageSize <= 0 {
		req.PageSize = DefaultPageSize
	}
	key := browseKey(tags, req.Match, req.Query)
	offset := 0
	if req.Cursor != "" {
		st, err := decodeCursor(req.Cursor)
		if err != nil {
			return nil, nil, err
		}
		if st.Fingerprint != s.Fingerprint[:16] {
			return nil, nil, fmt.Errorf("%w: it belongs to another catalog (the catalog changed)", ErrCursor)
		}
		if st.Key != key {
			return nil, nil, fmt.Errorf("%w: it belongs to another browse (tags, match or query changed)", ErrCursor)
		}
		offset = st.Offset
	}
	order := s.candidates(tags, req.Match, req.Query)
	if offset > len(order) {
		return nil, nil, fmt.Errorf("%w: offset beyond the result", ErrCursor)
	}
	page := &Page{Cards: []BrowseCard{}, Facets: s.facets(order)}
	var data []byte
	next := offset
	for next < len(order) && len(page.Cards) < req.PageSize {
		page.Cards = append(page.Cards, s.browseCard(order[next]))
		cur := s.cursorAfter(key, next+1, len(order))
		page.Cursor = cur
		b, err := marshal(page)
		if err != nil {
			return nil, nil, err
		}
		if utf8.RuneCount(b) > MaxPageChars && len(page.Cards) > 1 {
			page.Cards = page.Cards[:len(page.Cards)-1]
			break
		}
		data = b
		next++
	}
	page.Cursor = s.cursorAfter(key, next, len(order))
	data, err := marshal(page)
	if err != nil {
		return nil, nil, err
	}
	return page, data, nil
}

func (s *Snapshot) cursorAfter(key string, next, total int) *string {
	if next >= total {
		return nil
	}
	b, _ := json.Marshal(cursorState{Fingerprint: s.Fingerprint[:16], Key: key, Offset: next})
	c := base64.RawURLEncoding.EncodeToString(b)
	return &c
}

func decodeCursor(c string) (cursorState, error) {
	var st cursorState
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || json.Unmarshal(b, &st) != nil || st.Offset < 0 {
		return st, fmt.Errorf("%w: not a cursor from a previous page", ErrCursor)
	}
	return st, nil
}

func browseKey(tags []string, match, query string) string {
	sum := sha256.Sum256([]byte(strings.Join(tags, ",") + "\x00" + match + "\x00" + strings.TrimSpace(query)))
	return hex.EncodeToString(sum[:8])
}

func marshal(v any) ([]byte, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return []byte(strings.TrimSuffix(b.String(), "\n")), nil
}

func dedup(xs []string) []string {
	seen := map[string]bool{}
	out := xs[:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// candidates returns the ordered skill indexes of a browse.
func (s *Snapshot) candidates(tags []string, match, query string) []int {
	var set []int
	switch {
	case len(tags) == 0 && strings.TrimSpace(query) == "":
		set = make([]int, len(s.Skills))
		for i := range set {
			set[i] = i
		}
		return set
	case len(tags) == 0:
		q := parseQuery(query)
		if !s.selective(q) {
			return nil
		}
		for _, h := range s.bm25().Search(q.Query, 0) {
			set = append(set, h.Doc)
		}
		return set
	}
	count := map[int]int{}
	for _, t := range tags {
		for _, i := range s.bucket(t) {
			count[i]++
		}
	}
	for i := range s.Skills {
		if c := count[i]; (match == "any" && c > 0) || (match == "all" && c == len(tags)) {
			set = append(set, i)
		}
	}
	if strings.TrimSpace(query) == "" {
		return set
	}
	// The query orders the bucket without removing anything from it.
	rankOf := map[int]int{}
	for r, h := range s.bm25().Search(parseQuery(query).Query, 0) {
		rankOf[h.Doc] = r + 1
	}
	sort.SliceStable(set, func(a, b int) bool {
		ra, rb := rankOf[set[a]], rankOf[set[b]]
		switch {
		case ra > 0 && rb > 0:
			return ra < rb
		case ra > 0 || rb > 0:
			return ra > 0
		}
		return set[a] < set[b]
	})
	return set
}

// bucket returns the skills of a tag; without a profile every skill is
// unclassified.
func (s *Snapshot) bucket(tag string) []int {
	if s.tagged == nil {
		if tag != Unclassified {
			return nil
		}
		all := make([]int, len(s.Skills))
		for i := range all {
			all[i] = i
		}
		return all
	}
	return s.tagged[tag]
}

func (s *Snapshot) facets(set []int) map[string]int {
	f := map[string]int{}
	for _, i := range set {
		// The tags of browseCard, without deriving the card's text.
		c := s.CardOf(i)
		if c.Text == "" {
			f[Unclassified]++
			continue
		}
		for _, t := range c.Tags {
			f[t]++
		}
	}
	return f
}

func (s *Snapshot) browseCard(i int) BrowseCard {
	sk := s.Skills[i]
	if c := s.CardOf(i); c.Text != "" {
		return BrowseCard{Name: sk.Name, Card: c.Text, Tags: c.Tags}
	}
	return BrowseCard{Name: sk.Name, Card: summary(sk.Description), Tags: []string{Unclassified}}
}

// summary derives a card-sized text from a description for skills without
// a current card.
func summary(desc string) string {
	s := strings.Join(strings.Fields(desc), " ")
	if i := sentenceEnd(s); i > 0 {
		s = s[:i+1]
	}
	if utf8.RuneCountInString(s) > MaxCardChars {
		s = shorten(s, MaxCardChars-1) + "…"
	}
	return s
}
