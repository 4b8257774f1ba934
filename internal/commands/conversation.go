package commands

import (
	"context"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/batch"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/measure/price"
	mrender "github.com/skillopt/skillopt/measure/render"
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
	inputs, err := conversationInputs(e, c)
	if err != nil {
		return err
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
		Jobs:     c.Int("jobs"),
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
	names, all, err := conversationRequests(e, c.Int("jobs"), threads, pipeline, renv)
	if err != nil {
		return err
	}
	convs, err := measure.ConverseAll(names, all, opts)
	if err != nil {
		return err
	}
	if err := writeConversations(e, threads, convs); err != nil {
		return err
	}
	return e.finish(nil)
}

// conversationInputs reads every capture of the arguments, in the order
// of the conversation; an input that is no request is reported and left
// out.
func conversationInputs(e *env, c *cli.Context) ([]measure.Input, error) {
	var files []*capture.File
	err := eachFile(e, c, func(*capture.File, *inputLog) (struct{}, error) { return struct{}{}, nil },
		func(f *capture.File, _ struct{}) error {
			files = append(files, f)
			return nil
		})
	if err != nil {
		return nil, err
	}
	measure.NaturalOrder(files, c.Args().Slice())
	inputs, errs := measure.Inputs(files)
	for _, err := range errs {
		e.warnInput(err)
	}
	return inputs, nil
}

// conversationRequests runs the requests of each conversation through the
// pipeline on jobs workers; the accounting then runs once over them all,
// with one prompt cache for every conversation of the input: the provider
// keys it by prefix, not by conversation.
func conversationRequests(e *env, jobs int, threads []measure.Thread, pipeline []*rules.Rule, renv *rules.Env) ([]string, [][]measure.Request, error) {
	type prepared struct {
		reqs []measure.Request
		log  inputLog
	}
	all := make([][]measure.Request, len(threads))
	names := make([]string, len(threads))
	err := batch.Ordered(context.Background(), jobs, threads, func(_ context.Context, th measure.Thread) (prepared, error) {
		var out prepared
		var failed error
		reqs, err := measure.Requests(th.Inputs, func(c *capture.Capture) *rules.Result {
			res, err := rules.Run(c, pipeline, renv)
			if err != nil {
				if !out.log.ruleFailed(err) && failed == nil {
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
		out.reqs = reqs
		return out, err
	}, func(i int, p prepared, err error) error {
		for _, err := range p.log.errs {
			e.warnInput(err)
		}
		if err != nil {
			return err
		}
		all[i], names[i] = p.reqs, threads[i].Name
		return nil
	})
	return names, all, err
}

// writeConversations prints one conversation's report, a set of them, or
// one JSON line per turn.
func writeConversations(e *env, threads []measure.Thread, convs []*measure.Conversation) error {
	if e.format == jsonl {
		type turnLine struct {
			Conversation int `json:"conversation"`
			*measure.ConvTurn
		}
		for i, conv := range convs {
			for t := range conv.Turns {
				if err := e.writeLine(turnLine{i + 1, &conv.Turns[t]}); err != nil {
					return err
				}
			}
		}
		return nil
	}
	opts := mrender.TextOptions{Width: e.width(e.stdout)}
	if len(convs) == 1 {
		return e.writeAs(func(w io.Writer) error {
			return mrender.WriteConversationAs(w, convs[0], e.format, opts)
		})
	}
	set := measure.NewConversationSet(threads, convs)
	return e.writeAs(func(w io.Writer) error {
		return mrender.WriteConversationsAs(w, set, e.format, opts)
	})
}

// prices is the built-in price table with the configuration's [prices]
// overrides.
func (e *env) prices() *price.Table { return e.cfg.PriceTable() }
