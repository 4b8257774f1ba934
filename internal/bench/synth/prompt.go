package synth

import (
	"encoding/json"
	"strings"
)

// SkillsPreamble is the first line of the skills section; catalog detectors
// key on it.
const SkillsPreamble = "The following skills provide specialized instructions for specific tasks."

const promptHead = `You are a careful software engineering assistant running inside a terminal-based coding agent. You work in the user's repository by reading files, running shell commands, editing code and creating new files.

Tools you can call:
- read: show the contents of a file
- bash: run a shell command in the working directory
- edit: replace exact snippets of text in an existing file
- write: create a file or replace its whole contents

Projects may register extra tools; they are described in the tool list you receive.

Working rules:
- Look before you change: read the relevant files and search the tree with bash (rg, find, ls) first.
- Prefer read over cat, head or sed when you need to see a file.
- Keep each edit small and make sure its oldText occurs exactly once in the file.
- Group several changes to one file into a single edit call with multiple entries.
- Only use write for new files or when the whole file really has to be replaced.
- Run the project's tests or linters after a change when they exist.
- Answer briefly and always name the files you touched.`

const skillsIntro = SkillsPreamble + `
When a request fits a skill's description, open its SKILL.md with the read tool before starting.
Paths mentioned inside a skill file are relative to that skill's own directory; turn them into absolute paths before using them in commands.`

const (
	promptDate = "2026-11-30"
	workDir    = "/home/dev/src/ledgerd"
	promptTail = "\nCurrent date: " + promptDate + "\nCurrent working directory: " + workDir
)

// entryOverhead is the length of the fixed markup around one catalog entry.
const entryOverhead = len("  <skill>\n    <name></name>\n    <description></description>\n    <location></location>\n  </skill>\n")

// promptLen estimates len(SystemPrompt(skills)), ignoring XML escapes.
func promptLen(skills []Skill) int {
	n := len(promptHead) + len(promptTail)
	if len(skills) > 0 {
		n += len("\n\n" + skillsIntro + "\n\n<available_skills>\n</available_skills>")
	}
	for i := range skills {
		s := &skills[i]
		n += entryOverhead + len(s.Name) + len(s.Description) + len(s.Location)
	}
	return n
}

var xmlEscaper = strings.NewReplacer(
	"&", "&amp;",
	"<", "&lt;",
	">", "&gt;",
	`"`, "&quot;",
	"'", "&apos;",
)

// toolDef is a provider-neutral tool definition.
type toolDef struct {
	Name        string
	Description string
	Schema      json.RawMessage
}

var tools = []toolDef{
	{
		Name:        "read",
		Description: "Return the contents of a file. Text output is cut at 2000 lines or 50KB, whichever comes first; pass offset and limit to page through larger files. Images (png, jpg, gif, webp) are attached instead of printed.",
		Schema:      json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"File to read, absolute or relative to the working directory"},"offset":{"type":"number","description":"First line to return (1-based)"},"limit":{"type":"number","description":"How many lines to return at most"}},"required":["path"]}`),
	},
	{
		Name:        "bash",
		Description: "Run a command with bash in the working directory and return its combined stdout and stderr. Long output keeps only the last 2000 lines or 50KB. A non-zero exit status is reported as an error. Pass timeout to stop commands that may hang.",
		Schema:      json.RawMessage(`{"type":"object","properties":{"command":{"type":"string","description":"Shell command line to run"},"timeout":{"type":"number","description":"Seconds before the command is killed (optional; no limit by default)"}},"required":["command"]}`),
	},
	{
		Name:        "edit",
		Description: "Change an existing file by exact text substitution. Each entry in edits names an oldText that must appear exactly once in the original file and the newText that replaces it. All entries are matched against the file as it was before the call, so they must not overlap. Put several changes to the same file into one call.",
		Schema:      json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"File to change, absolute or relative to the working directory"},"edits":{"type":"array","description":"Replacements applied together in one call","items":{"type":"object","properties":{"oldText":{"type":"string","description":"Text to find; it must be unique in the file and must not overlap another entry"},"newText":{"type":"string","description":"Text that takes its place"}},"required":["oldText","newText"],"additionalProperties":false}}},"required":["path","edits"],"additionalProperties":false}`),
	},
	{
		Name:        "write",
		Description: "Create a file with the given content, or overwrite it if it already exists. Missing parent directories are created.",
		Schema:      json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"File to write, absolute or relative to the working directory"},"content":{"type":"string","description":"Full content of the file"}},"required":["path","content"]}`),
	},
}
