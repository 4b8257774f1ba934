package config

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/skillopt/skillopt/internal/atomicfile"
	"github.com/skillopt/skillopt/internal/untrusted"
	"github.com/skillopt/skillopt/rules"
)

// TOMLString writes s as a TOML basic string.
func TOMLString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

var (
	tomlHeader = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[ \t]*\[`) })
	// A string value on its own line, with an optional comment.
	tomlStringLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([ \t]*)([A-Za-z0-9_-]+)([ \t]*=[ \t]*)("(?:[^"\\]|\\.)*"|'[^']*')([ \t]*(?:#.*)?)$`)
	})
)

// SetString sets key = value (a string) in [table] of a TOML document,
// keeping every other byte: an existing string value is replaced (its
// comment kept), a missing key is added after the table's header, a
// missing table is appended. ok is false when the document defines the
// key or table in a way this does not edit (dotted keys, inline tables,
// a value that is not a one-line string), or value is not UTF-8.
func SetString(data []byte, table, key, value string) ([]byte, bool) {
	if !utf8.ValidString(value) {
		return nil, false // TOML is UTF-8: such a path cannot be written
	}
	brk := "\n"
	if bytes.Contains(data, []byte("\r\n")) {
		brk = "\r\n"
	}
	lines := strings.SplitAfter(string(data), "\n")
	header := regexp.MustCompile(`^[ \t]*\[[ \t]*` + regexp.QuoteMeta(table) + `[ \t]*\][ \t]*(#.*)?$`)
	dotted := regexp.MustCompile(`^[ \t]*"?` + regexp.QuoteMeta(table) + `"?[ \t]*[.=]`)
	at := -1 // the line of [table]
	inRoot := true
	for i, l := range lines {
		text := strings.TrimRight(l, "\r\n")
		if tomlHeader().MatchString(text) {
			inRoot = false
			if header.MatchString(text) {
				if at >= 0 {
					return nil, false
				}
				at = i
			}
			continue
		}
		if inRoot && dotted.MatchString(text) {
			return nil, false
		}
		if strings.Contains(text, `"""`) || strings.Contains(text, `'''`) {
			return nil, false // multi-line strings: lines are not lines
		}
	}
	line := key + " = " + TOMLString(value) + brk
	if at < 0 {
		out := string(data)
		if out != "" && !strings.HasSuffix(out, "\n") {
			out += brk
		}
		if out != "" {
			out += brk
		}
		return []byte(out + "[" + table + "]" + brk + line), true
	}
	for i := at + 1; i < len(lines); i++ {
		text := strings.TrimRight(lines[i], "\r\n")
		if tomlHeader().MatchString(text) {
			break
		}
		t := strings.TrimSpace(text)
		if !strings.HasPrefix(t, key) {
			continue
		}
		rest := strings.TrimLeft(t[len(key):], " \t")
		if !strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, ".") {
			continue
		}
		m := tomlStringLine().FindStringSubmatch(text)
		if m == nil || m[2] != key {
			return nil, false
		}
		lines[i] = m[1] + m[2] + m[3] + TOMLString(value) + m[5] + lines[i][len(text):]
		return []byte(strings.Join(lines, "")), true
	}
	if !strings.HasSuffix(lines[at], "\n") {
		lines[at] += brk
	}
	lines[at] += line
	return []byte(strings.Join(lines, "")), true
}

// EditString sets [table] key = value in the configuration file at path,
// atomically, after checking that the edited file still loads with b and
// that says reports it says what was meant.
func EditString(path, table, key, value string, b *rules.Binding, says func(*Config) bool) error {
	data, err := untrusted.ReadFile(path, MaxFileBytes)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	out, ok := SetString(data, table, key, value)
	if !ok {
		return errors.New("the file defines the key in a form that is not edited automatically")
	}
	cfg := Default()
	if err := DecodeWith(path, out, cfg, b); err != nil {
		return err
	}
	if !says(cfg) {
		return errors.New("the edited file does not set the key")
	}
	if err := atomicfile.WriteFile(path, out, 0o644); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
