package commands

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/catalog"
	catrender "github.com/skillopt/skillopt/catalog/render"
	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/internal/skillsource"
	"github.com/skillopt/skillopt/internal/suggest"
	"github.com/skillopt/skillopt/transform/catalogrules"
)

// sourceFlags select where a catalog comes from.
func sourceFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "skills", Usage: "skill folder to read (repeatable; default: catalog.skills of skillopt.toml)"},
		&cli.StringFlag{Name: "from", Usage: "read the catalog embedded in this `CAPTURE` instead"},
		&cli.StringFlag{Name: "profile", Usage: "card profile (default: catalog.profile of skillopt.toml)"},
	}
}

// snapshot builds the catalog selected by the source flags, with the card
// profile when one is configured.
func (e *env) snapshot(c *cli.Context) (*catalog.Snapshot, string, time.Duration, error) {
	return e.buildSnapshot(c, true)
}

// snapshotNoProfile builds the catalog without cards.
func (e *env) snapshotNoProfile(c *cli.Context) (*catalog.Snapshot, string, time.Duration, error) {
	return e.buildSnapshot(c, false)
}

func (e *env) buildSnapshot(c *cli.Context, withProfile bool) (*catalog.Snapshot, string, time.Duration, error) {
	start := time.Now()
	o := skillsource.Options{From: c.String("from"), Stdin: e.stdin, Exclude: e.catalogSettings().Exclude}
	if o.From == "" {
		o.Roots = c.StringSlice("skills")
		if len(o.Roots) == 0 {
			for _, r := range e.catalogSettings().Skills {
				o.Roots = append(o.Roots, e.cfg.Resolve(r))
			}
		}
		if len(o.Roots) == 0 {
			return nil, "", 0, usageErr("no skills: pass --skills PATH or --from CAPTURE, or set catalog.skills")
		}
	}
	if withProfile {
		if o.Profile = c.String("profile"); o.Profile == "" {
			o.Profile = e.cfg.Resolve(e.catalogSettings().Profile)
		}
	}
	snap, source, problems, err := skillsource.Build(o)
	for _, err := range problems {
		switch {
		case catalog.IsWarning(err):
			// The catalog is complete: the exit code is the answer's,
			// for every catalog command.
			if !e.quiet {
				fmt.Fprintln(e.stderr, escape.Wrap("skillopt: warning: ", err.Error(), e.width(e.stderr)))
			}
		case e.wholeCatalog || skillsource.IsInputError(err):
			// An unreadable skill, or any problem when the result
			// describes the whole catalog (build, search, browse): exit
			// 2 at the end, as lint; the other skills are used.
			e.warnInput(err)
		case !e.quiet:
			printErr(e.stderr, err)
		}
	}
	if err != nil {
		// The error names the file already.
		return nil, "", 0, &exitError{code: exitUsage, err: err}
	}
	return snap, source, time.Since(start), nil
}

func catalogCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "catalog",
		Usage: "build, search, browse and load skill catalogs",
		Description: "Works on a catalog read from skill folders (--skills PATH, repeatable) or from the\n" +
			"native catalog inside a capture (--from CAPTURE). With a card profile (--profile or\n" +
			"catalog.profile) skills carry tags and cards; without one every skill is unclassified.\n\n" +
			"Examples:\n" +
			"  skillopt catalog build --skills ~/.pi/agent/skills\n" +
			"  skillopt catalog search \"fill a pdf form\" --skills skills/\n" +
			"  skillopt catalog browse --tags testing,debugging --match any --skills skills/\n" +
			"  skillopt catalog load pdf --skills skills/",
		Subcommands: []*cli.Command{
			catalogBuildCommand(e),
			catalogSearchCommand(e),
			catalogBrowseCommand(e),
			catalogLoadCommand(e),
			catalogResourceCommand(e),
			catalogLocationCommand(e),
			catalogInitCommand(e),
			loadoutCommand(e),
		},
	}
}

func catalogBuildCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "build",
		Usage: "build a catalog snapshot and print its counts and fingerprint",
		Description: "The output is the same from run to run for the same skills; --timings adds how\n" +
			"long the snapshot took (snapshot_ms in JSON).\n\n" +
			"Formats: text, json.\n\nExamples:\n" +
			"  skillopt catalog build --skills skills/\n  skillopt catalog build --from capture.json --format json",
		Flags: append(sourceFlags(), &cli.BoolFlag{Name: "timings", Usage: "add how long the snapshot took (snapshot_ms)"}, formats("", "text", "json")),
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			e.wholeCatalog = true
			snap, source, took, err := e.snapshot(c)
			if err != nil {
				return err
			}
			var t *time.Duration
			if c.Bool("timings") {
				t = &took
			}
			out := catrender.BuildOf(snap, source, t)
			return e.show(out, func(w io.Writer) error { return catrender.BuildText(w, out) })
		},
	}
}

func catalogSearchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "rank skills for a query (BM25F, exact names, typo recovery)",
		ArgsUsage: "QUERY",
		Description: "Ranks skills by their names and descriptions (BM25F over stemmed words, accents\n" +
			"folded, English, German, French and Spanish function words left out), puts skills named\n" +
			"in the query first, and fuses the lists by reciprocal rank. Unrelated queries (no word\n" +
			"specific to some skill) return nothing rather than weak matches. A name among other\n" +
			"words counts as named when it looks like an identifier (a dash, dot or digit) or few\n" +
			"skills use the word (\"review a manuscript\" does not name the skill review).\n\n" +
			"Typo recovery: a query word of 4 or more letters that matches nothing as written is\n" +
			"corrected to the closest words of the catalog within 1 edit (4-6 letters) or 2 edits (7\n" +
			"or more), counted at half weight (\"vulnerabilty\" finds skills that mention vulnerabilities),\n" +
			"and finds names or dash-separated parts of names at the same distance (\"pdff\" finds\n" +
			"pdf). Swapping two adjacent letters is one edit in words of 6 letters or more (10 for\n" +
			"two edits).\n\n" +
			"Text output: rank, name, why it matched (exact-name, name-typo, lexical) and the\n" +
			"description's first sentence. --format json adds score, the skill's relevance between 0\n" +
			"and 1: 1 for a skill named in the query, otherwise its BM25F score as a share of the best\n" +
			"skill's for the query (0.5 for a skill found only by a misspelt name). The order is the\n" +
			"fused ranking's, which the score does not decide (see docs/search.md).\n\n" +
			"--usage reads execution traces and Pi sessions (files or folders) as usage evidence:\n" +
			"each skill run is one use, counting half after 14 days; among the skills that match the\n" +
			"query nearly as well as the best (0.9 of its score), the most used rank higher.\n\n" +
			"Formats: text, json.\n\n" +
			"Examples:\n  skillopt catalog search \"release notes\" --skills skills/ --limit 5\n" +
			"  skillopt catalog search \"release notes\" --skills skills/ --usage ~/.pi/agent/sessions\n" +
			"  skillopt catalog search --format json \"fill a pdf form\" --skills skills/",
		Flags: append(sourceFlags(), &cli.IntFlag{Name: "limit", Value: 10, Usage: "most results"}, formats("", "text", "json"),
			&cli.StringSliceFlag{Name: "usage", Usage: "execution trace or Pi session `PATH` (file or folder) read as usage evidence (repeatable)"}),
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			if c.NArg() == 0 {
				return argErr(c, "no QUERY given")
			}
			e.wholeCatalog = true
			snap, _, _, err := e.snapshot(c)
			if err != nil {
				return err
			}
			var usage catalog.Usage
			if paths := c.StringSlice("usage"); len(paths) > 0 {
				var errs []error
				if usage, errs = catalogrules.ReadUsage(paths, time.Now()); len(errs) > 0 {
					return &exitError{code: exitUsage, err: errs[0]}
				}
			}
			res := snap.SearchUsage(strings.Join(c.Args().Slice(), " "), c.Int("limit"), usage)
			return e.show(catrender.SearchJSON(res), func(w io.Writer) error { return catrender.SearchText(w, res) })
		},
	}
}

func catalogBrowseCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "browse",
		Usage: "one page of skill cards by tags (what skill_search answers for a tag query)",
		Description: "With --tags, every skill of the selected tags is a candidate (--match any: in any tag,\n" +
			"all: in every tag) and --query only orders them. Without tags the query filters. Pass\n" +
			"the returned cursor to continue; a cursor from another catalog, tag set or query is\n" +
			"refused.\n\n" +
			"Tags come from a card profile (--profile or catalog.profile; `skillopt catalog init`\n" +
			"makes one). Without one every skill is in \"unclassified\", and other tags are empty.\n\n" +
			"Text output: one line per card (name, tags, card), then the cursor of the next page\n" +
			"and the tag counts of the whole result. --format json prints the page the model reads,\n" +
			"{\"cards\",\"cursor\",\"facets\"}, at most 3,000 characters.\n\n" +
			"The " + fmt.Sprint(len(catalog.Vocabulary)) + " tags (" + catalog.VocabularyVersion + "):\n" + catrender.TagList() + "\n" +
			"Formats: text, json.\n\n" +
			"Examples:\n  skillopt catalog browse --tags testing --skills skills/\n" +
			"  skillopt catalog browse --tags testing,debugging --match all --query flaky --skills skills/\n" +
			"  skillopt catalog browse --format json --tags testing --cursor eyJm... --skills skills/",
		Flags: append(sourceFlags(), formats("", "text", "json"),
			&cli.StringFlag{Name: "tags", Usage: "comma-separated tags"},
			&cli.StringFlag{Name: "match", Value: "any", Usage: "any or all"},
			&cli.StringFlag{Name: "query", Usage: "orders the tag bucket; filters without tags"},
			&cli.StringFlag{Name: "cursor", Usage: "continue from a previous page"},
			&cli.IntFlag{Name: "page-size", Value: catalog.DefaultPageSize, Usage: "most cards per page"},
		),
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			e.wholeCatalog = true
			snap, _, _, err := e.snapshot(c)
			if err != nil {
				return err
			}
			var tags []string
			if t := c.String("tags"); t != "" {
				tags = strings.Split(t, ",")
			}
			page, data, err := snap.Browse(catalog.BrowseRequest{Tags: tags, Match: c.String("match"), Query: c.String("query"), Cursor: c.String("cursor"), PageSize: c.Int("page-size")})
			if err != nil {
				return usageErr("%w", err)
			}
			why := catrender.BrowseEmpty(snap, page, tags, c.String("query"))
			if e.format == "json" {
				if why != "" && !e.quiet {
					fmt.Fprintf(e.stderr, "skillopt: %s\n", escape.Text(why))
				}
				_, err = fmt.Fprintf(e.stdout, "%s\n", escape.JSON(data))
				return err
			}
			return catrender.BrowseText(e.stdout, page, why, catrender.Options{Color: e.color, Quiet: e.quiet})
		},
	}
}

