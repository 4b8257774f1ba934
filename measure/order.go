package measure

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skillopt/skillopt/capture"
)

// NaturalOrder puts the files found in each directory argument in natural
// name order ("turn-2" before "turn-10"); files named directly keep the
// order they were given in.
func NaturalOrder(files []*capture.File, args []string) {
	group := func(f *capture.File) int {
		for i, a := range args {
			if a == f.Name || a == "-" && f.Name == "<stdin>" {
				return i
			}
			if st, err := os.Stat(a); err == nil && st.IsDir() {
				rel, err := filepath.Rel(a, f.Name)
				if err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
					return i
				}
			}
		}
		return len(args)
	}
	groups := make(map[*capture.File]int, len(files))
	for _, f := range files {
		groups[f] = group(f)
	}
	sort.SliceStable(files, func(i, j int) bool {
		gi, gj := groups[files[i]], groups[files[j]]
		if gi != gj {
			return gi < gj
		}
		return naturalLess(files[i].Name, files[j].Name)
	})
}

// naturalLess compares names with runs of digits compared as numbers.
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			if da != db {
				return da < db
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}
