package reduce

import (
	"fmt"
	"strings"
	"testing"
)

func TestWarningExcerptsGoUnmarked(t *testing.T) {
	var ls []string
	ls = append(ls, "cc -Wall -c widget.c")
	for i := 0; i < 30; i++ {
		ls = append(ls,
			fmt.Sprintf("widget.c: In function ‘draw_%d’:", i),
			fmt.Sprintf("widget.c:%d:9: warning: unused variable ‘tmp%d’ [-Wunused-variable]", 10+i, i),
			fmt.Sprintf("   %d |     int tmp%d;", 10+i, i),
			"      |         ^~~~")
	}
	ls = append(ls,
		"widget.c: In function ‘main’:",
		"widget.c:80:5: error: implicit declaration of function ‘paint’ [-Wimplicit-function-declaration]",
		"   80 |     paint(w);",
		"      |     ^~~~~",
		"a chatter line the generic rules do not protect",
		"make: *** [Makefile:4: widget.o] Error 1")
	text := lines(ls...)
	res, ok := With("compiler", text, DefaultOptions())
	if !ok {
		t.Fatal("not reduced")
	}
	for _, want := range []string{
		"widget.c:17:9: warning: unused variable ‘tmp7’ [-Wunused-variable]",
		"widget.c: In function ‘main’:", "   80 |     paint(w);", "make: *** [Makefile:4: widget.o] Error 1",
		"30 warning(s) kept without excerpts",
	} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("lost %q:\n%s", want, res.Text)
		}
	}
	for _, lose := range []string{"int tmp7;", "In function ‘draw_7’"} {
		if strings.Contains(res.Text, lose) {
			t.Errorf("kept %q:\n%s", lose, res.Text)
		}
	}
	// Warnings follow each other with no marker between them; the one
	// run that is not a warning's excerpt still gets its marker.
	if got := strings.Count(res.Text, "elided ("); got != 1 {
		t.Errorf("%d markers, want 1 (for the chatter line):\n%s", got, res.Text)
	}
}

func TestSilentNeedsEveryLineHidden(t *testing.T) {
	d := newDoc(lines("a", "b", "c", "d"))
	p := newPlan(d)
	p.hide(1)
	p.hide(2)
	p.hide(-1) // out of range: ignored
	p.hide(9)
	for _, c := range []struct {
		i, j int
		want bool
	}{{1, 3, true}, {1, 2, true}, {0, 3, false}, {1, 4, false}} {
		if got := p.silent(c.i, c.j); got != c.want {
			t.Errorf("silent(%d, %d) = %v, want %v", c.i, c.j, got, c.want)
		}
	}
	if newPlan(d).silent(0, 1) {
		t.Error("a plan without hidden lines is silent")
	}
}

func TestCargoWarningExcerptsGoUnmarked(t *testing.T) {
	var ls []string
	for i := 0; i < 12; i++ {
		ls = append(ls,
			fmt.Sprintf("warning: unused variable: `v%d`", i),
			fmt.Sprintf("  --> src/lib.rs:%d:9", 20+i),
			"   |",
			fmt.Sprintf("%d |     let v%d = 1;", 20+i, i),
			"   |         ^^ help: if this is intentional, prefix it with an underscore",
			"")
	}
	ls = append(ls, "warning: `demo` (lib) generated 12 warnings", "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.40s")
	text := lines(ls...)
	res, ok := With("cargo", text, DefaultOptions())
	if !ok {
		t.Fatal("not reduced")
	}
	for _, want := range []string{"warning: unused variable: `v5`", "  --> src/lib.rs:25:9", "generated 12 warnings", "Finished `dev`"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("lost %q:\n%s", want, res.Text)
		}
	}
	if strings.Contains(res.Text, "let v5 = 1;") || strings.Contains(res.Text, "elided (") {
		t.Errorf("excerpt kept or marked:\n%s", res.Text)
	}
}
