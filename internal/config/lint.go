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

func (c *Lint) check(add func(key, msg string)) {
	switch c.Profile {
	case "default", "skills-ref":
	default:
		add("lint.profile", fmt.Sprintf("lint.profile %q is not one of default, skills-ref", c.Profile))
	}
	for id, sev := range c.Severity {
		key := "lint.severity." + keyName(id)
		if !lintIDPattern.MatchString(id) {
			add(key, fmt.Sprintf("lint.severity: %q is not a lint rule ID (SKnnn or AGnnn)", id))
			continue
		}
		switch strings.ToLower(sev) {
		case "error", "warning", "info", "off":
		default:
			add(key, fmt.Sprintf("lint.severity.%s: %q is not one of error, warning, info, off", id, sev))
		}
	}
	for i, s := range c.Suppress {
		where := fmt.Sprintf("lint.suppress[%d]", i)
		if strings.TrimSpace(s.Rule) == "" {
			add(where+".rule", where+": rule is required")
		} else if strings.TrimSpace(s.Reason) == "" {
			add(where+".rule", fmt.Sprintf("%s (%s): reason is required", where, s.Rule))
		}
		if _, err := path.Match(strings.ReplaceAll(s.Path, "**", "*"), ""); err != nil {
			add(where+".path", fmt.Sprintf("%s: path %q is not a valid pattern", where, s.Path))
		}
	}
	for _, list := range []struct {
		key     string
		folders []string
	}{{"lint.agent_folders", c.AgentFolders}, {"lint.skill_folders", c.SkillFolders}} {
		for i, f := range list.folders {
			if strings.TrimSpace(f) == "" || path.IsAbs(f) || strings.HasPrefix(f, "..") {
				add(fmt.Sprintf("%s[%d]", list.key, i), fmt.Sprintf("lint: folder %q must be a relative path inside the linted folder", f))
			}
		}
	}
	for i, p := range c.AllowedProviderPrefixes {
		if p == "" || strings.ContainsAny(p, "/ \t") {
			add(fmt.Sprintf("lint.allowed_provider_prefixes[%d]", i), fmt.Sprintf("lint.allowed_provider_prefixes: %q is not a provider prefix (no slashes or spaces)", p))
		}
	}
	switch c.Encoding {
	case "o200k_base", "cl100k_base":
	default:
		add("lint.encoding", fmt.Sprintf("lint.encoding %q is not one of o200k_base, cl100k_base", c.Encoding))
	}
	if c.BodyTokens < 0 {
		add("lint.body_tokens", fmt.Sprintf("lint.body_tokens %d must not be negative", c.BodyTokens))
	}
	if c.MaxLines < 0 {
		add("lint.max_lines", fmt.Sprintf("lint.max_lines %d must not be negative", c.MaxLines))
	}
	if c.IndexBudgetChars < 0 {
		add("lint.index_budget_chars", fmt.Sprintf("lint.index_budget_chars %d must not be negative", c.IndexBudgetChars))
	}
	if c.MaxDepth < 1 || c.MaxDepth > 256 {
		add("lint.max_depth", fmt.Sprintf("lint.max_depth %d is outside 1..256", c.MaxDepth))
	}
	if c.MaxFiles < 1 {
		add("lint.max_files", fmt.Sprintf("lint.max_files %d must be at least 1", c.MaxFiles))
	}
}

// CheckLintRules reports every rule reference of the [lint] section that
// known does not resolve, in file order.
func (c *Config) CheckLintRules(known func(ref string) bool) error {
	p := c.problems()
	for i, ref := range c.Lint.Disable {
		if !known(ref) {
			p.at(fmt.Sprintf("lint.disable[%d]", i), fmt.Sprintf("lint.disable: unknown rule %q", ref))
		}
	}
	for id := range c.Lint.Severity {
		if !known(id) {
			p.at("lint.severity."+keyName(id), fmt.Sprintf("lint.severity: unknown rule %q", id))
		}
	}
	for i, s := range c.Lint.Suppress {
		if !known(s.Rule) {
			p.at(fmt.Sprintf("lint.suppress[%d].rule", i), fmt.Sprintf("lint.suppress[%d]: unknown rule %q", i, s.Rule))
		}
	}
	return p.err()
}

// SuppressionPos returns the line and column of the i-th [[lint.suppress]]
// entry in the configuration file (0, 0 when it cannot be found).
func (c *Config) SuppressionPos(i int) (line, col int) {
	if i < 0 || i >= len(c.Lint.Suppress) || c.src == nil {
		return 0, 0
	}
	off := c.src.locate(fmt.Sprintf("lint.suppress[%d]", i))
	if off < 0 {
		return 0, 0
	}
	return c.src.position(off)
}
