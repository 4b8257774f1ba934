package measure

import (
	"context"
	"fmt"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// browser returns a headless Chromium to render pages with. Without one
// the test fails when SKILLOPT_BROWSER_TESTS is set (CI sets it, and
// installs Debian's chromium) and is skipped otherwise.
func browser(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("SKILLOPT_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("SKILLOPT_BROWSER_TESTS") != "" {
		t.Fatal("SKILLOPT_BROWSER_TESTS is set but no Chromium was found (install Debian's chromium package, or set SKILLOPT_CHROMIUM)")
	}
	t.Skip("no Chromium found: the HTML report is not rendered (set SKILLOPT_BROWSER_TESTS=1 to make this a failure)")
	return ""
}

func hexColor(s string) [3]int {
	v, _ := strconv.ParseUint(s[1:], 16, 32)
	return [3]int{int(v >> 16 & 0xff), int(v >> 8 & 0xff), int(v & 0xff)}
}

// TestHTMLRendersInBrowser renders the conversation report in headless
// Chromium, takes a screenshot and checks the chart in it: the three
// colours are there, the tallest bar is as high as the plot, every turn
// has its two bars, and their heights follow the token counts.
func TestHTMLRendersInBrowser(t *testing.T) {
	chromium := browser(t)
	cv := goldenConversation(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteConversationHTML(f, cv); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "shot.png")
	const width, height = 1000, 1300
	// A guard against a hung browser, not a timing assertion.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--hide-scrollbars",
		"--force-device-scale-factor=1", "--force-color-profile=srgb",
		fmt.Sprintf("--window-size=%d,%d", width, height), "--screenshot="+shot,
		"file://"+page)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	pf, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v\n%s", err, out)
	}
	defer pf.Close()
	img, err := png.Decode(pf)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != width || b.Dy() != height {
		t.Fatalf("screenshot is %dx%d, want %dx%d", b.Dx(), b.Dy(), width, height)
	}
	colors := map[string][3]int{"cached": hexColor(ColorCached), "written": hexColor(ColorWritten), "uncached": hexColor(ColorUncached)}
	near := func(x, y int, c [3]int) bool {
		r, g, b, _ := img.At(x, y).RGBA()
		px := [3]int{int(r >> 8), int(g >> 8), int(b >> 8)}
		for i := range px {
			if math.Abs(float64(px[i]-c[i])) > 10 {
				return false
			}
		}
		return true
	}
	counts := map[string]int{}
	bounds := img.Bounds()
	// runs[x] is the longest vertical run of chart colours in column x.
	runs := make([]int, bounds.Dx())
	top := make([]int, bounds.Dx())
	for x := bounds.Min.X; x < bounds.Max.X; x++ {
		run := 0
		for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
			hit := false
			for name, c := range colors {
				if near(x, y, c) {
					counts[name]++
					hit = true
				}
			}
			if hit {
				run++
				if run > runs[x] {
					runs[x] = run
					top[x] = y - run + 1
				}
			} else {
				run = 0
			}
		}
	}
	for name := range colors {
		if counts[name] < 200 {
			t.Errorf("the chart shows %d pixels of %s, want a bar's worth", counts[name], name)
		}
	}
	// Bars: runs of adjacent columns taller than the legend's swatches.
	type bar struct{ x0, x1, h int }
	var bars []bar
	for x := 0; x < len(runs); x++ {
		if runs[x] <= 20 {
			continue
		}
		b := bar{x0: x, h: runs[x]}
		for x+1 < len(runs) && runs[x+1] > 20 {
			x++
			b.h = max(b.h, runs[x])
		}
		b.x1 = x
		bars = append(bars, b)
	}
	if len(bars) != 2*len(cv.Turns) {
		t.Fatalf("found %d bars, want %d (two per turn): %+v", len(bars), 2*len(cv.Turns), bars)
	}
	tallest, maxTokens := 0, 0
	for _, turn := range cv.Turns {
		maxTokens = max(maxTokens, turn.Before.Input, turn.After.Input)
	}
	for i, b := range bars {
		tallest = max(tallest, b.h)
		turn := cv.Turns[i/2]
		tokens := turn.Before.Input
		if i%2 == 1 {
			tokens = turn.After.Input
		}
		want := float64(tokens) * ChartPlotHeight / float64(maxTokens)
		if math.Abs(float64(b.h)-want) > 2 {
			t.Errorf("bar %d (turn %d) is %d px high, want %.0f for %d tokens", i, turn.Turn, b.h, want, tokens)
		}
		if w := b.x1 - b.x0 + 1; w < 10 || w > 40 {
			t.Errorf("bar %d is %d px wide", i, w)
		}
	}
	if math.Abs(float64(tallest-ChartPlotHeight)) > 2 {
		t.Errorf("the tallest bar is %d px, want the plot's %d", tallest, ChartPlotHeight)
	}
	// The chart is one picture: every bar stands on the same axis.
	base := -1
	for _, b := range bars {
		bottom := top[b.x0] + runs[b.x0] - 1
		if base < 0 {
			base = bottom
		}
		if math.Abs(float64(bottom-base)) > 1 {
			t.Errorf("bars stand at y=%d and y=%d", base, bottom)
		}
	}
}
