package lint

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/skillopt/skillopt/rules"
)

// Settings are the [lint] table of skillopt.toml: what `skillopt lint`
// and `skillopt catalog loadout` share, and the keys several rules read.
// Keys of one rule are that rule's own options.
type Settings struct {
	Profile                 string            `toml:"profile" doc:"\"default\" follows the Agent Skills spec and Pi; \"skills-ref\" also fails what the reference validator rejects (unknown fields, --- inside the frontmatter, name letters its npm port rejects)"`
	Disable                 []string          `toml:"disable" doc:"lint rules not to run: IDs (\"SK040\"), ID prefixes (\"AG\"), names or name prefixes"`
	Severity                map[string]string `toml:"severity" doc:"per-rule severities for lint (\"error\", \"warning\", \"info\" or \"off\") by any rule reference; they win over [rules.severity]"`
	Suppress                []Suppression     `toml:"suppress" doc:"suppressions ([[lint.suppress]]): a rule, a path pattern relative to the configuration file's folder (* and ? within a path element, ** across elements) and a required reason; unused ones are reported (SK059)"`
	AgentFolders            []string          `toml:"agent_folders" doc:"folders holding agent definitions (*.md), relative to each linted folder"`
	SkillFolders            []string          `toml:"skill_folders" doc:"hidden skill folders also linted below each linted folder (other hidden folders, and node_modules, are skipped)"`
	Ambient                 []string          `toml:"ambient" doc:"skill folders an agent inherits at run time (the ambient catalogue); empty: names no skillPath provides are reported as pending (AG010, info)"`
	AllowedProviderPrefixes []string          `toml:"allowed_provider_prefixes" doc:"provider prefixes a fully qualified SKILL.md model: may use, e.g. [\"openrouter\"]; empty allows every provider"`
	MaxDepth                int               `toml:"max_depth" doc:"discovery bound: folder depth"`
	MaxFiles                int               `toml:"max_files" doc:"discovery bound: visited entries"`
	Cache                   bool              `toml:"cache" doc:"remember body token counts (by SHA-256 of the body) in the user cache folder, so that re-linting unchanged skills skips the tokenizer"`
	TrustedProjects         []string          `toml:"trusted_projects" doc:"project folders (relative to the configuration file's folder) whose .pi/agents definitions catalog loadout --agent NAME uses, shadowing the global ones; other projects' are ignored"`
}

// Suppression silences one rule in the files matching a path pattern.
type Suppression struct {
	// Rule is a rule reference: an ID or a name.
	Rule string `toml:"rule"`
	// Path is a slash-separated glob relative to the configuration file's
	// folder: * and ? within a path element, ** across elements. Empty
	// matches every file.
	Path string `toml:"path"`
	// Reason says why; it is required.
	Reason string `toml:"reason"`
}

// Section is the table of skillopt.toml the settings live in.
func (*Settings) Section() string { return "lint" }

// Defaults are the built-in settings.
var Defaults = &Settings{
	Profile:      "default",
	AgentFolders: []string{".pi/agents", "agents"},
	SkillFolders: []string{".pi/skills", ".agents/skills"},
	MaxDepth:     32,
	MaxFiles:     200000,
	Cache:        true,
}

// Family declares the settings for the registry.
var Family = rules.Settings{Name: "lint", Doc: "Linting of skills and agent definitions: what is linted, how strictly, and which findings are silenced.", Options: Defaults}

// FromSet returns the configured settings of a set of options (the
// defaults for a nil set).
func FromSet(s *rules.Set) *Settings { return rules.Get(s, Defaults) }

func (s *Settings) skillsRef() bool { return s.Profile == "skills-ref" }

