package commands

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The default pipeline never makes a request or a conversation dearer:
// these tests hold it to that on every real capture and conversation of
// the shared corpus.

type measureSaving struct {
	Rule       string `json:"rule"`
	SavedBytes int    `json:"saved_bytes"`
	Idle       string `json:"idle"`
	Dropped    string `json:"dropped"`
}

type measureCapture struct {
	Name  string `json:"name"`
	Bytes int    `json:"bytes"`
	After struct {
		Bytes int `json:"bytes"`
	} `json:"after"`
	Savings []measureSaving `json:"savings"`
}

// TestCorpusDefaultNeverLarger: on every corpus file, measure shows no
// default rule with a negative saving and no capture that grows; transform
// writes a file no larger than the input, and byte for byte the input
// when measure shows no rule saving anything.
func TestCorpusDefaultNeverLarger(t *testing.T) {
	archiveDir := t.TempDir()
	unchanged, smaller := 0, 0
	for _, p := range corpusFiles(t) {
		in, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		if code := run([]string{"skillopt", "measure", "--format", "json", "--encoding", "none", p}, nil, &stdout, &stderr); code != 0 {
			t.Errorf("%s: measure exit %d: %s", p, code, stderr.String())
			continue
		}
		var rep struct {
			Captures []measureCapture `json:"captures"`
		}
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		saves := false
		for _, c := range rep.Captures {
			if c.After.Bytes > c.Bytes {
				t.Errorf("%s: grows from %d to %d bytes", c.Name, c.Bytes, c.After.Bytes)
			}
			for _, s := range c.Savings {
				if s.SavedBytes < 0 {
					t.Errorf("%s: %s saves %d bytes", c.Name, s.Rule, s.SavedBytes)
				}
				if s.SavedBytes == 0 && s.Idle == "" && s.Dropped == "" {
					t.Errorf("%s: %s saves nothing and says not why", c.Name, s.Rule)
				}
				saves = saves || s.SavedBytes > 0
			}
		}
		stdout.Reset()
		stderr.Reset()
		if code := run([]string{"skillopt", "transform", "-q", "--archive", archiveDir, p}, nil, &stdout, &stderr); code != 0 {
			t.Errorf("%s: transform exit %d: %s", p, code, stderr.String())
			continue
		}
		out := stdout.Bytes()
		switch {
		case len(out) > len(in):
			t.Errorf("%s: transform grew the file from %d to %d bytes", p, len(in), len(out))
		case !saves && !bytes.Equal(out, in):
			t.Errorf("%s: no rule saves anything, but transform changed the bytes", p)
		case !saves:
			unchanged++
		default:
			smaller++
		}
	}
	t.Logf("%d files unchanged, %d smaller", unchanged, smaller)
	if smaller == 0 {
		t.Error("the default pipeline shrank no corpus file")
	}
}

