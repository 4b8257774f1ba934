package tools

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/transform"
)

// Match is one search result.
type Match struct {
	Name  string  `json:"name"`
	Score float64 `json:"score"`
}

// Page is one page of what optimizer_tool_search returns for a capture:
// the matching deferred tools, the cursor of the next page, and the tools
// the page activates.
type Page struct {
	Query string  `json:"query"`
	Tools []Match `json:"tools"`
	// Cursor continues the same query; nil on the last page.
	Cursor *string `json:"cursor"`
	// Activated lists the tools this page makes callable; Active every
	// tool declared once they are added to the kept ones.
	Activated []string `json:"activated"`
	Active    []string `json:"active"`
	// Deferred counts the searchable deferred tools, Matches the ones the
	// query matches.
	Deferred int `json:"deferred"`
	Matches  int `json:"matches"`
	// Note says why nothing is deferred (fail open, no tools, …).
	Note string `json:"note,omitempty"`
	// Searched counts the tools the query was ranked over and Deferral
	// says what SO201 decided; both are set by Probe only.
	Searched int       `json:"searched"`
	Deferral *Deferral `json:"deferral,omitempty"`
}

// toolMaxPageEntry bounds what one result contributes to a page as sent to
// the model; a page is at most page_size entries.
const toolMaxPageEntry = 256

// CursorError reports a cursor that does not belong to the query and tool
// set it is used with, or that is malformed.
type CursorError struct{ Cursor, Msg string }

func (e *CursorError) Error() string { return fmt.Sprintf("cursor %q: %s", e.Cursor, e.Msg) }

// Search returns the page of deferred tools that optimizer_tool_search
// would answer for query, starting at cursor ("" for the first page). The
// deferred tools are those SO201 defers for this capture under s.
func Search(c *capture.Capture, s *Settings, query, cursor string) (*Page, error) {
	plan := Decide(c, s)
	return plan.Search(query, cursor)
}

// Search pages through the plan's deferred tools for query.
func (p *Plan) Search(query, cursor string) (*Page, error) {
	page := &Page{Query: query, Tools: []Match{}, Activated: []string{}, Active: append([]string{}, p.Kept...), Deferred: len(p.Deferred)}
	switch {
	case p.FailOpen != "":
		page.Note = FailOpenPrefix + p.FailOpen
	case p.Skip != "":
		page.Note = p.Skip
	}
	hits := p.searchDeferred(query)
	page.Matches = len(hits)
	fp := toolFingerprint(query, p.Deferred)
	offset := 0
	if cursor != "" {
		var err error
		if offset, err = toolParseCursor(cursor, fp, len(hits)); err != nil {
			return nil, err
		}
	}
	size := p.settings.PageSize
	end := min(offset+size, len(hits))
	for _, h := range hits[offset:end] {
		page.Tools = append(page.Tools, Match{Name: h.Name, Score: math.Round(h.Score*1000) / 1000})
		page.Activated = append(page.Activated, h.Name)
		page.Active = append(page.Active, h.Name)
	}
	if end < len(hits) {
		next := "o" + strconv.Itoa(end) + "." + fp
		page.Cursor = &next
	}
	return page, nil
}

// AddDeclared completes the page's Active list for the request as the
// pipeline transformed it: the tools final declares besides the host's own
// (skill_search, retrieve_output, which other rules add) come after the
// kept ones, so that a host that declares what Active lists keeps every
// tool the transformed request had. Search tools are not listed.
func (pg *Page) AddDeclared(orig, final *capture.Capture) {
	host := map[string]bool{}
	for _, t := range transform.ToolDecls(orig) {
		host[t.Name] = true
	}
	listed := map[string]bool{}
	for _, n := range pg.Active {
		listed[n] = true
	}
	var own []string
	for _, t := range transform.ToolDecls(final) {
		if t.Search || t.Deferred || host[t.Name] || listed[t.Name] || t.Name == "" {
			continue
		}
		listed[t.Name] = true
		own = append(own, t.Name)
	}
	if len(own) == 0 {
		return
	}
	kept := len(pg.Active) - len(pg.Activated)
	active := append(append(append([]string{}, pg.Active[:kept]...), own...), pg.Active[kept:]...)
	pg.Active = active
}

// searchDeferred ranks the plan's deferred tools for query.
func (p *Plan) searchDeferred(query string) []toolHit {
	if len(p.Deferred) == 0 || p.index == nil {
		return nil
	}
	deferred := p.deferredSet()
	return p.index.search(query, toolQueryTerms(query), func(n string) bool { return deferred[n] })
}

// toolFingerprint ties a cursor to its query terms and deferred tool set, so a
// cursor is refused once either changes.
func toolFingerprint(query string, deferred []string) string {
	h := sha256.New()
	h.Write([]byte(strings.Join(toolQueryTerms(query), " ")))
	h.Write([]byte{0})
	h.Write([]byte(strings.Join(deferred, "\x00")))
	return hex.EncodeToString(h.Sum(nil)[:6])
}

func toolParseCursor(cursor, fp string, total int) (int, error) {
	rest, ok := strings.CutPrefix(cursor, "o")
	num, sum, ok2 := strings.Cut(rest, ".")
	if !ok || !ok2 {
		return 0, &CursorError{cursor, "not a tool search cursor"}
	}
	off, err := strconv.Atoi(num)
	if err != nil || off <= 0 {
		return 0, &CursorError{cursor, "not a tool search cursor"}
	}
	if sum != fp {
		return 0, &CursorError{cursor, "belongs to another query or tool set"}
	}
	if off >= total {
		return 0, &CursorError{cursor, fmt.Sprintf("points past the %d results", total)}
	}
	return off, nil
}
