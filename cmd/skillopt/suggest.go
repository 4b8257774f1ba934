package main

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"
)

// closest returns the candidate nearest to s when it is near enough to be
// a typo: within an edit distance of a third of its length (at least 1,
// at most 3), or a unique prefix of at least three letters. "" when none.
func closest(s string, candidates []string) string {
	low := strings.ToLower(s)
	best, bestD := "", min(max(1, len([]rune(low))/3), 3)+1
	var prefixed []string
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if lc == low {
			return c
		}
		if len(low) >= 3 && strings.HasPrefix(lc, low) {
			prefixed = append(prefixed, c)
		}
		if d := editDistance(low, lc); d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" && len(prefixed) == 1 {
		return prefixed[0]
	}
	return best
}

// editDistance is the Levenshtein distance of a and b in code points, a
// swap of two neighbours counting one.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// didYouMean is " (did you mean X?)" for the closest candidate, or "".
func didYouMean(s string, candidates []string) string {
	if c := closest(s, candidates); c != "" {
		return fmt.Sprintf(" (did you mean %s?)", c)
	}
	return ""
}

// commandNames lists the names and aliases of commands.
func commandNames(cmds []*cli.Command) []string {
	var out []string
	for _, c := range cmds {
		if !c.Hidden {
			out = append(out, c.Names()...)
		}
	}
	return out
}

// flagErr matches the flag parser's messages, which name every flag with
// one dash whatever was typed.
var flagErr = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(flag provided but not defined:|flag needs an argument:|invalid value "(?:[^"\\]|\\.)*" for flag|invalid boolean value "(?:[^"\\]|\\.)*" for) -([A-Za-z0-9][A-Za-z0-9_-]*)(.*)$`)
})

// flagError rewrites a flag parser error with the flag spelled as it was
// typed (--select, not -select) and, for an unknown flag, the closest flag
// of the command.
func flagError(err error, args []string, flags []cli.Flag) string {
	msg := err.Error()
	m := flagErr().FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	name := m[2]
	typed := "--" + name
	if len(name) == 1 {
		typed = "-" + name
	}
	for _, a := range args {
		if a == "-"+name || strings.HasPrefix(a, "-"+name+"=") {
			typed = "-" + name
		}
		if a == "--"+name || strings.HasPrefix(a, "--"+name+"=") {
			typed = "--" + name
			break
		}
	}
	out := m[1] + " " + typed + m[3]
	if m[1] == "flag provided but not defined:" {
		var names []string
		for _, f := range flags {
			for _, n := range f.Names() {
				if len(n) > 1 {
					names = append(names, n)
				}
			}
		}
		if c := closest(name, names); c != "" {
			out += fmt.Sprintf(" (did you mean --%s?)", c)
		}
	}
	return out
}
