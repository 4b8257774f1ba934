// Package searchbench measures skill search as a search engine is
// measured: a labelled set of queries over a folder of skill repositories,
// each query with the skills that answer it, scored by Recall@1, @3 and
// @5, MRR and nDCG@10, for BM25F alone and for the full ranking, on the
// part of the set the ranking was tuned on and on the part held out. It
// also measures exact-name recovery under misspellings of one and two
// edits and the completeness of paging through every match.
package searchbench

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/internal/untrusted"
)

// The built-in set: queries over the skill repositories of the shared
// corpus.
//
//go:embed testdata/queries.jsonl
var defaultSet []byte

// Query is one labelled query.
type Query struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	Query string `json:"query"`
	// Relevant grades skills by their folder relative to the corpus root:
	// 2 for the skill asked for, 1 for one that also helps.
	Relevant map[string]int `json:"relevant"`
	// HeldOut is set for every third line of the set: queries no tuning
	// looked at.
	HeldOut bool `json:"-"`
}

// Set is a labelled query set.
type Set struct {
	Where   string
	Queries []Query
}

// maxSetFile bounds a query file.
const maxSetFile = 16 << 20

// Default returns the built-in set.
func Default() (*Set, error) { return parseSet("built-in queries.jsonl", defaultSet) }

// Load reads a query set from a JSON Lines file.
func Load(path string) (*Set, error) {
	data, err := untrusted.ReadFile(path, maxSetFile)
	if err != nil {
		return nil, err
	}
	return parseSet(path, data)
}

// parseSet reads one query per non-empty line; the third, sixth, … line
// holding a query is held out. Errors name the file and line.
func parseSet(where string, data []byte) (*Set, error) {
	set := &Set{Where: where}
	ids := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), maxSetFile)
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		var q Query
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&q); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", where, line, err)
		}
		switch {
		case q.ID == "":
			return nil, fmt.Errorf("%s:%d: query has no id", where, line)
		case strings.TrimSpace(q.Query) == "":
			return nil, fmt.Errorf("%s:%d: query %q is empty", where, line, q.ID)
		case len(q.Relevant) == 0:
			return nil, fmt.Errorf("%s:%d: query %q has no relevant skill", where, line, q.ID)
		}
		if prev, dup := ids[q.ID]; dup {
			return nil, fmt.Errorf("%s:%d: duplicate id %q (also line %d)", where, line, q.ID, prev)
		}
		ids[q.ID] = line
		answer := false
		for k, g := range q.Relevant {
			if g != 1 && g != 2 {
				return nil, fmt.Errorf("%s:%d: query %q: grade %d of %q is not 1 or 2", where, line, q.ID, g, k)
			}
			answer = answer || g == 2
		}
		if !answer {
			return nil, fmt.Errorf("%s:%d: query %q has no skill of grade 2", where, line, q.ID)
		}
		q.HeldOut = (len(set.Queries)+1)%3 == 0
		set.Queries = append(set.Queries, q)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	if len(set.Queries) == 0 {
		return nil, fmt.Errorf("%s: no queries", where)
	}
	return set, nil
}

// Corpus is the catalog the queries run over, with each skill's key.
type Corpus struct {
	Root string
	Snap *catalog.Snapshot
	// Keys holds, by skill index, the skill's folder relative to Root
	// with forward slashes.
	Keys []string
	// Usage, when set, is the usage evidence of the full ranking.
	Usage catalog.Usage
	byKey map[string]int
}

// Open reads the skills under root as a catalog command does.
func Open(root string) (*Corpus, error) {
	skills, errs := catalog.FromDisk([]string{root})
	if len(skills) == 0 {
		if len(errs) > 0 {
			return nil, errs[0]
		}
		return nil, fmt.Errorf("%s: no skills", root)
	}
	c := &Corpus{Root: root, Snap: catalog.NewSnapshot(skills, catalog.Options{}), byKey: map[string]int{}}
	for i, sk := range c.Snap.Skills {
		rel, err := filepath.Rel(root, filepath.Dir(sk.Location))
		if err != nil {
			rel = sk.Location
		}
		key := filepath.ToSlash(rel)
		c.Keys = append(c.Keys, key)
		c.byKey[key] = i
	}
	return c, nil
}

// Check reports the labels that name no skill of the catalog (a skill
// missing from the folder, or one whose name an earlier skill took).
func (c *Corpus) Check(set *Set) error {
	var bad []string
	for _, q := range set.Queries {
		for k := range q.Relevant {
			if _, ok := c.byKey[k]; !ok {
				bad = append(bad, fmt.Sprintf("%s: %s", q.ID, k))
			}
		}
	}
	if len(bad) > 0 {
		slices.Sort(bad)
		return fmt.Errorf("%s: %d labels name no skill under %s: %s", set.Where, len(bad), c.Root, strings.Join(bad, "; "))
	}
	return nil
}

// key returns the key of the skill named name.
func (c *Corpus) key(name string) string {
	if i := c.Snap.Lookup(name); i >= 0 {
		return c.Keys[i]
	}
	return ""
}
