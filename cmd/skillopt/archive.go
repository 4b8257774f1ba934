package main

import "github.com/urfave/cli/v2"

func archiveCommand(e *env) *cli.Command {
	return &cli.Command{Name: "archive", Usage: "read and verify archived originals", Hidden: true}
}

func sanitizeCommand(e *env) *cli.Command {
	return &cli.Command{Name: "sanitize", Usage: "sanitize final assistant output", Hidden: true}
}
