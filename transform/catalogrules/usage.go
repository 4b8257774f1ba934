package catalogrules

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/internal/untrusted"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/trace"
)

// ReadUsage reads the skill runs of execution traces and Pi sessions
// (files, or folders of *.json and *.jsonl, as trace reads them) as
// usage evidence, each run one use of its skill at the time it finished,
// decayed at now (catalog.DecayUsage). It returns the errors of the paths
// and files that could not be read; the usage of the others stands.
func ReadUsage(paths []string, now time.Time) (catalog.Usage, []error) {
	files, errs := trace.Expand(paths)
	sums, rerrs := trace.Load(files, nil, trace.Options{})
	errs = append(errs, rerrs...)
	uses := make([]catalog.Use, 0, len(sums))
	for _, s := range sums {
		u := catalog.Use{Skill: s.Skill}
		if s.Timestamp > 0 {
			u.At = time.UnixMilli(s.Timestamp)
		}
		uses = append(uses, u)
	}
	return catalog.DecayUsage(uses, now), errs
}

// checkUsagePaths refuses catalog.usage entries that a configuration file
// may not name: each is a path inside the file's folder (no absolute path,
// no "..", not "-"). The command line's --usage passes absolute paths,
// set after the file is checked.
func checkUsagePaths(paths []string) []rules.OptionError {
	var out []rules.OptionError
	for i, p := range paths {
		key := fmt.Sprintf("usage[%d]", i)
		if p == "-" {
			out = append(out, rules.OptionError{Key: key, Msg: `"-" is not a file or folder (standard input is not usage evidence)`})
		} else if _, err := untrusted.Rel(filepath.ToSlash(p)); err != nil {
			out = append(out, rules.OptionError{Key: key, Msg: fmt.Sprintf("%v; a configuration file may only name paths inside its own folder (pass --usage PATH to choose another place)", err)})
		}
	}
	return out
}

// SetUsage makes paths (given on the command line, made absolute) the
// usage evidence SO103 ranks with, in place of catalog.usage.
func SetUsage(s *rules.Set, paths []string) {
	rules.Get(s, prefetch.Options.(*prefetchOptions)).Usage = paths
}

// usageEntry is the usage evidence of one list of paths, read once per
// process at the time of the first read.
type usageEntry struct {
	once  sync.Once
	usage catalog.Usage
	errs  []error
}

var usageCache sync.Map // joined resolved paths → *usageEntry

// prefetchUsage returns the usage evidence of SO103's catalog.usage: each
// relative path is resolved from the configuration file's folder and must
// stay inside it through any symbolic link (an error of the rule, exit
// 2); an absolute path came from the command line. A path or file that
// cannot be read (absent, too large, not a trace) is reported as a
// warning and adds nothing; the usage of the others stands. The files
// are read once per process, through trace's bounded reader.
func prefetchUsage(p *rules.Pass, paths []string) (catalog.Usage, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	base := "."
	if p.Env != nil && p.Env.BaseDir != "" {
		base = p.Env.BaseDir
	}
	resolved := make([]string, len(paths))
	for i, path := range paths {
		if filepath.IsAbs(path) {
			resolved[i] = path
			continue
		}
		r, err := untrusted.Confine(base, path)
		if err != nil {
			return nil, fmt.Errorf("catalog.usage[%d]: %w", i, err)
		}
		// trace reads "-" as standard input; a path never is.
		if r == "-" {
			r = "." + string(filepath.Separator) + r
		}
		resolved[i] = r
	}
	key := strings.Join(resolved, "\x00")
	v, _ := usageCache.LoadOrStore(key, &usageEntry{})
	e := v.(*usageEntry)
	e.once.Do(func() { e.usage, e.errs = ReadUsage(resolved, time.Now()) })
	for _, err := range e.errs {
		p.Report(rules.Diagnostic{Severity: rules.Warning, Message: "catalog.usage: " + err.Error()})
	}
	return e.usage, nil
}
