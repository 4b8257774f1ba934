package catalog

import (
	"path/filepath"
	"strings"
)

// ignoreGlob is one line of an ignore file, read as git-style tools read it:
//
//   - a leading "!" re-includes what the rest matches;
//   - trailing spaces are dropped unless escaped ("\ ");
//   - a trailing "/" matches directories only;
//   - a pattern without "/" matches any path element at or below the
//     folder holding the file; one with "/" matches element by element from
//     that folder, where "**" stands for any number of elements (at the
//     end, for everything below) and an empty element (a leading "/") for
//     none;
//   - elements match as filepath.Match does, and a malformed element
//     matches nothing.
//
// (These are the rules of the gitignore parser skillopt used before; a test
// checks the two agree.)
type ignoreGlob struct {
	domain   []string // the folder of the ignore file, below the walk root
	elems    []string // the pattern split at "/"
	include  bool     // "!"
	dirOnly  bool     // trailing "/"
	anchored bool     // holds a "/": matched from the folder down
}

// ignoreVerdict is what a pattern says of a path.
type ignoreVerdict int

const (
	ignoreNoMatch ignoreVerdict = iota
	ignoreExclude
	ignoreInclude
)

// parseIgnoreGlob reads one ignore pattern of a file in the folder domain.
func parseIgnoreGlob(p string, domain []string) *ignoreGlob {
	g := &ignoreGlob{domain: append([]string(nil), domain...)}
	if rest, ok := strings.CutPrefix(p, "!"); ok {
		g.include, p = true, rest
	}
	if !strings.HasSuffix(p, `\ `) {
		p = strings.TrimRight(p, " ")
	}
	if rest, ok := strings.CutSuffix(p, "/"); ok {
		g.dirOnly, p = true, rest
	}
	g.anchored = strings.Contains(p, "/")
	g.elems = strings.Split(p, "/")
	return g
}

// Match says whether the pattern excludes or re-includes path (its elements
// from the walk root), or does not apply.
func (g *ignoreGlob) Match(path []string, isDir bool) ignoreVerdict {
	if len(path) <= len(g.domain) {
		return ignoreNoMatch
	}
	for i, d := range g.domain {
		if path[i] != d {
			return ignoreNoMatch
		}
	}
	rel := path[len(g.domain):]
	var ok bool
	if g.anchored {
		ok = g.matchAnchored(rel, isDir)
	} else {
		ok = g.matchAnywhere(rel, isDir)
	}
	switch {
	case !ok:
		return ignoreNoMatch
	case g.include:
		return ignoreInclude
	}
	return ignoreExclude
}

// elemMatch matches one path element; a malformed pattern matches nothing
// and says so.
func elemMatch(pattern, name string) (match, malformed bool) {
	m, err := filepath.Match(pattern, name)
	return m && err == nil, err != nil
}

// matchAnywhere matches a pattern without "/" against the first element
// it fits; a directory-only pattern does not take a file's own name.
func (g *ignoreGlob) matchAnywhere(rel []string, isDir bool) bool {
	for i, name := range rel {
		m, bad := elemMatch(g.elems[0], name)
		if bad {
			return false
		}
		if m {
			return !(g.dirOnly && !isDir && i == len(rel)-1)
		}
	}
	return false
}

// matchAnchored walks the pattern's elements along the path.
func (g *ignoreGlob) matchAnchored(rel []string, isDir bool) bool {
	matched := false
	skipping := false // after "**": the next element may come further down
	last := len(g.elems) - 1
walk:
	for i, e := range g.elems {
		switch {
		case e == "":
			skipping = false
			continue
		case e == "**":
			if i == last {
				break walk
			}
			skipping = true
			continue
		case strings.Contains(e, "**"):
			return false
		case len(rel) == 0:
			return false
		}
		if !skipping {
			m, _ := elemMatch(e, rel[0])
			if !m {
				return false
			}
			matched, rel = true, rel[1:]
			continue
		}
		skipping = false
		for len(rel) > 0 {
			name := rel[0]
			rel = rel[1:]
			m, bad := elemMatch(e, name)
			if bad {
				return false
			}
			if m {
				matched = true
				break
			}
			if len(rel) == 0 {
				matched = false
			}
		}
	}
	if matched && g.dirOnly && !isDir && len(rel) == 0 {
		return false
	}
	return matched
}
