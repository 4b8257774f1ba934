package commands

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/internal/untrusted"
	"github.com/skillopt/skillopt/route"
)

func routeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "route",
		Usage:     "the model, source, reason and context budget a /skill router would give a run",
		ArgsUsage: "SKILL.md",
		Description: "Decides, offline, what the /skill sub-agent router decides before a run: the model\n" +
			"(SKILL.md model: through the translation table, defaultProvider and\n" +
			"allowedProviderPrefixes, or the adaptive cheap / balanced / frontier pool with the\n" +
			"preference, the safety floors, the missing-pool chains and skillModelPolicy), where\n" +
			"it came from, why, and the overflow ceiling of the run (contextBudgets).\n\n" +
			"The Judge's classification is given by flags; left out, it is the router's default\n" +
			"(balanced, medium, unknown risk, confidence 0, passed). The settings are the\n" +
			"auggieRouter block of --settings FILE, else of the nearest .pi/settings.json from the\n" +
			"working directory up to the repository root, else the built-in defaults.\n\n" +
			"--prefix-hash prints the SHA-256 and byte length of the sub-agent system prompt the\n" +
			"skill gives (its body, the retrieval directive and --appendix), which a provider's\n" +
			"prompt cache keys on: a CI job that stores it sees an accidental change.\n\n" +
			"Exit codes: 0 decided, 1 the allow-list refuses the model the run would use (the\n" +
			"router aborts), 2 bad flags, an unreadable SKILL.md or bad settings (file:line:col).\n\n" +
			"Formats: text (the execution message, then source, reason, budget), json\n" +
			"({\"skill\",\"file\",\"model\",\"tier\",\"source\",\"reason\",\"message\",\"judgement\",\"budget\",\n" +
			"\"settings\"}; with --prefix-hash {\"skill\",\"file\",\"sha256\",\"bytes\"}).\n\n" +
			"Examples:\n" +
			"  skillopt route .pi/skills/refactor/SKILL.md\n" +
			"  skillopt route SKILL.md --tier cheap --complexity medium --risk small_edit --confidence 0.82\n" +
			"  skillopt route SKILL.md --risk unknown --judge-passed=false --settings team/settings.json\n" +
			"  skillopt route SKILL.md --format json\n" +
			"  skillopt route --prefix-hash SKILL.md",
		Flags: []cli.Flag{
			formats("", "text", "json"),
			&cli.StringFlag{Name: "tier", Value: string(route.DefaultJudgement.Tier), Usage: "the Judge's tier: cheap, balanced or frontier"},
			&cli.StringFlag{Name: "complexity", Value: string(route.DefaultJudgement.Complexity), Usage: "the Judge's complexity: low, medium or high"},
			&cli.StringFlag{Name: "risk", Value: string(route.DefaultJudgement.Risk), Usage: "the Judge's risk: read_only, small_edit, multi_file_edit, architecture_change or unknown"},
			&cli.Float64Flag{Name: "confidence", Value: route.DefaultJudgement.Confidence, Usage: "the Judge's confidence, 0..1"},
			&cli.BoolFlag{Name: "judge-passed", Value: true, Usage: "whether the brief passed the Judge (false: a question was needed; balanced at least)"},
			&cli.StringFlag{Name: "settings", Usage: "the Pi settings file whose auggieRouter block to use (default: the nearest .pi/settings.json)"},
			&cli.BoolFlag{Name: "prefix-hash", Usage: "print the SHA-256 and byte length of the sub-agent prompt prefix instead"},
			&cli.StringFlag{Name: "appendix", Usage: "with --prefix-hash: a file whose text the host appends to the prefix"},
			&cli.StringFlag{Name: "directive", Usage: "with --prefix-hash: a file holding the router's retrieval directive, to reproduce the bytes it sends"},
		},
		Action: func(c *cli.Context) error {
			if err := e.options(c); err != nil {
				return err
			}
			if c.NArg() != 1 {
				return argErr(c, "want one SKILL.md, got %d arguments", c.NArg())
			}
			path := c.Args().First()
			data, err := catalog.ReadSkillFile(path, nil)
			if err != nil {
				return &exitError{code: exitUsage, err: fmt.Errorf("%s: %w", path, err)}
			}
			doc, err := catalog.ParseSkillDoc(path, data)
			if de := (*catalog.DocError)(nil); errors.As(err, &de) && de.Kind != catalog.ErrNoFrontmatter {
				return &exitError{code: exitUsage, err: err}
			}
			skill := catalog.FolderName(path)
			if c.Bool("prefix-hash") {
				return routePrefixHash(e, c, path, skill, doc)
			}
			return routeDecide(e, c, path, skill, doc)
		},
	}
}

