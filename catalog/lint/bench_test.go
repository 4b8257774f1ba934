package lint_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/catalog/lint"
	"github.com/skillopt/skillopt/internal/bench/synth"
)

// corpusSkills is the shared corpus of real SKILL.md files, when present.
var corpusSkills = filepath.Join("..", "..", "..", "shared", "corpus", "skills")

// writeBenchTree writes n skills under dir: every SKILL.md of the shared
// corpus (when present, at its original path) and synthetic skills for the
// rest. A synthetic skill has a generated name and description; with
// heavy set its body is the body of a corpus skill (cycled), so the sizes
// follow the corpus, else a short generated body of one to three
// paragraphs. It returns how many corpus skills were copied.
func writeBenchTree(tb testing.TB, dir string, n int, heavy bool) int {
	tb.Helper()
	var bodies []string
	copied := 0
	if _, err := os.Stat(corpusSkills); err == nil {
		srcs, _ := catalog.Walk([]string{corpusSkills}, catalog.WalkOptions{})
		for _, s := range srcs {
			if s.Kind != catalog.SkillFile || copied >= n {
				continue
			}
			data, err := os.ReadFile(s.Path)
			if err != nil {
				tb.Fatal(err)
			}
			dst := filepath.Join(dir, "corpus", filepath.FromSlash(s.Rel))
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				tb.Fatal(err)
			}
			if err := os.WriteFile(dst, data, 0o644); err != nil {
				tb.Fatal(err)
			}
			copied++
			d, _ := catalog.ParseSkillDoc(s.Path, data)
			bodies = append(bodies, string(d.Body))
		}
	}
	for i, sk := range synth.Skills(n-copied, 7) {
		body := ""
		if heavy && len(bodies) > 0 {
			body = bodies[i%len(bodies)]
		} else {
			var b strings.Builder
			fmt.Fprintf(&b, "# %s\n\n", sk.Name)
			for p := 0; p <= i%3; p++ {
				fmt.Fprintf(&b, "%s\n\n1. Read the input.\n2. %s\n3. Report the result.\n\n", sk.Description, sk.Description)
			}
			body = b.String()
		}
		group := fmt.Sprintf("g%02d", i%40)
		p := filepath.Join(dir, "synthetic", group, sk.Name, "SKILL.md")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		text := "---\nname: " + sk.Name + "\ndescription: " + string(capture.Quote(sk.Description)) + "\n---\n" + body
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return copied
}

func benchLint(b *testing.B, heavy bool) {
	dir := b.TempDir()
	copied := writeBenchTree(b, dir, 1000, heavy)
	b.Logf("%d corpus skills + %d synthetic", copied, 1000-copied)
	cfg := load(b, "")
	b.ResetTimer()
	for b.Loop() {
		rep, err := run(b, cfg, lint.Options{Paths: []string{dir}})
		if err != nil || rep.Skills < 990 {
			b.Fatalf("%v (%d skills)", err, rep.Skills)
		}
	}
}

// BenchmarkLint1000 lints 1,000 skills in process: the corpus plus
// synthetic skills with short bodies.
func BenchmarkLint1000(b *testing.B) { benchLint(b, false) }

// BenchmarkLint1000Heavy is BenchmarkLint1000 with synthetic bodies as long
// as the corpus's (every body is then counted by the tokenizer).
func BenchmarkLint1000Heavy(b *testing.B) { benchLint(b, true) }

// BenchmarkLintProcess times whole `skillopt lint` processes over 1,000
// skills, as a pre-commit hook runs them: it builds the command once, then
// runs it once per iteration and reports the wall time per process. Trees:
// the corpus with short synthetic skills ("light") or with corpus-sized
// synthetic bodies ("heavy"); cache: none (--no-cache, every body over the
// budget is counted) or warm (counts remembered from the warm-up run).
func BenchmarkLintProcess(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "skillopt")
	build := exec.Command("go", "build", "-o", bin, "github.com/skillopt/skillopt/cmd/skillopt")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		b.Fatalf("go build: %v", err)
	}
	for _, heavy := range []bool{false, true} {
		tree := filepath.Join(dir, fmt.Sprintf("tree-%v", heavy))
		writeBenchTree(b, tree, 1000, heavy)
		for _, cache := range []bool{false, true} {
			name := "light"
			if heavy {
				name = "heavy"
			}
			name += map[bool]string{false: "/no-cache", true: "/warm-cache"}[cache]
			b.Run(name, func(b *testing.B) {
				args := []string{"lint", "-q", "--format", "json", tree}
				if !cache {
					args = append(args, "--no-cache")
				}
				env := append(os.Environ(), "SKILLOPT_CONFIG=", "XDG_CACHE_HOME="+b.TempDir())
				run := func() time.Duration {
					cmd := exec.Command(bin, args...)
					cmd.Env = env
					start := time.Now()
					if err := cmd.Run(); err != nil {
						if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
							b.Fatalf("skillopt lint: %v", err)
						}
					}
					return time.Since(start)
				}
				run() // warm the file system cache (and the token cache)
				b.ResetTimer()
				var total time.Duration
				for b.Loop() {
					total += run()
				}
				b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/process")
			})
		}
	}
}
