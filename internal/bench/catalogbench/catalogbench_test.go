package catalogbench

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// simulate replays a session request by request: each request carries the
// fixed request bytes plus every response returned so far (pages, then the
// load once loaded).
func simulate(request int, pages []int, load, replay int) (requests, total int) {
	var carried []int
	send := func() {
		requests++
		total += request
		for _, c := range carried {
			total += c
		}
	}
	send() // the user's request; the model browses or loads
	for _, p := range pages {
		carried = append(carried, p)
		send()
	}
	carried = append(carried, load)
	for range replay {
		send()
	}
	return requests, total
}

func TestTagSession(t *testing.T) {
	tests := []struct {
		pages  []int
		replay int
	}{
		{[]int{700}, 8},
		{[]int{700, 650, 600, 550, 500}, 8},
		{[]int{900, 10}, 0},
		{[]int{1}, 1},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.pages, tt.replay), func(t *testing.T) {
			gotReq, gotBytes := tagSession(1000, tt.pages, tt.replay)
			wantReq, wantBytes := simulate(1000, tt.pages, LoadBytes, tt.replay)
			if gotReq != wantReq || gotBytes != wantBytes {
				t.Errorf("tagSession = %d requests, %d bytes; replay gives %d, %d", gotReq, gotBytes, wantReq, wantBytes)
			}
		})
	}
	// The default session: 10 requests with the tag directory, where the
	// compact index needs 9.
	if req, _ := tagSession(1000, []int{700}, 8); req != 10 {
		t.Errorf("one browse page and 8 follow-ups: %d requests, want 10", req)
	}
}

func TestRun(t *testing.T) {
	row, err := Run(300, 2, 8)
	if err != nil {
		t.Fatal(err)
	}
	if row.CompactRequests != 9 || row.TagRequests != 10 {
		t.Errorf("requests %d compact, %d tag; want 9 and 10", row.CompactRequests, row.TagRequests)
	}
	if req, total := simulate(row.OtherBytes+row.CompactBytes, nil, LoadBytes, 8); req != row.CompactRequests || total != row.CumulativeCompact {
		t.Errorf("compact session: %d requests, %d bytes; replay gives %d, %d", row.CompactRequests, row.CumulativeCompact, req, total)
	}
	if row.BrowsedPages < 1 || row.BrowsedPages > BrowsePages {
		t.Errorf("browsed %d pages", row.BrowsedPages)
	}
	if row.ManyPageRequests != row.TagRequests+row.BrowsedPages-1 {
		t.Errorf("%d-page session has %d requests, one-page %d", row.BrowsedPages, row.ManyPageRequests, row.TagRequests)
	}
	if !row.PaginationComplete || row.PaginatedOnce != 300 {
		t.Errorf("pagination %s", row.Pagination)
	}
	if row.PeakSource != "" && row.PeakMiB <= 0 {
		t.Errorf("peak %.1f MiB from %q", row.PeakMiB, row.PeakSource)
	}
}

// TestBrowsesFivePages: a catalog large enough browses all five pages and
// the text says nothing about fewer; a small one says how many it read.
func TestBrowsesFivePages(t *testing.T) {
	big, err := Run(3000, 1, 8)
	if err != nil {
		t.Fatal(err)
	}
	if big.BrowsedPages != BrowsePages {
		t.Fatalf("3,000 skills: browsed %d pages, want %d", big.BrowsedPages, BrowsePages)
	}
	small := big
	small.Skills, small.BrowsedPages = 10, 2
	var b strings.Builder
	if err := WriteText(&b, []Row{big, small}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Count(out, "pages)") != 1 || !strings.Contains(out, "(2 pages)") {
		t.Errorf("page notes wrong:\n%s", out)
	}
	if !strings.Contains(out, "3,000") {
		t.Errorf("no thousands separator:\n%s", out)
	}
	if !strings.Contains(out, "10 with the tag directory") {
		t.Errorf("session note missing:\n%s", out)
	}
}

// TestStartup builds the empty program and measures it against itself (an
// empty program ignores skillopt's arguments): every figure is positive
// and the ratio is the quotient of the medians.
func TestStartup(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	empty, err := BuildEmptyProgram(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s, err := MeasureStartup(empty, empty, 3)
	if err != nil {
		t.Fatal(err)
	}
	if s.Runs != 3 || s.VersionMS <= 0 || s.EmptyMS <= 0 || s.ColdTransformMS <= 0 || s.ColdTransformSkills != ColdTransformSkills {
		t.Fatalf("%+v", s)
	}
	if want := float64(int(s.VersionMS/s.EmptyMS*100+0.5)) / 100; s.Ratio != want {
		t.Fatalf("ratio %v, want %v", s.Ratio, want)
	}
	if _, err := MeasureStartup(empty, filepath.Join(t.TempDir(), "missing"), 1); err == nil {
		t.Fatal("a missing program measured")
	}
}

// TestPrefetchFigures: a run reports the prefetch request, its allocation
// and the first request.
func TestPrefetchFigures(t *testing.T) {
	row, err := Run(355, 1, 8)
	if err != nil {
		t.Fatal(err)
	}
	if row.WarmPrefetchMS <= 0 || row.FirstRequestMS <= 0 || row.PrefetchAllocBytes <= 0 {
		t.Fatalf("prefetch %.3f ms, %d B; first %.3f ms", row.WarmPrefetchMS, row.PrefetchAllocBytes, row.FirstRequestMS)
	}
}

// TestStartupOfSelfNotMeasured: without runs or without the empty
// program, the note says why nothing was measured.
func TestStartupOfSelfNotMeasured(t *testing.T) {
	if s, note := StartupOfSelf("", 0); s != nil || note != "not measured (--startup-runs 0)" {
		t.Errorf("0 runs: %v %q", s, note)
	}
	if s, note := StartupOfSelf(filepath.Join(t.TempDir(), "missing"), 1); s != nil || !strings.HasPrefix(note, "not measured: ") {
		t.Errorf("missing program: %v %q", s, note)
	}
}

// TestReportJSON: without a start-up comparison the ratio and the
// comparison are null and the note says why; with one, the ratio is its.
func TestReportJSON(t *testing.T) {
	data, err := json.Marshal(NewReport([]Row{}, nil, "not measured"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"rows":[],"startup_ratio":null,"startup":null,"startup_note":"not measured"}`; string(data) != want {
		t.Errorf("%s, want %s", data, want)
	}
	if r := NewReport(nil, &Startup{Ratio: 1.5}, ""); r.StartupRatio == nil || *r.StartupRatio != 1.5 {
		t.Errorf("ratio %v", r.StartupRatio)
	}
}
