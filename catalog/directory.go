package catalog

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"unicode/utf8"
)

// MaxDirectoryChars bounds the tag directory, hints included.
const MaxDirectoryChars = 4000

// DirectoryResolver tells the model how to use the directory.
const DirectoryResolver = "<skill_resolver>Pick tags for the task, browse cards with skill_search (action browse, tags, match any|all, cursor), then load an exact name.</skill_resolver>"

// Directory renders the query-independent tag directory of a snapshot with
// cards: one line per non-empty tag (name, count, description), the
// unclassified bucket, and critical/always name hints. No per-skill names
// besides the hints.
func Directory(s *Snapshot, critical, always []string) string {
	return DirectoryOf(s.Len(), s.TagCounts(), func(name string) bool { return s.Lookup(name) >= 0 }, critical, always)
}

// DirectoryOf renders the directory of n skills with the given tag counts
// (vocabulary order, unclassified last); has says whether a skill of that
// name is in the catalog, for the critical and always hints.
func DirectoryOf(n int, counts []TagCount, has func(name string) bool, critical, always []string) string {
	var b strings.Builder
	b.WriteString(Marker)
	b.WriteByte('\n')
	fmt.Fprintf(&b, "<skill_directory vocabulary=%q skills=\"%d\" columns=\"tag,count,about\">\n", VocabularyVersion, n)
	for _, tc := range counts {
		fmt.Fprintf(&b, "%s\t%d\t%s\n", tc.Tag, tc.Count, TagDoc(tc.Tag))
	}
	b.WriteString("</skill_directory>\n")
	hint := func(kind string, names []string) {
		var known []string
		for _, n := range names {
			if has(n) {
				known = append(known, cell(n))
			}
		}
		if len(known) > 0 {
			fmt.Fprintf(&b, "<skill_hints kind=%q>%s</skill_hints>\n", kind, strings.Join(known, ","))
		}
	}
	hint("critical", critical)
	hint("always", always)
	b.WriteString(DirectoryResolver)
	return b.String()
}

// DirectoryFits reports whether a directory is within min(4000, budget)
// characters.
func DirectoryFits(dir string, budget int) bool {
	return utf8.RuneCountInString(dir) <= min(MaxDirectoryChars, budget)
}

type cachedProfile struct {
	mod  int64
	size int64
	p    *Profile
	err  error
}

var profileCache sync.Map // path → *cachedProfile

// LoadProfileCached loads a profile once per file version (path, size and
// modification time), so a batch of captures reads it once.
func LoadProfileCached(path string) (*Profile, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if v, ok := profileCache.Load(path); ok {
		c := v.(*cachedProfile)
		if c.mod == st.ModTime().UnixNano() && c.size == st.Size() {
			return c.p, c.err
		}
	}
	p, err := LoadProfile(path)
	profileCache.Store(path, &cachedProfile{mod: st.ModTime().UnixNano(), size: st.Size(), p: p, err: err})
	return p, err
}
