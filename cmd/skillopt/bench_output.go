package main

import "github.com/urfave/cli/v2"

func benchOutputCommand(e *env) *cli.Command {
	return &cli.Command{Name: "output", Usage: "output-reduction benchmark"}
}
