// Command skillopt measures, validates, transforms and checks captured LLM
// provider requests, and lints skill repositories.
package main

import (
	"os"

	"github.com/skillopt/skillopt/internal/commands"
	"github.com/skillopt/skillopt/internal/gctune"
)

func main() {
	gctune.Start()
	os.Exit(commands.Main(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
