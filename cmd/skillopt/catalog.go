package main

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/internal/escape"
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
	var (
		skills []catalog.Skill
		source string
	)
	start := time.Now()
	if from := c.String("from"); from != "" {
		f, err := capture.ReadFile(from, e.stdin, capture.Options{})
		if err != nil {
			return nil, "", 0, &exitError{code: exitUsage, err: err}
		}
		for _, capt := range f.Captures {
			skills = append(skills, catalog.AllSkills(catalog.FromCapture(capt))...)
			if len(skills) > 0 {
				source = capt.Name
				break
			}
		}
		if len(skills) == 0 {
			return nil, "", 0, usageErr("%s: no native skill catalog in the capture", from)
		}
	} else {
		roots := c.StringSlice("skills")
		if len(roots) == 0 {
			for _, r := range e.catalogSettings().Skills {
				roots = append(roots, e.cfg.Resolve(r))
			}
		}
		if len(roots) == 0 {
			return nil, "", 0, usageErr("no skills: pass --skills PATH or --from CAPTURE, or set catalog.skills")
		}
		var errs []error
		skills, errs = catalog.FromDisk(roots)
		for _, err := range errs {
			switch {
			case e.wholeCatalog || isInputError(err):
				// An unreadable skill, or any problem when the result
				// describes the whole catalog (build, search, browse):
				// exit 2 at the end, as lint; the other skills are used.
				e.warnInput(err)
			case !e.quiet:
				printErr(e.stderr, err)
			}
		}
		source = strings.Join(roots, ", ")
	}
	opts := catalog.Options{Exclude: e.catalogSettings().Exclude}
	prof := c.String("profile")
	if prof == "" {
		prof = e.cfg.Resolve(e.catalogSettings().Profile)
	}
	if prof != "" && withProfile {
		p, err := catalog.LoadProfileCached(prof)
		if err != nil {
			// The error names the file already.
			return nil, "", 0, &exitError{code: exitUsage, err: err}
		}
		opts.Profile = p
	}
	snap := catalog.NewSnapshot(skills, opts)
	return snap, source, time.Since(start), nil
}

// isInputError tells the problems of a skill tree that make a catalog
// command exit 2 (a file that cannot be read or is refused, a folder that
// cannot be walked, a missing root, a walk bound) from the skills that are
// merely not loadable (no frontmatter, no description), which a host
// would skip as well.
func isInputError(err error) bool {
	var re *catalog.ReadError
	if errors.As(err, &re) {
		return true
	}
	var we *catalog.WalkError
	return errors.As(err, &we) && we.Kind != catalog.EventCycle
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
		Flags: append(sourceFlags(), &cli.BoolFlag{Name: "timings", Usage: "add how long the snapshot took (snapshot_ms)"}),
		Action: func(c *cli.Context) error {
			if err := e.setup(c, "text", "json"); err != nil {
				return err
			}
			e.wholeCatalog = true
			snap, source, took, err := e.snapshot(c)
			if err != nil {
				return err
			}
			unclassified := len(snap.Bucket(catalog.Unclassified))
			out := struct {
				Source       string `json:"source"`
				Skills       int    `json:"skills"`
				Excluded     int    `json:"excluded"`
				Fingerprint  string `json:"fingerprint"`
				Cards        bool   `json:"cards"`
				Unclassified int    `json:"unclassified"`
				Tags         int    `json:"tags"`
				// SnapshotMS is set with --timings only: the default
				// output depends on the skills alone.
				SnapshotMS *float64 `json:"snapshot_ms,omitempty"`
			}{Source: source, Skills: snap.Len(), Excluded: snap.Excluded, Fingerprint: snap.Fingerprint, Cards: snap.HasCards(), Unclassified: unclassified, Tags: len(snap.TagCounts())}
			if c.Bool("timings") {
				ms := float64(took.Microseconds()) / 1000
				out.SnapshotMS = &ms
			}
			if e.format == "json" {
				return writeJSON(e, out)
			}
			fmt.Fprintf(e.stdout, "skills: %d eligible, %d excluded (from %s)\n", out.Skills, out.Excluded, escape.Text(out.Source))
			if out.Cards {
				fmt.Fprintf(e.stdout, "cards: %d tags in use, %d unclassified\n", out.Tags, out.Unclassified)
			} else {
				fmt.Fprintln(e.stdout, "cards: no profile (every skill unclassified)")
			}
			fmt.Fprintf(e.stdout, "fingerprint: %s\n", out.Fingerprint)
			if out.SnapshotMS != nil {
				fmt.Fprintf(e.stdout, "snapshot: %.1f ms\n", *out.SnapshotMS)
			}
			return nil
		},
	}
}

func catalogSearchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "rank skills for a query (BM25F, exact names, typo recovery)",
		ArgsUsage: "QUERY",
		Description: "Ranks skills by their names and descriptions (BM25F), puts skills named in the query\n" +
			"first, and fuses the lists by reciprocal rank. Unrelated queries (no word specific to\n" +
			"some skill) return nothing rather than weak matches.\n\n" +
			"Typo recovery covers skill names only: a query word of 5 or more letters that matches\n" +
			"nothing as written finds names, or dash-separated parts of names, within 1 edit (5-6\n" +
			"letters) or 2 edits (7 or more). Misspelled description words find nothing\n" +
			"(\"kubernets\" does not find a skill that only mentions Kubernetes).\n\n" +
			"Text output: rank, name, why it matched (lexical, exact-name, name-typo) and the\n" +
			"description's first sentence. The fused score only orders the list, so text shows the\n" +
			"rank; --format json has the score too.\n\n" +
			"Formats: text, json.\n\n" +
			"Examples:\n  skillopt catalog search \"release notes\" --skills skills/ --limit 5\n" +
			"  skillopt catalog search --format json \"fill a pdf form\" --skills skills/",
		Flags: append(sourceFlags(), &cli.IntFlag{Name: "limit", Value: 10, Usage: "most results"}),
		Action: func(c *cli.Context) error {
			if err := e.setup(c, "text", "json"); err != nil {
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
			res := snap.Search(strings.Join(c.Args().Slice(), " "), c.Int("limit"))
			if e.format == "json" {
				if res == nil {
					res = []catalog.Result{}
				}
				return writeJSON(e, struct {
					Results []catalog.Result `json:"results"`
				}{res})
			}
			if len(res) == 0 {
				fmt.Fprintln(e.stdout, "no skill matches")
				return nil
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
			for i, r := range res {
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", i+1, escape.Text(r.Name), r.Match, escape.Text(catalog.Intent(r.Description)))
			}
			return tw.Flush()
		},
	}
}

// tagList lists the tag vocabulary for help, two columns wide.
func tagList() string {
	var b strings.Builder
	tags := append(append([]catalog.Tag(nil), catalog.Vocabulary...), catalog.Tag{Name: catalog.Unclassified, Doc: "skills without a current card"})
	for _, t := range tags {
		fmt.Fprintf(&b, "  %-17s %s\n", t.Name, t.Doc)
	}
	return b.String()
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
			"The " + fmt.Sprint(len(catalog.Vocabulary)) + " tags (" + catalog.VocabularyVersion + "):\n" + tagList() + "\n" +
			"Formats: text, json.\n\n" +
			"Examples:\n  skillopt catalog browse --tags testing --skills skills/\n" +
			"  skillopt catalog browse --tags testing,debugging --match all --query flaky --skills skills/\n" +
			"  skillopt catalog browse --format json --tags testing --cursor eyJm... --skills skills/",
		Flags: append(sourceFlags(),
			&cli.StringFlag{Name: "tags", Usage: "comma-separated tags"},
			&cli.StringFlag{Name: "match", Value: "any", Usage: "any or all"},
			&cli.StringFlag{Name: "query", Usage: "orders the tag bucket; filters without tags"},
			&cli.StringFlag{Name: "cursor", Usage: "continue from a previous page"},
			&cli.IntFlag{Name: "page-size", Value: catalog.DefaultPageSize, Usage: "most cards per page"},
		),
		Action: func(c *cli.Context) error {
			if err := e.setup(c, "text", "json"); err != nil {
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
				return usageErr("%v", err)
			}
			why := browseEmpty(snap, page, tags, c.String("query"))
			if e.format == "json" {
				if why != "" && !e.quiet {
					fmt.Fprintf(e.stderr, "skillopt: %s\n", escape.Text(why))
				}
				_, err = fmt.Fprintf(e.stdout, "%s\n", escape.JSON(data))
				return err
			}
			return writeBrowseText(e, page, why)
		},
	}
}

// browseEmpty explains an empty page: no profile, so the tags asked for
// hold nothing; or nothing has the tags or matches the query. "" when
// the page has cards.
func browseEmpty(snap *catalog.Snapshot, page *catalog.Page, tags []string, query string) string {
	if len(page.Cards) > 0 {
		return ""
	}
	onlyUnclassified := len(tags) > 0
	for _, t := range tags {
		onlyUnclassified = onlyUnclassified && strings.TrimSpace(t) == catalog.Unclassified
	}
	switch {
	case snap.Len() == 0:
		return "the catalog holds no skills"
	case !snap.HasCards() && len(tags) > 0 && !onlyUnclassified:
		return "no card profile is in use, so every skill is in the tag \"unclassified\" and other tags are empty: " +
			"`skillopt catalog init --skills DIR` makes cards; then set catalog.profile or pass --profile"
	case len(tags) > 0:
		return fmt.Sprintf("no skill has the tags %s", strings.Join(tags, ", "))
	case query != "":
		return fmt.Sprintf("no skill matches %q", query)
	}
	return "nothing to show"
}

