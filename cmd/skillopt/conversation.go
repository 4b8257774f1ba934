package main

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/measure/price"
	"github.com/skillopt/skillopt/rules"
)

// measureConversation is `skillopt measure --conversation`.
func measureConversation(e *env, c *cli.Context) error {
	if err := e.setup(c); err != nil {
		return err
	}
	enc, counter, err := e.counter(c)
	if err != nil {
		return err
	}
	if counter == nil {
		return usageErr("--conversation counts tokens: --encoding must be o200k_base or cl100k_base")
	}
	pipeline, err := e.pipeline(c)
	if err != nil {
		return err
	}
	files, err := e.readCaptures(c)
	if err != nil {
		return err
	}
	naturalOrder(files, c.Args().Slice())
	inputs, errs := measure.Inputs(files)
	for _, err := range errs {
		e.warnInput(err)
	}
	if len(inputs) == 0 {
		return e.finish(nil)
	}
	renv := e.ruleEnv(pipeline)
	ruleset.SetArchive(renv, renv.Archive, true)
	opts := measure.ConversationOptions{
		Encoding: enc,
		Counter:  counter,
		Prices:   e.prices(),
		Pipeline: pipeline,
		Rerun: func(c *capture.Capture, part []*rules.Rule) (*capture.Capture, error) {
			res, err := rules.Run(c, part, renv)
			if err != nil {
				return nil, err
			}
			return res.Final, nil
		},
	}
	if enc != "o200k_base" {
		opts.Exact = func(string, string) bool { return false }
	}
	threads := []measure.Thread{{Inputs: inputs}}
	if !c.Bool("no-split") {
		threads = measure.Split(inputs)
	}
	var failed error
	convs := make([]*measure.Conversation, len(threads))
	for i, th := range threads {
		reqs, err := measure.Requests(th.Inputs, func(c *capture.Capture) *rules.Result {
			res, err := rules.Run(c, pipeline, renv)
			if err != nil {
				if !e.ruleFailed(err) && failed == nil {
					failed = err
				}
				// The request is still part of the conversation, unchanged.
				res = &rules.Result{Original: c, Final: c}
			}
			return res
		})
		if err == nil {
			err = failed
		}
		if err != nil {
			return err
		}
		if convs[i], err = measure.Converse(reqs, opts); err != nil {
			return err
		}
	}
	if len(convs) == 1 {
		err = writeConversation(e, convs[0])
	} else {
		err = writeConversations(e, measure.NewConversationSet(threads, convs))
	}
	if err != nil {
		return err
	}
	return e.finish(nil)
}

// writeConversation writes the report of one conversation.
func writeConversation(e *env, cv *measure.Conversation) error {
	switch e.format {
	case "json":
		var b bytes.Buffer
		err := measure.WriteConversationJSON(&b, cv)
		if err == nil {
			_, err = e.stdout.Write(e.withConfig(b.Bytes()))
		}
		return err
	case "markdown":
		return measure.WriteConversationMarkdown(e.stdout, cv)
	case "html":
		return measure.WriteConversationHTML(e.stdout, cv)
	}
	return measure.WriteConversationText(e.stdout, cv)
}

// writeConversations writes the report of several conversations.
func writeConversations(e *env, set *measure.ConversationSet) error {
	switch e.format {
	case "json":
		var b bytes.Buffer
		err := measure.WriteConversationsJSON(&b, set)
		if err == nil {
			_, err = e.stdout.Write(e.withConfig(b.Bytes()))
		}
		return err
	case "markdown":
		return measure.WriteConversationsMarkdown(e.stdout, set)
	case "html":
		return measure.WriteConversationsHTML(e.stdout, set)
	}
	return measure.WriteConversationsText(e.stdout, set)
}

// naturalOrder puts the files found in each directory argument in natural
// name order ("turn-2" before "turn-10"); files named directly keep the
// order they were given in.
func naturalOrder(files []*capture.File, args []string) {
	group := func(f *capture.File) int {
		for i, a := range args {
			if a == f.Name || a == "-" && f.Name == "<stdin>" {
				return i
			}
			if st, err := os.Stat(a); err == nil && st.IsDir() {
				rel, err := filepath.Rel(a, f.Name)
				if err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
					return i
				}
			}
		}
		return len(args)
	}
	groups := make(map[*capture.File]int, len(files))
	for _, f := range files {
		groups[f] = group(f)
	}
	sort.SliceStable(files, func(i, j int) bool {
		gi, gj := groups[files[i]], groups[files[j]]
		if gi != gj {
			return gi < gj
		}
		return naturalLess(files[i].Name, files[j].Name)
	})
}

// naturalLess compares names with runs of digits compared as numbers.
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			if da != db {
				return da < db
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// prices is the built-in price table with the configuration's [prices]
// overrides.
func (e *env) prices() *price.Table {
	var overrides []price.Override
	source := "skillopt.toml"
	if e.cfg.Path != "" {
		source = e.cfg.Path
	}
	for model, values := range e.cfg.Prices {
		overrides = append(overrides, price.Override{Model: model, Values: values, Source: source})
	}
	return price.Builtin().With(overrides)
}
