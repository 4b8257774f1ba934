package catalog

import (
	"bytes"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/skillopt/skillopt/internal/untrusted"
)

// ignoreFiles are read in every walked folder, in increasing priority (as
// ripgrep and fd rank them).
var ignoreFiles = []string{".gitignore", ".ignore", ".fdignore"}

// maxIgnoreFile bounds how much of one ignore file is read.
const maxIgnoreFile = 1 << 20

type ignorePattern struct {
	p       *ignoreGlob
	text    string
	file    string
	line    int
	negated bool
}

// ignoreSet is the chain of patterns in effect in one folder: its own
// files' patterns, then its parent's. Siblings share the parent's set and
// never see each other's patterns.
type ignoreSet struct {
	parent *ignoreSet
	pats   []ignorePattern
}

// load returns the set for the folder dirPath (rel below the walk root)
// whose entries are des: s itself when the folder has no ignore file.
func (s *ignoreSet) load(dirPath, rel string, des []fs.DirEntry) *ignoreSet {
	var pats []ignorePattern
	var domain []string
	if rel != "" {
		domain = strings.Split(rel, "/")
	}
	for _, name := range ignoreFiles {
		if !hasDirEntry(des, name) {
			continue
		}
		file := filepath.Join(dirPath, name)
		data, err := readCapped(file, maxIgnoreFile)
		if err != nil {
			continue
		}
		for i, line := range bytes.Split(data, []byte("\n")) {
			text := strings.TrimSuffix(string(line), "\r")
			if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
				continue
			}
			pat := text
			negated := strings.HasPrefix(pat, "!")
			// A leading backslash escapes "#" or "!" (git semantics).
			if strings.HasPrefix(pat, `\#`) || strings.HasPrefix(pat, `\!`) {
				pat = pat[1:]
			}
			pats = append(pats, ignorePattern{p: parseIgnoreGlob(pat, domain), text: text, file: file, line: i + 1, negated: negated})
		}
	}
	if len(pats) == 0 {
		return s
	}
	return &ignoreSet{parent: s, pats: pats}
}

// match returns the pattern deciding rel (nil when none matches). A
// negated result re-includes the entry.
func (s *ignoreSet) match(rel string, isDir bool) *ignorePattern {
	if s == nil {
		return nil
	}
	parts := strings.Split(rel, "/")
	for set := s; set != nil; set = set.parent {
		for i := len(set.pats) - 1; i >= 0; i-- {
			if set.pats[i].p.Match(parts, isDir) != ignoreNoMatch {
				return &set.pats[i]
			}
		}
	}
	return nil
}

func hasDirEntry(des []fs.DirEntry, name string) bool {
	for _, de := range des {
		if de.Name() == name {
			return !de.IsDir()
		}
	}
	return false
}

// readCapped reads at most limit bytes of a regular file (an ignore file
// that is a FIFO or device is not opened).
func readCapped(name string, limit int64) ([]byte, error) {
	f, _, err := untrusted.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}
