// Command skillopt measures, validates, transforms and checks captured LLM
// provider requests, and lints skill repositories.
package main

import (
	"os"
	"runtime/debug"
)

func main() {
	// skillopt is a short batch process whose live heap is a few times its
	// input: collecting less often saves more time than it costs memory.
	// GOGC, when set, still decides.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(300)
	}
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
