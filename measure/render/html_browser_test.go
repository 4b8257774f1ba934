package render

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"image"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skillopt/skillopt/measure"
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

// writePage writes the conversation report to dir/name; probe, when
// not empty, is a script put at the end of the body (test pages only:
// the report itself has none).
func writePage(t *testing.T, dir, name string, cv *measure.Conversation, probe string) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteConversationHTML(&b, cv); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if probe != "" {
		if !strings.Contains(page, "</body>") {
			t.Fatal("the page has no </body>")
		}
		page = strings.Replace(page, "</body>", "<script>"+probe+"</script>\n</body>", 1)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runChromium runs headless Chromium on a page in a window of the given
// size with the extra arguments, and returns what it printed on stdout.
func runChromium(t *testing.T, chromium, page string, width, height int, args ...string) []byte {
	t.Helper()
	dir := t.TempDir()
	// A guard against a hung browser, not a timing assertion.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	all := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + filepath.Join(dir, "profile"), "--hide-scrollbars",
		"--force-device-scale-factor=1", "--force-color-profile=srgb",
		fmt.Sprintf("--window-size=%d,%d", width, height)}, args...)
	cmd := exec.CommandContext(ctx, chromium, append(all, "file://"+page)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	return stdout.Bytes()
}

// screenshot renders a page and decodes the PNG, which stays in a
// temporary directory.
func screenshot(t *testing.T, chromium, page string, width, height int) image.Image {
	t.Helper()
	shot := filepath.Join(t.TempDir(), "shot.png")
	runChromium(t, chromium, page, width, height, "--screenshot="+shot)
	pf, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer pf.Close()
	img, err := png.Decode(pf)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != width || b.Dy() != height {
		t.Fatalf("screenshot is %dx%d, want %dx%d", b.Dx(), b.Dy(), width, height)
	}
	return img
}

// A shotBar is a bar of the turn chart found in a screenshot: columns x0
// to x1, h pixels high, standing on y = bottom.
type shotBar struct{ x0, x1, h, bottom int }

// findBars finds the bars of the turn chart in a screenshot: runs of
// adjacent columns whose longest vertical run of the chart's colours is
// taller than the legend's swatches. It also counts the pixels of each
// colour.
func findBars(img image.Image) ([]shotBar, map[string]int) {
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
	var bars []shotBar
	for x := 0; x < len(runs); x++ {
		if runs[x] <= 20 {
			continue
		}
		b := shotBar{x0: x, h: runs[x], bottom: top[x] + runs[x] - 1}
		for x+1 < len(runs) && runs[x+1] > 20 {
			x++
			b.h = max(b.h, runs[x])
		}
		b.x1 = x
		bars = append(bars, b)
	}
	return bars, counts
}

// checkBars compares the bars found with the token counts they stand for
// (before and after, in turn order): each is as high as its count makes
// it, the tallest as high as the plot, all on one axis.
func checkBars(t *testing.T, bars []shotBar, tokens []float64, minWidth, maxWidth int) {
	t.Helper()
	if len(bars) != len(tokens) {
		t.Fatalf("found %d bars, want %d: %+v", len(bars), len(tokens), bars)
	}
	top := 0.0
	for _, v := range tokens {
		top = max(top, v)
	}
	tallest := 0
	for i, b := range bars {
		tallest = max(tallest, b.h)
		want := tokens[i] * ChartPlotHeight / top
		if math.Abs(float64(b.h)-want) > 2 {
			t.Errorf("bar %d is %d px high, want %.0f for %.0f tokens", i, b.h, want, tokens[i])
		}
		if w := b.x1 - b.x0 + 1; w < minWidth || w > maxWidth {
			t.Errorf("bar %d is %d px wide, want %d to %d", i, w, minWidth, maxWidth)
		}
		if math.Abs(float64(b.bottom-bars[0].bottom)) > 1 {
			t.Errorf("bars stand at y=%d and y=%d", bars[0].bottom, b.bottom)
		}
	}
	if math.Abs(float64(tallest-ChartPlotHeight)) > 2 {
		t.Errorf("the tallest bar is %d px, want the plot's %d", tallest, ChartPlotHeight)
	}
}

// TestHTMLRendersInBrowser renders the conversation report in headless
// Chromium, takes a screenshot and checks the chart in it: the three
// colours are there, the tallest bar is as high as the plot, every turn
// has its two bars, and their heights follow the token counts.
func TestHTMLRendersInBrowser(t *testing.T) {
	chromium := browser(t)
	cv := goldenConversation(t)
	page := writePage(t, t.TempDir(), "report.html", cv, "")
	img := screenshot(t, chromium, page, 1400, 1300)
	bars, counts := findBars(img)
	for _, name := range []string{"cached", "written", "uncached"} {
		if counts[name] < 200 {
			t.Errorf("the chart shows %d pixels of %s, want a bar's worth", counts[name], name)
		}
	}
	var tokens []float64
	for _, turn := range cv.Turns {
		tokens = append(tokens, float64(turn.Before.Input), float64(turn.After.Input))
	}
	checkBars(t, bars, tokens, 10, 40)
}

// layoutProbe measures the page as laid out, every <details> opened,
// and writes what it found as JSON into the page, for --dump-dom.
const layoutProbe = `(function () {
  var d = document.documentElement, r = {closedScrollWidth: d.scrollWidth};
  document.querySelectorAll("details").forEach(function (x) { x.open = true; });
  r.scrollWidth = d.scrollWidth;
  r.clientWidth = d.clientWidth;
  r.right = 0;
  document.querySelectorAll("body *").forEach(function (el) {
    var b = el.getBoundingClientRect();
    if (b.width > 0 && b.right > r.right) { r.right = b.right; r.widest = el.tagName + (el.id ? "#" + el.id : ""); }
  });
  var h = document.getElementById("headline");
  r.headline = h ? h.innerText : "";
  r.headlineBottom = h ? h.getBoundingClientRect().bottom : -1;
  var c = document.getElementById("turns").getBoundingClientRect();
  r.chart = [c.left, c.top, c.right, c.bottom];
  r.rows = document.querySelectorAll("#all-turns tr").length;
  var p = document.createElement("pre");
  p.id = "probe";
  p.textContent = JSON.stringify(r);
  document.body.appendChild(p);
})();`