// hostCommand is a catalog command that prints one thing of one skill for
// a host, byte for byte: want is the arguments it takes (the skill's name
// first) and get what it prints.
func hostCommand(e *env, cmd *cli.Command, want string, get func(snap *catalog.Snapshot, args []string) ([]byte, error)) *cli.Command {
	n := len(strings.Fields(want))
	cmd.ArgsUsage = want
	cmd.Flags = append(sourceFlags(), formats("", "text"))
	cmd.Action = func(c *cli.Context) error {
		if err := e.setup(c); err != nil {
			return err
		}
		if c.NArg() != n {
			if n == 1 {
				return argErr(c, "want one skill NAME")
			}
			return argErr(c, "want %s", want)
		}
		snap, _, _, err := e.snapshot(c)
		if err != nil {
			return err
		}
		data, err := get(snap, c.Args().Slice())
		if err != nil {
			return lookupErr(err, snap, c.Args().First())
		}
		_, err = e.stdout.Write(data)
		return err
	}
	return cmd
}

// verbatim is the note of the commands whose output is a file's bytes.
const verbatim = "The output is the file's bytes as they are, for a host to read: control characters and\n" +
	"escape sequences in it are not escaped (page it with less to see them).\n\n"

func catalogLoadCommand(e *env) *cli.Command {
	return hostCommand(e, &cli.Command{
		Name:  "load",
		Usage: "print a skill's SKILL.md verbatim",
		Description: "The file must stay inside the folder the skill was found in. A name that several\n" +
			"skills declare is refused with exit 1 and the paths of their files (the catalog a model\n" +
			"sees keeps the first; pass --skills with the folder of the one meant).\n\n" + verbatim +
			"Examples:\n  skillopt catalog load pdf --skills skills/",
	}, "NAME", func(snap *catalog.Snapshot, args []string) ([]byte, error) { return snap.Load(args[0]) })
}

func catalogResourceCommand(e *env) *cli.Command {
	return hostCommand(e, &cli.Command{
		Name:  "resource",
		Usage: "print a file inside a skill's folder verbatim",
		Description: "PATH is relative to the skill's folder and may not leave it.\n\n" + verbatim +
			"Examples:\n  skillopt catalog resource pdf scripts/fill.py --skills skills/",
	}, "NAME PATH", func(snap *catalog.Snapshot, args []string) ([]byte, error) { return snap.Resource(args[0], args[1]) })
}

func catalogLocationCommand(e *env) *cli.Command {
	return hostCommand(e, &cli.Command{
		Name:  "location",
		Usage: "print where a skill's file is",
		Description: "Prints the path as it is, for a host to open: control characters in it are not\n" +
			"escaped.\n\n" +
			"Examples:\n  skillopt catalog location pdf --skills skills/",
	}, "NAME", func(snap *catalog.Snapshot, args []string) ([]byte, error) {
		loc, err := snap.Location(args[0])
		return []byte(loc + "\n"), err
	})
}

// lookupErr reports a failed load, an unknown name included, as a usage
// error; messages carry no filesystem path. An unknown name comes with the
// closest skill name. A name several skills declare is refused with exit 1
// and the files that declare it, as an ambiguous loadout is.
func lookupErr(err error, snap *catalog.Snapshot, name string) error {
	if errors.Is(err, catalog.ErrAmbiguous) {
		return &exitError{code: exitFindings, err: fmt.Errorf("%w (pass --skills with the folder of the one meant)", err)}
	}
	if errors.Is(err, catalog.ErrNotFound) {
		names := make([]string, 0, snap.Len())
		for _, sk := range snap.Skills {
			names = append(names, sk.Name)
		}
		if c := suggest.Typo(name, names); c != "" {
			err = fmt.Errorf("%w (did you mean %s?)", err, c)
		} else {
			err = fmt.Errorf("%w (`skillopt catalog search` finds skills)", err)
		}
	}
	return &exitError{code: exitUsage, err: err}
}

// catalogSettings returns the configured [catalog] settings.
func (e *env) catalogSettings() *catalogrules.Settings { return catalogrules.FromSet(e.cfg.Options) }
