package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/schemas"
)

type validateError struct {
	Pointer string `json:"pointer"`
	Message string `json:"message"`
}

type validateRow struct {
	Name     string          `json:"name"`
	Provider string          `json:"provider"`
	Reason   string          `json:"reason"`
	Valid    bool            `json:"valid"`
	Errors   []validateError `json:"errors"`
}

func validateCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "check captures against the JSON Schema of their provider",
		ArgsUsage: "CAPTURE...",
		Description: "Detects each capture's provider (or takes --provider) and validates the body against\n" +
			"skillopt's embedded schema for that provider. Every error is a JSON Pointer and a\n" +
			"message. Every input is reported; exit 1 if any capture is invalid, 2 if any input\n" +
			"could not be read (2 wins).\n\n" +
			"Formats: text, json.\n\n" +
			"Examples:\n" +
			"  skillopt validate capture.json\n" +
			"  skillopt validate --format json --provider mistral body.json",
		Flags: []cli.Flag{providerFlag()},
		Action: func(c *cli.Context) error {
			if err := e.setup(c, "text", "json"); err != nil {
				return err
			}
			files, err := e.readCaptures(c)
			if err != nil {
				return err
			}
			rows := []validateRow{}
			invalid := false
			for _, f := range files {
				for _, capt := range f.Captures {
					errs, err := schemas.ValidateDoc(string(capt.Provider), capt.Doc)
					if err != nil {
						e.warnInput(fmt.Errorf("%s: %v", capt.Name, err))
						continue
					}
					row := validateRow{Name: capt.Name, Provider: string(capt.Provider), Reason: capt.Reason, Valid: len(errs) == 0, Errors: []validateError{}}
					for _, se := range errs {
						row.Errors = append(row.Errors, validateError{Pointer: se.Pointer, Message: se.Message})
					}
					invalid = invalid || !row.Valid
					rows = append(rows, row)
				}
			}
			if e.format == "json" {
				if err := writeJSON(e, struct {
					Captures []validateRow `json:"captures"`
				}{rows}); err != nil {
					return err
				}
			} else {
				for _, r := range rows {
					if r.Valid {
						if !e.quiet {
							fmt.Fprintf(e.stdout, "%s: %s (%s)\n", r.Name, e.paint(green, "valid "+r.Provider), r.Reason)
						}
						continue
					}
					fmt.Fprintf(e.stdout, "%s: %s, %d error(s)\n", r.Name, e.paint(red, "invalid "+r.Provider), len(r.Errors))
					for _, ve := range r.Errors {
						p := ve.Pointer
						if p == "" {
							p = "(root)"
						}
						fmt.Fprintf(e.stdout, "  %s: %s\n", p, ve.Message)
					}
				}
			}
			if invalid {
				return e.finish(findings)
			}
			return e.finish(nil)
		},
	}
}

const (
	red    = "31"
	green  = "32"
	yellow = "33"
	bold   = "1"
)

// paint wraps s in an ANSI colour when colour is on.
func (e *env) paint(code, s string) string {
	if !e.color {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}
