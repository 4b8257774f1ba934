package catalogbench

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/skillopt/skillopt/internal/bench"
	"github.com/skillopt/skillopt/internal/bench/synth"
)

// Startup compares whole processes: `skillopt --version` against an empty
// Go program, run alternately (so that both see the same load), and a cold
// `skillopt transform --rules SO101,SO103` of the synthetic
// ColdTransformSkills-skill request.
type Startup struct {
	Runs int `json:"runs"`
	// VersionMS and EmptyMS are the median wall times of `skillopt
	// --version` and of the empty program; Ratio is VersionMS / EmptyMS.
	VersionMS float64 `json:"version_ms"`
	EmptyMS   float64 `json:"empty_program_ms"`
	Ratio     float64 `json:"ratio"`
	// ColdTransformMS is the median wall time of the transform process.
	ColdTransformMS     float64 `json:"cold_transform_ms"`
	ColdTransformSkills int     `json:"cold_transform_skills"`
}

// ColdTransformSkills is the catalog size of the cold transform.
const ColdTransformSkills = 355

// startupWarmup is how many untimed runs of each command come first.
const startupWarmup = 3

// MeasureStartup runs skillopt (the executable exe, run with argv[0]
// "skillopt") and the empty program runs times each, after startupWarmup
// untimed runs.
func MeasureStartup(exe, empty string, runs int) (*Startup, error) {
	if runs < 1 {
		return nil, errors.New("start-up: at least one run")
	}
	dir, err := os.MkdirTemp("", "skillopt-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	body, err := synth.Capture("anthropic", synth.Skills(ColdTransformSkills, 1), 1)
	if err != nil {
		return nil, err
	}
	in, out := filepath.Join(dir, "request.json"), filepath.Join(dir, "out.json")
	if err := os.WriteFile(in, body, 0o600); err != nil {
		return nil, err
	}
	version := command(exe, "skillopt", "--version")
	empty0 := command(empty, filepath.Base(empty))
	transform := command(exe, "skillopt", "transform", "--no-archive", "--rules", "SO101,SO103", "-o", out, in)
	var tv, te, tt []time.Duration
	for i := 0; i < startupWarmup+runs; i++ {
		for _, c := range []struct {
			run func() (time.Duration, error)
			to  *[]time.Duration
		}{{version, &tv}, {empty0, &te}, {transform, &tt}} {
			d, err := c.run()
			if err != nil {
				return nil, err
			}
			if i >= startupWarmup {
				*c.to = append(*c.to, d)
			}
		}
	}
	s := &Startup{Runs: runs, VersionMS: median(tv), EmptyMS: median(te), ColdTransformMS: median(tt), ColdTransformSkills: ColdTransformSkills}
	if s.EmptyMS > 0 {
		s.Ratio = float64(int(s.VersionMS/s.EmptyMS*100+0.5)) / 100
	}
	return s, nil
}

// command returns a function that runs path with argv[0] name and args,
// standard streams on the null device, and times it.
func command(path, name string, args ...string) func() (time.Duration, error) {
	return func() (time.Duration, error) {
		c := exec.Command(path, args...)
		c.Args[0] = name
		start := time.Now()
		if out, err := c.CombinedOutput(); err != nil {
			return 0, fmt.Errorf("start-up: %s %v: %w: %s", name, args, err, firstLine(out))
		}
		return time.Since(start), nil
	}
}

func firstLine(b []byte) string {
	for i, c := range b {
		if c == '\n' {
			return string(b[:i])
		}
	}
	return string(b)
}

func median(ts []time.Duration) float64 {
	ts = slices.Clone(ts)
	slices.Sort(ts)
	return bench.Millis(ts[len(ts)/2])
}

// emptyProgram is the source of the start-up baseline.
const emptyProgram = "package main\n\nfunc main() {}\n"

// BuildEmptyProgram builds an empty Go program into dir with the go command
// on PATH (as make build builds skillopt: CGO_ENABLED=0) and returns its
// path.
func BuildEmptyProgram(dir string) (string, error) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return "", errors.New("no go command on PATH to build an empty program (see --empty-program)")
	}
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte("module empty\n\ngo 1.21\n"), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte(emptyProgram), 0o644); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "empty")
	c := exec.Command(goCmd, "build", "-o", bin, ".")
	c.Dir = src
	c.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=", "GOWORK=off")
	if out, err := c.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building an empty program: %w: %s", err, firstLine(out))
	}
	return bin, nil
}

// StartupOfSelf measures this executable's start-up against an empty Go program
// (empty, or one built with go); without one, or with runs 0, it says why
// not instead.
func StartupOfSelf(empty string, runs int) (*Startup, string) {
	if runs == 0 {
		return nil, "not measured (--startup-runs 0)"
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, "not measured: " + err.Error()
	}
	if empty == "" {
		dir, err := os.MkdirTemp("", "skillopt-empty-")
		if err != nil {
			return nil, "not measured: " + err.Error()
		}
		defer os.RemoveAll(dir)
		if empty, err = BuildEmptyProgram(dir); err != nil {
			return nil, "not measured: " + err.Error()
		}
	} else if p, err := exec.LookPath(empty); err != nil {
		return nil, "not measured: " + err.Error()
	} else {
		empty = p
	}
	s, err := MeasureStartup(exe, empty, runs)
	if err != nil {
		return nil, "not measured: " + err.Error()
	}
	return s, ""
}
