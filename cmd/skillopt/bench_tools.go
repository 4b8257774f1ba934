package main

import "github.com/urfave/cli/v2"

func benchToolsCommand(e *env) *cli.Command {
	return &cli.Command{Name: "tools", Usage: "tool-deferral benchmark"}
}