// conversationsOf returns the conversations measure --conversation reads
// in the corpus, by name: the three-turn Pi conversations, the successive
// requests of one recorded test (NAME.reqN.json), and every JSONL and HAR
// file (Pi sessions, recorded traffic).
func conversationsOf(t *testing.T) map[string][]string {
	t.Helper()
	convs := map[string][]string{}
	reqN := regexp.MustCompile(`^(.*)\.req([0-9]+)\.json$`)
	type turn struct {
		n    int
		path string
	}
	series := map[string][]turn{}
	for _, p := range corpusFiles(t) {
		base := filepath.Base(p)
		switch {
		case strings.Contains(p, "pi-0.73.1") && strings.Contains(base, "-small-"):
			k := base[:strings.LastIndexByte(base, '-')]
			n, _ := strconv.Atoi(strings.TrimSuffix(base[strings.LastIndexByte(base, '-')+1:], ".json"))
			series[k] = append(series[k], turn{n, p})
		case reqN.MatchString(base):
			m := reqN.FindStringSubmatch(base)
			n, _ := strconv.Atoi(m[2])
			series[filepath.Join(filepath.Dir(p), m[1])] = append(series[filepath.Join(filepath.Dir(p), m[1])], turn{n, p})
		case strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".har"):
			convs[base] = []string{p}
		}
	}
	// The host session files and recorded traffic: each file, and a
	// session with its subagents' files beside it (one input, so that
	// they share one cache).
	sessions := filepath.Join("..", "..", "..", "shared", "corpus", "sessions")
	filepath.WalkDir(sessions, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".jsonl" || strings.Contains(p, string(filepath.Separator)+"streams"+string(filepath.Separator)) {
			return err
		}
		if strings.Contains(p, string(filepath.Separator)+"subagents"+string(filepath.Separator)) {
			main := filepath.Dir(filepath.Dir(p)) + ".jsonl"
			if _, err := os.Stat(main); err == nil {
				k := filepath.Base(main) + " with subagents"
				if len(convs[k]) == 0 {
					convs[k] = []string{main}
				}
				convs[k] = append(convs[k], p)
			}
			return nil
		}
		convs[filepath.Base(p)] = []string{p}
		return nil
	})
	for k, ts := range series {
		if len(ts) < 2 {
			continue
		}
		sort.Slice(ts, func(a, b int) bool { return ts[a].n < ts[b].n })
		for _, x := range ts {
			convs[k] = append(convs[k], x.path)
		}
	}
	return convs
}

type convBreak struct {
	Rule   string   `json:"rule"`
	Reason string   `json:"reason"`
	Cost   *float64 `json:"cost"`
}

// TestCorpusConversationsNeverDearer: on every conversation of the corpus,
// the default pipeline's requests cost no more than the captured ones,
// summed over the turns whose model has a price, and no turn's prompt
// grows; a prefix break a rule causes happens at most once and comes with
// the rule's reason.
func TestCorpusConversationsNeverDearer(t *testing.T) {
	convs := conversationsOf(t)
	if len(convs) < 25 {
		t.Fatalf("only %d conversations", len(convs))
	}
	names := make([]string, 0, len(convs))
	for k := range convs {
		names = append(names, k)
	}
	sort.Strings(names)
	var summary strings.Builder
	for _, split := range []bool{true, false} {
		for _, name := range names {
			neverDearer(t, name, convs[name], split, &summary)
		}
	}
	t.Log("\n" + summary.String())
}

// neverDearer measures one corpus conversation (or the conversations of
// one input) split or, with --no-split, as one, and checks what
// TestCorpusConversationsNeverDearer says, for every conversation and for
// the input's total.
func neverDearer(t *testing.T, name string, files []string, split bool, summary *strings.Builder) {
	t.Helper()
	{
		var stdout, stderr bytes.Buffer
		argv := []string{"skillopt", "measure", "--conversation", "--format", "json"}
		if !split {
			argv = append(argv, "--no-split")
			name += " (--no-split)"
		}
		argv = append(argv, files...)
		if code := run(argv, nil, &stdout, &stderr); code != 0 {
			// A file measure cannot read as requests is not a
			// conversation it measures.
			t.Logf("%s: exit %d: %s", name, code, strings.TrimSpace(stderr.String()))
			return
		}
		type conv struct {
			Name  string `json:"name"`
			Turns []struct {
				Turn   int `json:"turn"`
				Before struct {
					Input int      `json:"input"`
					Cost  *float64 `json:"cost"`
				} `json:"before"`
				After struct {
					Input int        `json:"input"`
					Cost  *float64   `json:"cost"`
					Break *convBreak `json:"prefix_break"`
				} `json:"after"`
			} `json:"turns"`
		}
		// One conversation, or several found among the captures.
		var rep struct {
			Conversation  *conv  `json:"conversation"`
			Conversations []conv `json:"conversations"`
			Summary       *struct {
				Total struct {
					Before struct {
						Cost *float64 `json:"cost"`
					} `json:"before"`
					After struct {
						Cost *float64 `json:"cost"`
					} `json:"after"`
				} `json:"total"`
			} `json:"summary"`
		}
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if rep.Conversation != nil {
			rep.Conversations = []conv{*rep.Conversation}
		}
		if rep.Summary != nil {
			if b, a := rep.Summary.Total.Before.Cost, rep.Summary.Total.After.Cost; b != nil && a != nil && *a > *b+1e-12 {
				t.Errorf("%s: the input costs $%.6f after the rules, $%.6f before", name, *a, *b)
			}
		}
		if len(rep.Conversations) == 0 {
			t.Errorf("%s: no conversation in the report", name)
		}
		for _, cv := range rep.Conversations {
			name := name
			if len(rep.Conversations) > 1 {
				name += " (" + cv.Name + ")"
			}
			var before, after float64
			breaks := 0
			for _, turn := range cv.Turns {
				if turn.After.Input > turn.Before.Input {
					t.Errorf("%s turn %d: the prompt grows from %d to %d tokens", name, turn.Turn, turn.Before.Input, turn.After.Input)
				}
				if turn.Before.Cost != nil && turn.After.Cost != nil {
					before += *turn.Before.Cost
					after += *turn.After.Cost
				}
				if b := turn.After.Break; b != nil && b.Rule != "" {
					breaks++
					if b.Reason == "" {
						t.Errorf("%s turn %d: %s breaks the prefix without a reason", name, turn.Turn, b.Rule)
					}
				}
			}
			if after > before+1e-12 {
				t.Errorf("%s: the conversation costs $%.6f after the rules, $%.6f before", name, after, before)
			}
			if breaks > 1 {
				t.Errorf("%s: %d prefix breaks by a rule", name, breaks)
			}
			fmt.Fprintf(summary, "%s: %d turns, $%.4f → $%.4f, %d rule break(s)\n", name, len(cv.Turns), before, after, breaks)
		}
	}
}

