package lint

// Rules about white space at the ends of lines and of the file.

import (
	"bytes"
	"unicode/utf8"

	"github.com/skillopt/skillopt/rules"
)

var trailingWhitespace = &Rule{
	Rule: &rules.Rule{ID: "SK063", Name: "trailing-whitespace", Kind: rules.Lint, Severity: rules.Info,
		Title: "Lines end with white space",
		Why:   "Trailing white space changes nothing a reader sees but makes diffs noisier, and in the frontmatter it hides inside values.",
		Since: rules.FirstVersion,
		Doc: "Lines end with spaces or tabs. They change nothing a reader sees but make every diff of the line noisier, and in the frontmatter they hide inside values. " +
			"Two spaces after text in the body are a markdown line break and are kept. One finding per file, at the first such line; --fix removes them all."},
	Skill: func(p *Pass, u *Skill) {
		if u.notSkill || u.doc == nil {
			return
		}
		d := u.doc
		var edits []Edit
		firstLine, firstCol := 0, 0
		inFence := false
		var fence []byte
		off := 0
		for l := 1; off < len(d.Raw); l++ {
			end, brk := lineEnd(d.Raw, off)
			text := d.Raw[off:end]
			body := d.CloseLine == 0 || l > d.CloseLine
			if body {
				t := bytes.TrimLeft(text, " ")
				switch {
				case inFence && bytes.HasPrefix(t, fence) && len(bytes.TrimSpace(bytes.TrimLeft(t, string(fence[:1])))) == 0:
					inFence = false
				case !inFence && (bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~"))):
					k := 0
					for k < len(t) && t[k] == t[0] {
						k++
					}
					inFence, fence = true, append([]byte(nil), t[:k]...)
				}
			}
			trimmed := bytes.TrimRight(text, " \t")
			if n := len(text) - len(trimmed); n > 0 {
				// A markdown hard break: exactly two spaces after text.
				hardBreak := body && !inFence && len(bytes.TrimSpace(trimmed)) > 0 && n == 2 && text[len(text)-1] == ' ' && text[len(text)-2] == ' '
				if !hardBreak {
					if firstLine == 0 {
						firstLine, firstCol = l, utf8.RuneCount(bytes.TrimPrefix(trimmed, bom))+1
					}
					edits = append(edits, Edit{off + len(trimmed), end, ""})
				}
			}
			off = end + len(brk)
			if brk == "" {
				break
			}
		}
		switch len(edits) {
		case 0:
			return
		case 1:
			p.Report(rules.Info, u.src.Path, firstLine, firstCol, "line ends with spaces or tabs")
		default:
			p.Report(rules.Info, u.src.Path, firstLine, firstCol, "%d lines end with spaces or tabs (the first is here)", len(edits))
		}
		p.Fix(&Fix{Edits: edits})
	},
}

var finalNewline = &Rule{
	Rule: &rules.Rule{ID: "SK064", Name: "final-newline", Kind: rules.Lint, Severity: rules.Info,
		Title: "The file does not end with exactly one newline",
		Why:   "A missing final newline joins lines when tools append, and trailing blank lines are noise in every diff.",
		Since: rules.FirstVersion,
		Doc:   "The file does not end with exactly one line break: the last line has none (tools that append to the file join two lines, and diffs mark it), or blank lines follow the last text. --fix leaves one line break."},
	Skill: func(p *Pass, u *Skill) {
		if u.notSkill || u.doc == nil || len(u.doc.Raw) == 0 {
			return
		}
		data := u.doc.Raw
		if last := data[len(data)-1]; last != '\n' && last != '\r' {
			p.Report(rules.Info, u.src.Path, u.doc.Lines(), 1, "the last line has no line break")
			p.Fix(&Fix{Edits: []Edit{{len(data), len(data), lineBreak(data)}}})
			return
		}
		// Lines of nothing but white space at the end.
		n := u.doc.Lines()
		blank := 0
		for l := n; l >= 1 && len(bytes.TrimSpace(u.doc.Line(l))) == 0; l-- {
			blank++
		}
		if blank == 0 || blank == n {
			return
		}
		keep := u.doc.LineStart(n - blank + 1)
		if blank == 1 {
			p.Report(rules.Info, u.src.Path, n, 1, "a blank line ends the file")
		} else {
			p.Report(rules.Info, u.src.Path, n-blank+1, 1, "%d blank lines end the file", blank)
		}
		p.Fix(&Fix{Edits: []Edit{{keep, len(data), ""}}})
	},
}
