package main

import "github.com/urfave/cli/v2"

func toolsCommand(e *env) *cli.Command {
	return &cli.Command{Name: "tools", Usage: "search a capture's deferred tools", Hidden: true}
}
