package measure_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/measure"
)

// corpusInputs reads the captures under the given paths of the shared
// corpus (files, or directories with their meta/ sidecars) as measure
// --conversation does, directories in natural name order.
func corpusInputs(t *testing.T, paths ...string) []measure.Input {
	t.Helper()
	root := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("shared corpus not present at %s", root)
	}
	var args []string
	for _, p := range paths {
		args = append(args, filepath.Join(root, p))
	}
	names, err := capture.Expand(args)
	if err != nil {
		t.Fatal(err)
	}
	sort.SliceStable(names, func(i, j int) bool { return naturalKey(names[i]) < naturalKey(names[j]) })
	var files []*capture.File
	for _, n := range names {
		f, err := capture.ReadFile(n, nil, capture.Options{})
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		files = append(files, f)
	}
	ins, errs := measure.Inputs(files)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return ins
}

// naturalKey pads the runs of digits of a name so that names compare in
// natural order ("req2" before "req10").
func naturalKey(s string) string {
	return regexp.MustCompile(`[0-9]+`).ReplaceAllStringFunc(s, func(d string) string {
		return fmt.Sprintf("%09s", d)
	})
}

// threadNames lists the base names of each conversation's requests.
func threadNames(ths []measure.Thread) [][]string {
	out := make([][]string, len(ths))
	for i, th := range ths {
		for _, in := range th.Inputs {
			out[i] = append(out[i], filepath.Base(in.Name))
		}
	}
	return out
}

// TestSplitPiCaptures: the 18 requests of the six three-turn Pi
// conversations are six conversations of three turns, in order; the
// OpenAI Responses one by its session_id header (in the meta/ sidecars),
// the others by shared prefix.
func TestSplitPiCaptures(t *testing.T) {
	ins := corpusInputs(t, filepath.Join("captures", "pi-0.73.1"))
	if len(ins) != 18 {
		t.Fatalf("%d requests, want 18", len(ins))
	}
	ths := measure.Split(ins)
	var got []string
	for i, th := range ths {
		names := threadNames(ths)[i]
		stem := strings.TrimSuffix(names[0], "-1.json")
		want := []string{stem + "-1.json", stem + "-2.json", stem + "-3.json"}
		if strings.Join(names, " ") != strings.Join(want, " ") || th.Name != want[0] {
			t.Errorf("conversation %d (%s): %v, want %v", i+1, th.Name, names, want)
		}
		wantBy := measure.FoundByPrefix
		if stem == "pi-openai-responses-small" {
			wantBy = measure.FoundByID
		}
		if th.FoundBy != wantBy {
			t.Errorf("%s: found by %q, want %q", th.Name, th.FoundBy, wantBy)
		}
		got = append(got, stem)
	}
	want := []string{"pi-anthropic-messages-small", "pi-google-generative-ai-small", "pi-mistral-conversations-small",
		"pi-openai-completions-small", "pi-openai-completions-vllm-small", "pi-openai-responses-small"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("conversations %v, want %v", got, want)
	}
}

// TestSplitRecordedSeries: in each provider folder, the requests of one
// recorded pydantic-ai test (NAME.reqN.json) are one conversation that
// holds no other request, except where the recording holds more than
// one: the tool-search evaluations run one agent per question (and the
// search adds tool declarations along the way, which keeps a run one
// conversation), and a compaction replaces the history, so that the
// request after it shares no prefix with the ones before (and carries
// no id).
func TestSplitRecordedSeries(t *testing.T) {
	exceptions := map[string][][]int{
		"openai-chat/pydantic-ai_test_tool_search_eval_openai-chat":           {{1, 2, 3}, {4, 5, 6}, {7}, {8}},
		"gemini/pydantic-ai_test_tool_search_eval_google":                     {{1, 2, 3}, {4, 5, 6}, {7}, {8, 9, 10}},
		"openai-responses/pydantic-ai_test_openai_responses_compact_messages": {{1, 2}, {4}},
	}
	reqN := regexp.MustCompile(`^(pydantic-ai_.*)\.req([0-9]+)\.json$`)
	series := 0
	for _, dir := range []string{"anthropic", "openai-chat", "openai-responses", "gemini", "mistral"} {
		ins := corpusInputs(t, filepath.Join("provider-examples", dir))
		ths := measure.Split(ins)
		// Where each request went.
		type place struct{ conv, n int }
		where := map[string][]place{}
		members := make([]map[string]bool, len(ths))
		for i, names := range threadNames(ths) {
			members[i] = map[string]bool{}
			for _, name := range names {
				m := reqN.FindStringSubmatch(name)
				if m == nil {
					members[i]["other:"+name] = true
					continue
				}
				n, _ := strconv.Atoi(m[2])
				key := dir + "/" + m[1]
				where[key] = append(where[key], place{i, n})
				members[i][key] = true
			}
		}
		for key, ps := range where {
			if len(ps) < 2 {
				continue
			}
			series++
			// The series's conversations, as lists of request numbers.
			var got [][]int
			index := map[int]int{}
			for _, p := range ps {
				k, ok := index[p.conv]
				if !ok {
					k = len(got)
					index[p.conv] = k
					got = append(got, nil)
				}
				got[k] = append(got[k], p.n)
			}
			want, listed := exceptions[key]
			if !listed || want == nil {
				var all []int
				for _, p := range ps {
					all = append(all, p.n)
				}
				want = [][]int{all}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: conversations %v, want %v", key, got, want)
			}
			for conv := range index {
				if len(members[conv]) != 1 {
					t.Errorf("%s: its conversation %q holds other requests: %v", key, ths[conv].Name, members[conv])
				}
			}
		}
	}
	if series < 25 {
		t.Errorf("only %d recorded series of two requests or more", series)
	}
}

// TestSplitEnvelopes: each mixed-provider JSONL and HAR file holds the
// same context sent to five providers, unrelated requests: as many
// conversations as requests.
func TestSplitEnvelopes(t *testing.T) {
	for _, name := range []string{"har_mixed-providers.har", "jsonl_envelopes_mixed-providers.jsonl", "jsonl_bare-bodies_mixed-providers.jsonl"} {
		ins := corpusInputs(t, filepath.Join("provider-examples", "envelopes", name))
		ths := measure.Split(ins)
		if len(ins) != 5 || len(ths) != len(ins) {
			t.Errorf("%s: %d requests in %d conversations, want 5 in 5: %v", name, len(ins), len(ths), threadNames(ths))
		}
		for i, th := range ths {
			if len(th.Inputs) != 1 || th.Inputs[0].Name != ins[i].Name {
				t.Errorf("%s: conversation %d is %v, want %s alone", name, i+1, threadNames(ths)[i], ins[i].Name)
			}
		}
	}
}

// TestSplitPiSessions: a Pi session file is one conversation, whatever
// its branches and compactions.
func TestSplitPiSessions(t *testing.T) {
	ins := corpusInputs(t, filepath.Join("provider-examples", "pi"))
	sessions := 0
	for _, th := range measure.Split(ins) {
		if th.FoundBy != measure.FoundBySession {
			continue
		}
		sessions++
		for _, in := range th.Inputs {
			if !strings.HasPrefix(filepath.Base(in.Name), th.Name+":") {
				t.Errorf("%s holds %s", th.Name, in.Name)
			}
		}
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "shared", "corpus", "provider-examples", "pi", "*.jsonl"))
	if sessions != len(files) || sessions < 3 {
		t.Errorf("%d conversations by Pi session, want one per session file (%d)", sessions, len(files))
	}
}