// Check reports values out of range. Rule references are checked against
// the registry by CheckRefs.
func (s *Settings) Check() []rules.OptionError {
	var errs []rules.OptionError
	add := func(key, format string, args ...any) {
		errs = append(errs, rules.OptionError{Key: key, Msg: fmt.Sprintf(format, args...)})
	}
	switch s.Profile {
	case "default", "skills-ref":
	default:
		add("profile", "%q is not one of default, skills-ref", s.Profile)
	}
	for ref, sev := range s.Severity {
		switch strings.ToLower(sev) {
		case "error", "warning", "info", "off":
		default:
			add("severity."+tomlKey(ref), "%q is not one of error, warning, info, off", sev)
		}
	}
	for i, sup := range s.Suppress {
		where := fmt.Sprintf("suppress[%d]", i)
		if strings.TrimSpace(sup.Rule) == "" {
			add(where+".rule", "a rule is required")
		} else if strings.TrimSpace(sup.Reason) == "" {
			add(where+".reason", "a reason is required to suppress %s", sup.Rule)
		}
		if _, err := path.Match(strings.ReplaceAll(sup.Path, "**", "*"), ""); err != nil {
			add(where+".path", "%q is not a valid pattern", sup.Path)
		}
	}
	for _, list := range []struct {
		key     string
		folders []string
	}{{"agent_folders", s.AgentFolders}, {"skill_folders", s.SkillFolders}} {
		for i, f := range list.folders {
			if strings.TrimSpace(f) == "" || path.IsAbs(f) || strings.HasPrefix(f, "..") {
				add(fmt.Sprintf("%s[%d]", list.key, i), "folder %q must be a relative path inside the linted folder", f)
			}
		}
	}
	for i, p := range s.AllowedProviderPrefixes {
		if p == "" || strings.ContainsAny(p, "/ \t") {
			add(fmt.Sprintf("allowed_provider_prefixes[%d]", i), "%q is not a provider prefix (no slashes or spaces)", p)
		}
	}
	if s.MaxDepth < 1 || s.MaxDepth > 256 {
		add("max_depth", "%d is outside 1..256", s.MaxDepth)
	}
	if s.MaxFiles < 1 {
		add("max_files", "%d must be at least 1", s.MaxFiles)
	}
	return errs
}

// CheckRefs reports every rule reference of the table that names no rule
// (match is the registry's Match), in the keys' order: disable entries,
// severity keys (which must name a lint rule) and suppressed rules. Keys
// are dotted ("lint.disable[0]") and messages whole.
func (s *Settings) CheckRefs(match func(ref string) ([]*rules.Rule, error)) []rules.OptionError {
	var errs []rules.OptionError
	known := func(ref string) bool {
		_, err := match(ref)
		return err == nil
	}
	for i, ref := range s.Disable {
		if !known(ref) {
			errs = append(errs, rules.OptionError{Key: fmt.Sprintf("lint.disable[%d]", i), Msg: fmt.Sprintf("lint.disable: unknown rule %q", ref)})
		}
	}
	for ref := range s.Severity {
		key := "lint.severity." + tomlKey(ref)
		rs, err := match(ref)
		switch {
		case err != nil:
			errs = append(errs, rules.OptionError{Key: key, Msg: fmt.Sprintf("lint.severity: unknown rule %q", ref)})
		case !anyLint(rs):
			errs = append(errs, rules.OptionError{Key: key, Msg: fmt.Sprintf("lint.severity: %q names no lint rule (SKnnn or AGnnn)", ref)})
		}
	}
	for i, sup := range s.Suppress {
		if strings.TrimSpace(sup.Rule) != "" && !known(sup.Rule) {
			errs = append(errs, rules.OptionError{Key: fmt.Sprintf("lint.suppress[%d].rule", i), Msg: fmt.Sprintf("lint.suppress[%d]: unknown rule %q", i, sup.Rule)})
		}
	}
	return errs
}

func anyLint(rs []*rules.Rule) bool {
	for _, r := range rs {
		if r.Kind == rules.Lint {
			return true
		}
	}
	return false
}

// Levels resolves the severities of lint rules, every reference through
// the registry's resolver: [rules.severity], then [lint.severity] over it,
// then the disable lists of both tables (a rule disabled there stays off).
func Levels(reg *rules.Registry, s *Settings, severity map[string]string, disable []string) (*rules.Levels, error) {
	l, err := reg.Levels(severity, nil)
	if err != nil {
		return nil, err
	}
	over, err := reg.Levels(s.Severity, nil)
	if err != nil {
		return nil, fmt.Errorf("lint.severity: %w", err)
	}
	for id := range over.Off {
		l.Off[id] = true
		delete(l.Severity, id)
	}
	for id, sev := range over.Severity {
		l.Severity[id] = sev
		delete(l.Off, id)
	}
	off, err := reg.Levels(nil, append(append([]string(nil), disable...), s.Disable...))
	if err != nil {
		return nil, err
	}
	for id := range off.Off {
		l.Off[id] = true
		delete(l.Severity, id)
	}
	return l, nil
}

// tomlKey spells one part of a dotted key as TOML does: bare when it can
// be, quoted otherwise.
func tomlKey(part string) string {
	if part == "" {
		return `""`
	}
	for _, c := range []byte(part) {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return strconv.Quote(part)
		}
	}
	return part
}
