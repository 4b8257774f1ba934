package config

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// Lint configures `skillopt lint` and `skillopt catalog loadout`. Its keys
// are documented in template_lint.toml.
type Lint struct {
	// Profile is "default" (the spec and Pi) or "skills-ref" (also fail
	// what the reference validator rejects).
	Profile string `toml:"profile"`
	// Disable lists lint rules not to run, by ID, ID prefix or name.
	Disable []string `toml:"disable"`
	// Severity overrides rule severities for lint ("error", "warning",
	// "info" or "off"); it wins over [rules.severity].
	Severity map[string]string `toml:"severity"`
	// Suppress silences findings of a rule in matching files, with a
	// required reason.
	Suppress []Suppression `toml:"suppress"`
	// AgentFolders hold agent definitions (*.md), relative to each linted
	// folder.
	AgentFolders []string `toml:"agent_folders"`
	// SkillFolders are hidden skill folders also linted below each linted
	// folder (hidden folders are otherwise skipped).
	SkillFolders []string `toml:"skill_folders"`
	// Ambient lists the skill folders an agent inherits at run time, used
	// to resolve selected names that no private path provides.
	Ambient []string `toml:"ambient"`
	// AllowedProviderPrefixes restricts the provider of a fully qualified
	// SKILL.md model: (empty allows all).
	AllowedProviderPrefixes []string `toml:"allowed_provider_prefixes"`
	// ExtraFields are frontmatter keys accepted besides the spec's.
	ExtraFields []string `toml:"extra_fields"`
	// Encoding is the tokenizer of the body token budget.
	Encoding string `toml:"encoding"`
	// BodyTokens is the body token budget (0 turns the check off).
	BodyTokens int `toml:"body_tokens"`
	// MaxLines is the SKILL.md line budget (0 turns the check off).
	MaxLines int `toml:"max_lines"`
	// IndexBudgetChars bounds the sum of name and description characters
	// over all skills (0 turns the check off).
	IndexBudgetChars int `toml:"index_budget_chars"`
	// MaxDepth and MaxFiles bound discovery.
	MaxDepth int `toml:"max_depth"`
	MaxFiles int `toml:"max_files"`
	// Cache keeps body token counts in the user cache folder between runs.
	Cache bool `toml:"cache"`
}

// Suppression silences one rule in the files matching a path pattern.
type Suppression struct {
	// Rule is a rule ID or name.
	Rule string `toml:"rule"`
	// Path is a slash-separated glob relative to the configuration file's
	// folder: * and ? within a path element, ** across elements. Empty
	// matches every file.
	Path string `toml:"path"`
	// Reason says why; it is required.
	Reason string `toml:"reason"`
}

func defaultLint() Lint {
	return Lint{
		Profile:          "default",
		AgentFolders:     []string{".pi/agents", "agents"},
		SkillFolders:     []string{".pi/skills", ".agents/skills"},
		Encoding:         "o200k_base",
		BodyTokens:       5000,
		MaxLines:         500,
		IndexBudgetChars: 20000,
		MaxDepth:         32,
		MaxFiles:         200000,
		Cache:            true,
	}
}

var lintIDPattern = regexp.MustCompile(`^(SK|AG)\d{3}$`)

