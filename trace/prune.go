package trace

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/skillopt/skillopt/internal/atomicfile"
)

// PruneEntry is a trace file a prune plan keeps or deletes.
type PruneEntry struct {
	File      string
	Skill     string
	Timestamp int64
	size      int64
	mod       time.Time
}

// PrunePlan is count-based retention per skill: the newest Keep traces of
// each skill stay, the others go. Files that are not traces are never in
// it; they are listed in Errors.
type PrunePlan struct {
	Keep, Delete []PruneEntry
	Errors       []error
}

// PlanPrune plans retention of keep traces per skill for the *.json files
// directly in dir (not below it; symbolic links, Pi sessions and skillopt's
// temporary files are left alone). Every file is read and must parse as an
// execution trace to be planned; the skill is the trace's skillName, and
// "newest" is by its timestamp, then by file name.
func PlanPrune(dir string, keep int) PrunePlan {
	var p PrunePlan
	entries, err := os.ReadDir(dir)
	if err != nil {
		p.Errors = append(p.Errors, errorf(dir, "%v", unwrapPath(err)))
		return p
	}
	by := map[string][]PruneEntry{}
	var buf []byte
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || atomicfile.IsTemp(name) || !strings.EqualFold(filepath.Ext(name), ".json") {
			continue
		}
		path := filepath.Join(dir, name)
		info, err := e.Info()
		if err != nil {
			p.Errors = append(p.Errors, errorf(path, "%v", unwrapPath(err)))
			continue
		}
		data, err := ReadBounded(path, nil, buf)
		if err != nil {
			p.Errors = append(p.Errors, err)
			continue
		}
		buf = data
		r, err := ReadTrace(path, data)
		if err != nil {
			p.Errors = append(p.Errors, err)
			continue
		}
		by[r.Skill] = append(by[r.Skill], PruneEntry{File: path, Skill: r.Skill, Timestamp: r.Timestamp, size: info.Size(), mod: info.ModTime()})
	}
	skills := make([]string, 0, len(by))
	for s := range by {
		skills = append(skills, s)
	}
	sort.Strings(skills)
	for _, s := range skills {
		runs := by[s]
		sort.Slice(runs, func(i, j int) bool {
			if runs[i].Timestamp != runs[j].Timestamp {
				return runs[i].Timestamp > runs[j].Timestamp
			}
			return runs[i].File > runs[j].File
		})
		k := min(keep, len(runs))
		p.Keep = append(p.Keep, runs[:k]...)
		p.Delete = append(p.Delete, runs[k:]...)
	}
	return p
}

// ErrChanged reports a planned file that changed after it was read; it is
// not deleted.
var ErrChanged = errors.New("changed since it was read; not deleted")

// Apply deletes the files the plan deletes, each only if it is still the
// regular file of the size and modification time that was read. It returns
// the files deleted and the errors of the others.
func (p *PrunePlan) Apply() (deleted []PruneEntry, errs []error) {
	for _, e := range p.Delete {
		st, err := os.Lstat(e.File)
		if err != nil {
			errs = append(errs, errorf(e.File, "%v", unwrapPath(err)))
			continue
		}
		if !st.Mode().IsRegular() || st.Size() != e.size || !st.ModTime().Equal(e.mod) {
			errs = append(errs, errorf(e.File, "%v", ErrChanged))
			continue
		}
		if err := os.Remove(e.File); err != nil {
			errs = append(errs, errorf(e.File, "%v", unwrapPath(err)))
			continue
		}
		deleted = append(deleted, e)
	}
	return deleted, errs
}
