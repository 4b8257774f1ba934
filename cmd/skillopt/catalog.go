package main

import "github.com/urfave/cli/v2"

func catalogCommand(e *env) *cli.Command {
	return &cli.Command{Name: "catalog", Usage: "build, search, browse and load skill catalogs", Hidden: true}
}