// writeBrowseText prints a browse page for people: a line per card, the
// next page's cursor and the tag counts.
func writeBrowseText(e *env, page *catalog.Page, why string) error {
	if why != "" {
		_, err := fmt.Fprintln(e.stdout, escape.Text(why))
		return err
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	for _, c := range page.Cards {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", escape.Text(c.Name), textList(c.Tags), escape.Text(c.Card))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if page.Cursor != nil {
		fmt.Fprintf(e.stdout, "more: --cursor %s\n", escape.Text(*page.Cursor))
	}
	if len(page.Facets) > 0 && !e.quiet {
		type facet struct {
			tag string
			n   int
		}
		var fs []facet
		for t, n := range page.Facets {
			fs = append(fs, facet{t, n})
		}
		sort.Slice(fs, func(i, j int) bool {
			if fs[i].n != fs[j].n {
				return fs[i].n > fs[j].n
			}
			return fs[i].tag < fs[j].tag
		})
		var parts []string
		for _, f := range fs {
			parts = append(parts, fmt.Sprintf("%s %d", escape.Text(f.tag), f.n))
		}
		fmt.Fprintf(e.stdout, "tags: %s\n", strings.Join(parts, ", "))
	}
	return nil
}

func catalogLoadCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "load",
		Usage:     "print a skill's SKILL.md verbatim",
		ArgsUsage: "NAME",
		Description: "The file must stay inside the folder the skill was found in.\n\n" +
			"The output is the file's bytes as they are, for a host to read: control characters and\n" +
			"escape sequences in it are not escaped (page it with less to see them).\n\n" +
			"Examples:\n  skillopt catalog load pdf --skills skills/",
		Flags: sourceFlags(),
		Action: func(c *cli.Context) error {
			if err := e.setup(c, "text"); err != nil {
				return err
			}
			if c.NArg() != 1 {
				return argErr(c, "want one skill NAME")
			}
			snap, _, _, err := e.snapshot(c)
			if err != nil {
				return err
			}
			data, err := snap.Load(c.Args().First())
			if err != nil {
				return lookupErr(err, snap, c.Args().First())
			}
			_, err = e.stdout.Write(data)
			return err
		},
	}
}

func catalogResourceCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "resource",
		Usage:     "print a file inside a skill's folder verbatim",
		ArgsUsage: "NAME PATH",
		Description: "PATH is relative to the skill's folder and may not leave it.\n\n" +
			"The output is the file's bytes as they are, for a host to read: control characters and\n" +
			"escape sequences in it are not escaped (page it with less to see them).\n\n" +
			"Examples:\n  skillopt catalog resource pdf scripts/fill.py --skills skills/",
		Flags: sourceFlags(),
		Action: func(c *cli.Context) error {
			if err := e.setup(c, "text"); err != nil {
				return err
			}
			if c.NArg() != 2 {
				return argErr(c, "want NAME PATH")
			}
			snap, _, _, err := e.snapshot(c)
			if err != nil {
				return err
			}
			data, err := snap.Resource(c.Args().Get(0), c.Args().Get(1))
			if err != nil {
				return lookupErr(err, snap, c.Args().Get(0))
			}
			_, err = e.stdout.Write(data)
			return err
		},
	}
}

func catalogLocationCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "location",
		Usage:     "print where a skill's file is",
		ArgsUsage: "NAME",
		Description: "Prints the path as it is, for a host to open: control characters in it are not\n" +
			"escaped.\n\n" +
			"Examples:\n  skillopt catalog location pdf --skills skills/",
		Flags: sourceFlags(),
		Action: func(c *cli.Context) error {
			if err := e.setup(c, "text"); err != nil {
				return err
			}
			if c.NArg() != 1 {
				return argErr(c, "want one skill NAME")
			}
			snap, _, _, err := e.snapshot(c)
			if err != nil {
				return err
			}
			loc, err := snap.Location(c.Args().First())
			if err != nil {
				return lookupErr(err, snap, c.Args().First())
			}
			fmt.Fprintln(e.stdout, loc)
			return nil
		},
	}
}

// lookupErr reports a failed load, an unknown name included, as a usage
// error; messages carry no filesystem path. An unknown name comes with the
// closest skill name.
func lookupErr(err error, snap *catalog.Snapshot, name string) error {
	if errors.Is(err, catalog.ErrNotFound) {
		names := make([]string, 0, snap.Len())
		for _, sk := range snap.Skills {
			names = append(names, sk.Name)
		}
		if c := closest(name, names); c != "" {
			err = fmt.Errorf("%w (did you mean %s?)", err, c)
		} else {
			err = fmt.Errorf("%w (`skillopt catalog search` finds skills)", err)
		}
	}
	return &exitError{code: exitUsage, err: err}
}

// catalogSettings returns the configured [catalog] settings.
func (e *env) catalogSettings() *catalogrules.Settings { return catalogrules.FromSet(e.cfg.Options) }
