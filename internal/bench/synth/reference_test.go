package synth

import "strings"

// SystemPrompt returns the full system prompt for skills: a fixed head, the
// skills section (omitted when there are no skills), the date and the
// working directory.
func SystemPrompt(skills []Skill) string {
	var sb strings.Builder
	sb.Grow(promptLen(skills) * 21 / 20)
	sb.WriteString(promptHead)
	if len(skills) > 0 {
		sb.WriteString("\n\n")
		sb.WriteString(skillsIntro)
		sb.WriteString("\n\n")
		writeCatalog(&sb, skills)
	}
	sb.WriteString(promptTail)
	return sb.String()
}

// Catalog returns the <available_skills> block for skills.
func Catalog(skills []Skill) string {
	var sb strings.Builder
	writeCatalog(&sb, skills)
	return sb.String()
}

func writeCatalog(sb *strings.Builder, skills []Skill) {
	sb.WriteString("<available_skills>\n")
	for i := range skills {
		s := &skills[i]
		sb.WriteString("  <skill>\n    <name>")
		xmlEscaper.WriteString(sb, s.Name)
		sb.WriteString("</name>\n    <description>")
		xmlEscaper.WriteString(sb, s.Description)
		sb.WriteString("</description>\n    <location>")
		xmlEscaper.WriteString(sb, s.Location)
		sb.WriteString("</location>\n  </skill>\n")
	}
	sb.WriteString("</available_skills>")
}

// EscapeXML escapes the five XML-special characters the way the catalog
// writer does.
func EscapeXML(s string) string { return xmlEscaper.Replace(s) }
