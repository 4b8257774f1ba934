// Command jsonbaseline reads the file named by its argument and decodes it
// with encoding/json into an empty interface. It prints nothing on success;
// it serves as the lower bound for whole-process benchmarks.
//
// It runs its collector as skillopt runs it for validate, transform and
// measure --rules none (internal/gctune): GOGC 300 for inputs up to 8 MiB
// and 100 above, and a soft memory limit of 3 x input + 24 MiB, each
// unless GOGC or GOMEMLIMIT is set. Time and memory ratios against it then
// compare the work done, not two collector settings.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/skillopt/skillopt/internal/gctune"
)

func main() {
	gctune.Start()
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: jsonbaseline FILE")
		return 2
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		fmt.Fprintln(stderr, "jsonbaseline:", err)
		return 1
	}
	gctune.ForInput(len(data), true)
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		fmt.Fprintln(stderr, "jsonbaseline:", err)
		return 1
	}
	return 0
}
