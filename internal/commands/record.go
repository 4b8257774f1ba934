package commands

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/record"
)

func recordCommand(e *env) *cli.Command {
	var presets strings.Builder
	for _, p := range record.Presets {
		fmt.Fprintf(&presets, "  %-18s %s\n", p.Name, p.Doc)
	}
	return &cli.Command{
		Name:      "record",
		Usage:     "run a local proxy that records the requests a host sends to its provider",
		ArgsUsage: "[-- CMD ARGS...]",
		Description: "A reverse proxy on a loopback address: every request is forwarded unchanged to its\n" +
			"upstream, the response streamed back as it arrives (server-sent events event by event),\n" +
			"and each exchange appended to OUTPUT/skillopt-record-TIME.jsonl as it completes: one\n" +
			"request record a line (url, method, headers, the body as sent) with the response's\n" +
			"status, headers and the usage the provider reported (--responses also keeps its body\n" +
			"or stream). Authorization, API-key and cookie values and key= URL parameters are\n" +
			"redacted before writing, by the rules the capture reader applies. Every command that\n" +
			"reads captures reads the file; measure --conversation compares its predictions with\n" +
			"the recorded usage.\n\n" +
			"Upstreams (--upstream NAME for a preset, NAME=URL for any endpoint; default: every\n" +
			"preset with an endpoint). A request selects one by its first path segment\n" +
			"(/anthropic/v1/messages goes to https://api.anthropic.com/v1/messages); with one\n" +
			"upstream, every path goes to it. Other paths get a 502 that says which prefixes exist.\n" +
			presets.String() + "\n" +
			"With -- CMD ARGS, the proxy listens on a free loopback port, runs CMD with\n" +
			"ANTHROPIC_BASE_URL, OPENAI_BASE_URL (ending in /v1) and GOOGLE_GEMINI_BASE_URL pointed\n" +
			"at it, stops when CMD exits and prints a summary: requests, the providers' input,\n" +
			"cached, written and output tokens, their cost, the cache hit rate and the measure\n" +
			"command. It exits with CMD's exit code (2 when CMD succeeded but exchanges could not\n" +
			"be written). Without CMD it records until interrupted.\n\n" +
			"It listens on loopback only unless --allow-remote is given, and forwards only to its\n" +
			"upstreams: absolute-URI requests and CONNECT are refused.\n\n" +
			"Examples:\n" +
			"  skillopt record -o captures -- claude\n" +
			"  skillopt record -o captures -- codex exec 'fix the failing test'\n" +
			"  skillopt record --listen 127.0.0.1:8787 --upstream anthropic=https://api.anthropic.com\n" +
			"  skillopt record --upstream local=http://localhost:11434/v1 -- my-agent",
		Flags: []cli.Flag{
			formats("", "text"),
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "captures", Usage: "folder the capture file is written to"},
			&cli.StringFlag{Name: "listen", Usage: "address to listen on (default 127.0.0.1:8787; with CMD, a free loopback port)"},
			&cli.BoolFlag{Name: "allow-remote", Usage: "allow a --listen address other machines can reach"},
			&cli.StringSliceFlag{Name: "upstream", Usage: "an upstream: a preset NAME, or NAME=URL (repeatable)"},
			&cli.BoolFlag{Name: "responses", Usage: "also keep each response's body or stream text"},
		},
		Action: func(c *cli.Context) error { return runRecord(e, c) },
	}
}

func runRecord(e *env, c *cli.Context) error {
	if err := e.setup(c); err != nil {
		return err
	}
	var ups []record.Upstream
	for _, s := range c.StringSlice("upstream") {
		u, err := record.ParseUpstream(s)
		if err != nil {
			return argErr(c, "--upstream: %v", err)
		}
		ups = append(ups, u)
	}
	args := c.Args().Slice()
	listen := c.String("listen")
	if listen == "" {
		listen = "127.0.0.1:8787"
		if len(args) > 0 {
			listen = "127.0.0.1:0"
		}
	}
	if !record.IsLoopback(listen) {
		if !c.Bool("allow-remote") {
			return argErr(c, "--listen %s is not a loopback address: other machines could send requests through it (add --allow-remote to mean it)", listen)
		}
		fmt.Fprintf(e.stderr, "skillopt: warning: listening on %s: anyone who can reach it can send requests with your upstreams' credentials\n", listen)
	}
	if len(args) > 0 {
		if _, err := exec.LookPath(args[0]); err != nil {
			return argErr(c, "command %q: %v", args[0], errors.Unwrap(err))
		}
	}
	log, err := record.Create(c.String("output"), time.Now())
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("record: %w", err)}
	}
	defer log.Close()
	p, err := record.New(record.Options{Upstreams: ups, Log: log, Responses: c.Bool("responses"), Prices: e.prices()})
	if err != nil {
		return argErr(c, "%v", err)
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("record: %w", err)}
	}
	srv := p.Server()
	go srv.Serve(ln)
	addr := "http://" + ln.Addr().String()
	vars := record.BaseURLs(p.Upstreams(), addr)
	fmt.Fprintf(e.stderr, "skillopt record: listening on %s, recording to %s\n", addr, log.Path())
	for _, u := range p.Upstreams() {
		fmt.Fprintf(e.stderr, "  %s/%s/… → %s\n", addr, u.Name, u.URL.Redacted())
	}

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	code := exitOK
	if len(args) > 0 {
		var err error
		if code, err = recordWhile(e, args, vars, sigs); err != nil {
			srv.Close()
			return err
		}
	} else {
		fmt.Fprintln(e.stderr, "  press Ctrl-C to stop")
		<-sigs
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		srv.Close()
	}
	p.Wait()
	st := p.Stats()
	st.WriteSummary(e.stderr, log.Path())
	if st.WriteFailures > 0 && code == exitOK {
		code = exitUsage
	}
	if code != exitOK {
		return &exitError{code: code}
	}
	return nil
}

// recordWhile runs CMD with vars added to its environment until it exits
// and returns its exit code (2 when it could not be waited for, or was
// killed); a signal meanwhile reaches CMD from the terminal and keeps the
// proxy serving. err is a CMD that could not be started.
func recordWhile(e *env, args, vars []string, sigs <-chan os.Signal) (int, error) {
	code := exitOK
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(), vars...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, e.stderr
	for _, v := range vars {
		fmt.Fprintf(e.stderr, "  %s\n", v)
	}
	if err := cmd.Start(); err != nil {
		return 0, &exitError{code: exitUsage, err: fmt.Errorf("record: %w", err)}
	}
	// An interrupt at the terminal reaches CMD too; the proxy keeps
	// serving until CMD has exited.
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	for waiting := true; waiting; {
		select {
		case err = <-done:
			waiting = false
		case <-sigs:
		}
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
		if code < 0 {
			code = exitUsage
		}
	} else if err != nil {
		fmt.Fprintf(e.stderr, "skillopt: %s: %v\n", args[0], err)
		code = exitUsage
	}
	return code, nil
}