// routeDecide decides the run of one skill and prints the decision, or the
// refusal of the allow-list (exit 1).
func routeDecide(e *env, c *cli.Context, path, skill string, doc *catalog.SkillDoc) error {
	for _, f := range []string{"appendix", "directive"} {
		if c.IsSet(f) {
			return argErr(c, "--%s goes with --prefix-hash", f)
		}
	}
	j := route.Judgement{
		Tier:       route.Tier(c.String("tier")),
		Complexity: route.Complexity(c.String("complexity")),
		Risk:       route.Risk(c.String("risk")),
		Confidence: c.Float64("confidence"),
		Passed:     c.Bool("judge-passed"),
	}
	if err := j.Check(); err != nil {
		return argErr(c, "%v", err)
	}
	settingsPath, s, err := routerSettings(e, c.String("settings"))
	if err != nil {
		return err
	}
	model := ""
	if f := doc.Field("model"); f != nil && catalog.IsString(f.Node) {
		model = f.Node.Value
	}
	res, refusal, err := route.Decide(s, settingsPath, skill, path, model, j)
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	if refusal != nil {
		if e.format == "json" {
			if err := writeJSON(e, refusal); err != nil {
				return err
			}
			return findings
		}
		return &exitError{code: exitFindings, err: refusal.Err()}
	}
	return e.show(res, func(w io.Writer) error { return res.WriteText(w) })
}

func routePrefixHash(e *env, c *cli.Context, path, skill string, doc *catalog.SkillDoc) error {
	read := func(flag string) (string, bool, error) {
		name := c.String(flag)
		if name == "" {
			return "", false, nil
		}
		b, err := untrusted.ReadFile(name, catalog.MaxSkillFileBytes)
		if err != nil {
			return "", false, &exitError{code: exitUsage, err: fmt.Errorf("--%s %s: %w", flag, name, err)}
		}
		return string(b), true, nil
	}
	appendix, _, err := read("appendix")
	if err != nil {
		return err
	}
	directive, _, err := read("directive")
	if err != nil {
		return err
	}
	h := route.SkillHash{Skill: skill, File: path, PrefixHash: route.Hash(route.Prefix(string(doc.Body), appendix, strings.TrimRight(directive, "\r\n")))}
	return e.show(h, func(w io.Writer) error { return h.WriteText(w) })
}

// routerSettings reads the router's settings: explicit, else the nearest
// .pi/settings.json from the working directory up to the repository root
// or home folder, else the defaults (path ""). Bad settings end the run
// with exit code 2, one line per problem.
func routerSettings(e *env, explicit string) (string, *route.Settings, error) {
	path := explicit
	if path == "" {
		wd, _ := os.Getwd()
		path = route.FindSettings(wd)
		if path == "" {
			return "", route.Defaults(), nil
		}
	}
	s, err := route.ReadSettings(path)
	if err != nil {
		var es route.Errors
		if !errors.As(err, &es) {
			return "", nil, &exitError{code: exitUsage, err: err}
		}
		for _, one := range es {
			printErr(e.stderr, one)
		}
		return "", nil, &exitError{code: exitUsage}
	}
	return path, s, nil
}