// TestHTMLLongConversationInBrowser renders the report of a synthetic
// 453-turn conversation at 1400 × 900. Laid out with every table
// unfolded, nothing is wider than the window and the page does not
// scroll sideways; the headline shows the cost before → after and the
// turn chart is on the first screen; in a screenshot the chart has a
// pair of bars per five turns, as high as their mean tokens.
func TestHTMLLongConversationInBrowser(t *testing.T) {
	chromium := browser(t)
	cv := longConversation(453)
	const width, height = 1400, 900
	dir := t.TempDir()
	dom := runChromium(t, chromium, writePage(t, dir, "probe.html", cv, layoutProbe), width, height, "--dump-dom")
	m := regexp.MustCompile(`<pre id="probe">([^<]*)</pre>`).FindSubmatch(dom)
	if m == nil {
		t.Fatalf("the probe wrote nothing; the page as dumped:\n%.2000s", dom)
	}
	var got struct {
		ClosedScrollWidth, ScrollWidth, ClientWidth int
		Right                                       float64
		Widest                                      string
		Headline                                    string
		HeadlineBottom                              float64
		Chart                                       []float64
		Rows                                        int
	}
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &got); err != nil {
		t.Fatalf("%v: %s", err, m[1])
	}
	t.Logf("layout: %+v", got)
	if got.ClientWidth < width-20 || got.ClientWidth > width {
		t.Fatalf("the page is %d px wide in a %d px window", got.ClientWidth, width)
	}
	if got.Rows != len(cv.Turns)+2 {
		t.Errorf("the unfolded turn table has %d rows, want %d", got.Rows, len(cv.Turns)+2)
	}
	if got.ClosedScrollWidth > got.ClientWidth || got.ScrollWidth > got.ClientWidth {
		t.Errorf("the page scrolls sideways: %d px (%d with the tables unfolded) in %d", got.ClosedScrollWidth, got.ScrollWidth, got.ClientWidth)
	}
	if got.Right > float64(got.ClientWidth) {
		t.Errorf("%s reaches x = %.0f, past the window's %d px", got.Widest, got.Right, got.ClientWidth)
	}
	want := Cost(cv.Total.Before.Cost) + " → " + Cost(cv.Total.After.Cost)
	if !regexp.MustCompile(`^\$\d+\.\d{4} → \$\d+\.\d{4}\b`).MatchString(got.Headline) || !strings.HasPrefix(got.Headline, want) {
		t.Errorf("the headline reads %q, want it to start with %q", got.Headline, want)
	}
	if got.HeadlineBottom <= 0 || got.HeadlineBottom > 200 {
		t.Errorf("the headline ends at y = %.0f, not near the top", got.HeadlineBottom)
	}
	if len(got.Chart) != 4 || got.Chart[2] > float64(got.ClientWidth) || got.Chart[3] > height {
		t.Errorf("the turn chart is at %v, not on the first %d × %d screen", got.Chart, width, height)
	}

	img := screenshot(t, chromium, writePage(t, dir, "report.html", cv, ""), width, height)
	bars, _ := findBars(img)
	per := turnsPerBar(len(cv.Turns))
	var tokens []float64
	for from := 0; from < len(cv.Turns); from += per {
		group := cv.Turns[from:min(from+per, len(cv.Turns))]
		var b, a float64
		for _, turn := range group {
			b += float64(turn.Before.Input)
			a += float64(turn.After.Input)
		}
		tokens = append(tokens, b/float64(len(group)), a/float64(len(group)))
	}
	checkBars(t, bars, tokens, 3, 40)
	if last := bars[len(bars)-1]; last.x1 >= width-24 {
		t.Errorf("the last bar ends at x = %d, in the page's margin", last.x1)
	}
}

// TestHTMLEventMarksInBrowser renders a conversation with a cold start
// and an expired cache: each event's mark shows in its kind's colour
// under the bars, which stay as the token counts make them.
func TestHTMLEventMarksInBrowser(t *testing.T) {
	chromium := browser(t)
	cv := converse(t, ttlRequests(t), measure.ConversationOptions{})
	page := writePage(t, t.TempDir(), "report.html", cv, "")
	img := screenshot(t, chromium, page, 1400, 1300)
	bars, _ := findBars(img)
	var tokens []float64
	for _, turn := range cv.Turns {
		tokens = append(tokens, float64(turn.Before.Input), float64(turn.After.Input))
	}
	checkBars(t, bars, tokens, 10, 40)
	for _, k := range []string{measure.EventColdStart, measure.EventTTL} {
		c := hexColor(EventColors[k])
		n, below := 0, 0
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r, g, bl, _ := img.At(x, y).RGBA()
				if abs(int(r>>8)-c[0]) <= 10 && abs(int(g>>8)-c[1]) <= 10 && abs(int(bl>>8)-c[2]) <= 10 {
					n++
					if y > bars[0].bottom {
						below++
					}
				}
			}
		}
		// A legend swatch (10 × 10) and one mark (8 × 10), both under
		// the bars.
		if n < 150 || below != n {
			t.Errorf("%s: %d pixels of its colour, %d under the bars; want a swatch and a mark under them", k, n, below)
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
