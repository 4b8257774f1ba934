package main

import "github.com/urfave/cli/v2"

func lintCommand(e *env) *cli.Command {
	return &cli.Command{Name: "lint", Usage: "lint skill folders and agent definitions", Hidden: true}
}