// TestLemmySharedHead: in recorded Claude Code traffic, request #58 starts
// a new conversation of the same process and reads the tools and system
// prompt that the main conversation (#6, whose turn #33 is its latest
// before) left in the provider's cache; the default pipeline keeps that
// read, and neither the split report nor the unsplit one is dearer.
func TestLemmySharedHead(t *testing.T) {
	p := filepath.Join("..", "..", "..", "shared", "corpus", "sessions", "claude-trace", "lemmy-test-traffic.jsonl")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("corpus file not present: %s", p)
	}
	type side struct {
		Cached int      `json:"cached"`
		Cost   *float64 `json:"cost"`
	}
	type cross struct {
		Conversation string `json:"conversation"`
		Turn         int    `json:"turn"`
		Read         int    `json:"read"`
	}
	var rep struct {
		Conversations []struct {
			Name  string `json:"name"`
			Turns []struct {
				Before side `json:"before"`
				After  side `json:"after"`
				Cross  *struct {
					Before *cross `json:"before"`
					After  *cross `json:"after"`
				} `json:"cross_conversation"`
			} `json:"turns"`
		} `json:"conversations"`
		Summary struct {
			Total struct {
				Before side `json:"before"`
				After  side `json:"after"`
			} `json:"total"`
		} `json:"summary"`
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"skillopt", "measure", "--conversation", "--format", "json", p}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, cv := range rep.Conversations {
		if cv.Name != "lemmy-test-traffic.jsonl#58" {
			continue
		}
		found = true
		x := cv.Turns[0].Cross
		if x == nil || x.Before == nil || x.Before.Conversation != "lemmy-test-traffic.jsonl#6" || x.Before.Read < 10000 {
			t.Fatalf("#58 reads no tools and system prompt from #6: %+v", x)
		}
		if x.After == nil || x.After.Read != x.Before.Read {
			t.Errorf("the rules lose the shared head: %+v → %+v", x.Before, x.After)
		}
	}
	if !found {
		t.Fatal("no conversation #58")
	}
	b, a := *rep.Summary.Total.Before.Cost, *rep.Summary.Total.After.Cost
	if a > b+1e-12 {
		t.Errorf("split: $%.4f → $%.4f", b, a)
	}
	t.Logf("split: $%.4f → $%.4f", b, a)
}
