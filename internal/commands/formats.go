package commands

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// formatFlag is the --format flag of a command and the formats the
// command supports, the first its default. Its help and the completion
// scripts list them, and options refuses any other.
type formatFlag struct {
	*cli.StringFlag
	formats []string
}

// allFormats orders the formats in every list.
var allFormats = []string{"text", "json", "markdown", "sarif", "github", "html", "jsonl"}

// formats is the --format flag of a command that supports the given
// formats; note, when not empty, says when a format applies.
func formats(note string, fs ...string) *formatFlag {
	usage := "output format: " + orList(fs)
	if note != "" {
		usage += " (" + note + ")"
	}
	return &formatFlag{StringFlag: &cli.StringFlag{Name: "format", Value: fs[0], Usage: usage}, formats: fs}
}

// orList joins words as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// formatsOf is the formats a command supports: those of its own --format
// flag, else (a command that only groups others) those of the commands
// below it, in the order of allFormats.
func formatsOf(cmd *cli.Command) []string {
	for _, f := range cmd.Flags {
		if ff, ok := f.(*formatFlag); ok {
			return ff.formats
		}
	}
	var all []string
	for _, s := range cmd.Subcommands {
		all = append(all, formatsOf(s)...)
	}
	return ordered(all)
}

// ordered is the formats named in fs, once each, in the order of
// allFormats.
func ordered(fs []string) []string {
	var out []string
	for _, f := range allFormats {
		if slices.Contains(fs, f) {
			out = append(out, f)
		}
	}
	return out
}

// groupFormats is the --format flag of the program and of the commands
// that group others: the formats of the commands below, each of which
// lists its own.
func groupFormats(fs []string) *formatFlag {
	f := formats("each command lists what it supports", fs...)
	f.Value = "text"
	return f
}
