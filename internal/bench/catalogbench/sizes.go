package catalogbench

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSizes reads a comma-separated list of catalog sizes, each between
// 1 and 1,000,000.
func ParseSizes(s string) ([]int, error) {
	var sizes []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 1_000_000 {
			return nil, fmt.Errorf("bad size %q", f)
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}

// RunSizes measures a synthetic catalog of every size, in order.
func RunSizes(sizes []int, opts Options) ([]Row, error) {
	var rows []Row
	for _, n := range sizes {
		row, err := RunWith(n, opts)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	return rows, nil
}
