package route

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Prefix builds the sub-agent system prompt of a skill: its instructions
// (the SKILL.md body after the frontmatter), then, each after a blank line
// and only when not empty, the router's retrieval directive and the
// appendix. The directive is the router's own text; skillopt does not ship
// it, so the caller passes it (empty gives the skill's part alone, which is
// enough to notice a change to the skill).
// Instructions and appendix lose their surrounding white space, as the
// router trims them. Nothing of the run (model, tier, brief) enters it, so
// the same skill and appendix always give the same bytes.
func Prefix(instructions, appendix, directive string) string {
	var b strings.Builder
	b.WriteString(trimJS(instructions))
	if directive != "" {
		b.WriteString("\n\n")
		b.WriteString(directive)
	}
	if a := trimJS(appendix); a != "" {
		b.WriteString("\n\n")
		b.WriteString(a)
	}
	return b.String()
}

// PrefixHash is what the router logs of a prefix: its SHA-256 and its
// length in bytes, never the text.
type PrefixHash struct {
	SHA256 string `json:"sha256"`
	Bytes  int    `json:"bytes"`
}

// Hash returns the SHA-256 (hex) and byte length of a prefix.
func Hash(prefix string) PrefixHash {
	sum := sha256.Sum256([]byte(prefix))
	return PrefixHash{SHA256: hex.EncodeToString(sum[:]), Bytes: len(prefix)}
}

// trimJS trims what JavaScript's String.prototype.trim trims: Unicode white
// space, line terminators and the byte-order mark.
func trimJS(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		switch r {
		case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
			return true
		}
		return r >= 0x2000 && r <= 0x200A
	})
}
