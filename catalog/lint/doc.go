// Package lint holds the skill (SKnnn) and agent-definition (AGnnn) rules
// and the engine that runs them over skill folders, SKILL.md files and
// agent definitions.
//
// A rule is a value: its registry entry (a *rules.Rule of kind rules.Lint
// with its ID, name, severity, documentation and options) paired with a
// check over the unit it reads: one skill file, one agent definition with
// its loadout, the whole run, or the suppressions nothing matched. Rules
// are grouped by topic (frontmatter.go, names.go, description.go,
// fields.go, body.go, references.go, repo.go, agents.go, suppress.go);
// Rules lists them in registry order.
//
// Run takes its configuration from the caller: the configured options
// (the [lint] Settings and each rule's own options) and the severities
// resolved by the registry (see Levels).
package lint