func (c *Lint) check() (string, string) {
	switch c.Profile {
	case "default", "skills-ref":
	default:
		return "profile", fmt.Sprintf("lint.profile %q is not one of default, skills-ref", c.Profile)
	}
	for id, sev := range c.Severity {
		if !lintIDPattern.MatchString(id) {
			return id, fmt.Sprintf("lint.severity: %q is not a lint rule ID (SKnnn or AGnnn)", id)
		}
		switch strings.ToLower(sev) {
		case "error", "warning", "info", "off":
		default:
			return id, fmt.Sprintf("lint.severity.%s: %q is not one of error, warning, info, off", id, sev)
		}
	}
	for i, s := range c.Suppress {
		where := fmt.Sprintf("lint.suppress[%d]", i)
		if strings.TrimSpace(s.Rule) == "" {
			return "suppress", where + ": rule is required"
		}
		if strings.TrimSpace(s.Reason) == "" {
			return quoted(s.Rule), fmt.Sprintf("%s (%s): reason is required", where, s.Rule)
		}
		if _, err := path.Match(strings.ReplaceAll(s.Path, "**", "*"), ""); err != nil {
			return quoted(s.Path), fmt.Sprintf("%s: path %q is not a valid pattern", where, s.Path)
		}
	}
	for _, f := range append(append([]string{}, c.AgentFolders...), c.SkillFolders...) {
		if strings.TrimSpace(f) == "" || path.IsAbs(f) || strings.HasPrefix(f, "..") {
			return quoted(f), fmt.Sprintf("lint: folder %q must be a relative path inside the linted folder", f)
		}
	}
	for _, p := range c.AllowedProviderPrefixes {
		if p == "" || strings.ContainsAny(p, "/ \t") {
			return quoted(p), fmt.Sprintf("lint.allowed_provider_prefixes: %q is not a provider prefix (no slashes or spaces)", p)
		}
	}
	switch c.Encoding {
	case "o200k_base", "cl100k_base":
	default:
		return "encoding", fmt.Sprintf("lint.encoding %q is not one of o200k_base, cl100k_base", c.Encoding)
	}
	switch {
	case c.BodyTokens < 0:
		return "body_tokens", fmt.Sprintf("lint.body_tokens %d must not be negative", c.BodyTokens)
	case c.MaxLines < 0:
		return "max_lines", fmt.Sprintf("lint.max_lines %d must not be negative", c.MaxLines)
	case c.IndexBudgetChars < 0:
		return "index_budget_chars", fmt.Sprintf("lint.index_budget_chars %d must not be negative", c.IndexBudgetChars)
	case c.MaxDepth < 1 || c.MaxDepth > 256:
		return "max_depth", fmt.Sprintf("lint.max_depth %d is outside 1..256", c.MaxDepth)
	case c.MaxFiles < 1:
		return "max_files", fmt.Sprintf("lint.max_files %d must be at least 1", c.MaxFiles)
	}
	return "", ""
}

func quoted(s string) string { return fmt.Sprintf("%q", s) }

// CheckLintRules reports the first rule reference of the [lint] section
// that known does not resolve, located in the configuration file.
func (c *Config) CheckLintRules(known func(ref string) bool) error {
	data, _ := readFile(c.Path)
	for _, ref := range c.Lint.Disable {
		if !known(ref) {
			return keyError(c.Path, data, quoted(ref), fmt.Sprintf("lint.disable: unknown rule %q", ref))
		}
	}
	for id := range c.Lint.Severity {
		if !known(id) {
			return keyError(c.Path, data, id, fmt.Sprintf("lint.severity: unknown rule %q", id))
		}
	}
	for i, s := range c.Lint.Suppress {
		if !known(s.Rule) {
			return keyError(c.Path, data, quoted(s.Rule), fmt.Sprintf("lint.suppress[%d]: unknown rule %q", i, s.Rule))
		}
	}
	return nil
}

// SuppressionPos returns the line and column of the i-th [[lint.suppress]]
// entry in the configuration file (0, 0 when it cannot be found).
func (c *Config) SuppressionPos(i int) (line, col int) {
	data, err := readFile(c.Path)
	if err != nil || i < 0 || i >= len(c.Lint.Suppress) {
		return 0, 0
	}
	lines := strings.Split(string(data), "\n")
	n := 0
	for j, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[[") && strings.ReplaceAll(strings.Trim(t, "[] \t\r"), " ", "") == "lint.suppress" {
			if n == i {
				return j + 1, strings.Index(l, "[[") + 1
			}
			n++
		}
	}
	// Inline tables: the line naming the rule.
	want := quoted(c.Lint.Suppress[i].Rule)
	for j, l := range lines {
		if k := strings.Index(l, want); k >= 0 && !strings.HasPrefix(strings.TrimSpace(l), "#") {
			return j + 1, k + 1
		}
	}
	return 0, 0
}
