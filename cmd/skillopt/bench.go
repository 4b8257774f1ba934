package main

import "github.com/urfave/cli/v2"

func benchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "bench",
		Usage: "run the catalog, output and tool benchmarks",
		Subcommands: []*cli.Command{
			benchCatalogCommand(e),
			benchOutputCommand(e),
			benchToolsCommand(e),
		},
		Hidden: true,
	}
}

func benchCatalogCommand(e *env) *cli.Command {
	return &cli.Command{Name: "catalog", Usage: "catalog benchmark"}
}
