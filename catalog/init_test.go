package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestGroupsLimits(t *testing.T) {
	skills, _ := synthetic(50)
	big := Skill{Name: "huge", Description: strings.Repeat("long words ", 4000)}
	groups := Groups(append(skills[:45], big, skills[45], skills[46]))
	total := 0
	for _, g := range groups {
		total += len(g)
		size := 0
		for _, sk := range g {
			size += len(skillInput(sk))
		}
		if len(g) > GroupMaxSkills || (size > GroupMaxBytes && len(g) > 1) {
			t.Fatalf("group of %d skills and %d bytes", len(g), size)
		}
		for _, sk := range g {
			if sk.Name == "huge" && (len(g) != 1 || sk.Description != big.Description) {
				t.Fatal("oversized skill not alone or cut")
			}
		}
	}
	if total != 48 {
		t.Fatalf("%d skills grouped, want 48", total)
	}
}

// answer writes a bare cards answer for a request's skills; bad names the
// skills to leave out.
func answer(t *testing.T, in *Initializer, id string, wrap string, bad map[string]bool) {
	t.Helper()
	var req map[string]any
	data, err := in.ReadRequest(id)
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(data, &req)
	msgs := req["messages"].([]any)
	user := msgs[len(msgs)-1].(map[string]any)["content"].(string)
	var list struct {
		Skills []struct{ Name string } `json:"skills"`
	}
	json.Unmarshal([]byte(strings.SplitN(user, "\n\n", 2)[0]), &list)
	var cards []map[string]any
	for _, s := range list.Skills {
		if bad[s.Name] {
			continue
		}
		cards = append(cards, map[string]any{"name": s.Name, "card": "Does " + s.Name + ".", "tags": []string{"testing"}})
	}
	body, _ := json.Marshal(map[string]any{"cards": cards})
	if wrap == "anthropic" {
		body, _ = json.Marshal(map[string]any{"type": "message", "content": []any{map[string]any{"type": "text", "text": "```json\n" + string(body) + "\n```"}}})
	}
	os.MkdirAll(filepath.Join(in.Dir, "responses"), 0o755)
	path, err := in.ResponsePath(id)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestInitRoundTrip(t *testing.T) {
	dir := t.TempDir()
	skills, _ := synthetic(45)
	snap := NewSnapshot(skills, Options{})
	in := &Initializer{Dir: filepath.Join(dir, "init"), Profile: filepath.Join(dir, "cards.json"), Snap: snap}
	prof := NewProfile()
	st, err := in.Plan(prof)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Groups) != 3 {
		t.Fatalf("%d groups", len(st.Groups))
	}
	// g0001 answered well (wrapped as an Anthropic response), g0002 with a
	// skill missing, g0003 not yet.
	answer(t, in, "g0001", "anthropic", nil)
	missing := st.Groups[1].Skills[0]
	answer(t, in, "g0002", "", map[string]bool{missing: true})
	acc, rej, err := in.Absorb(st, prof)
	if err != nil || acc != 1 || rej != 1 {
		t.Fatalf("accepted %d rejected %d: %v", acc, rej, err)
	}
	saved, err := LoadProfile(in.Profile)
	if err != nil || len(saved.Cards) != 20 {
		t.Fatalf("checkpoint: %v, %d cards", err, len(saved.Cards))
	}
	// Every saved card has its activation tag, derived from the cards.
	if !reflect.DeepEqual(saved.Activation, DeriveActivation(saved.Cards)) || len(saved.Activation) != 20 {
		t.Errorf("activation tags: %v", saved.Activation)
	}
	req, _ := in.ReadRequest("g0002")
	if !strings.Contains(string(req), fmt.Sprintf(`\"%s\" is missing`, missing)) {
		t.Fatalf("retry request lacks feedback:\n%s", req)
	}
	// The retry fails again: the group splits in two.
	answer(t, in, "g0002", "", map[string]bool{missing: true})
	in.Absorb(st, prof)
	if st.Groups[1].Status != "split" || len(PendingIDs(st)) != 3 {
		t.Fatalf("no split: %+v pending %v", st.Groups[1], PendingIDs(st))
	}
	for _, id := range PendingIDs(st) {
		answer(t, in, id, "", nil)
	}
	in.Absorb(st, prof)
	p := ProgressOf(st)
	if p.Pending != 0 || p.Failed != 0 || p.Carded != 45 {
		t.Fatalf("progress %+v", p)
	}
	saved, _ = LoadProfile(in.Profile)
	snap2 := NewSnapshot(skills, Options{Profile: saved})
	if len(snap2.Bucket(Unclassified)) != 0 || len(snap2.Bucket("testing")) != 45 {
		t.Fatalf("profile not usable: %d unclassified", len(snap2.Bucket(Unclassified)))
	}
}

// Every answer read is reported: accepted, or rejected with its problems,
// the file the answer was kept in, and what follows.
func TestInitOutcomes(t *testing.T) {
	dir := t.TempDir()
	skills, _ := synthetic(25)
	var got []AnswerOutcome
	in := &Initializer{Dir: filepath.Join(dir, "init"), Profile: filepath.Join(dir, "cards.json"), Snap: NewSnapshot(skills, Options{}),
		OnAnswer: func(o AnswerOutcome) { got = append(got, o) }}
	prof := NewProfile()
	st, err := in.Plan(prof)
	if err != nil {
		t.Fatal(err)
	}
	missing := st.Groups[0].Skills[3]
	answer(t, in, "g0001", "", map[string]bool{missing: true})
	answer(t, in, "g0002", "", nil)
	if _, _, err := in.Absorb(st, prof); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d outcomes: %+v", len(got), got)
	}
	rej, acc := got[0], got[1]
	if rej.Group != "g0001" || rej.Accepted || rej.Skills != 20 || rej.Next != "retry" ||
		len(rej.Problems) != 1 || rej.Problems[0] != fmt.Sprintf("%q is missing", missing) {
		t.Fatalf("rejection: %+v", rej)
	}
	if rej.SetAside != filepath.Join(in.Dir, "responses", "g0001.rejected-1.json") {
		t.Fatalf("set aside as %q", rej.SetAside)
	}
	if _, err := os.Stat(rej.SetAside); err != nil {
		t.Fatalf("the rejected answer is gone: %v", err)
	}
	if acc.Group != "g0002" || !acc.Accepted || acc.Skills != 5 || len(acc.Problems) != 0 {
		t.Fatalf("acceptance: %+v", acc)
	}
	// A provider's error: kept aside, the request to be sent again.
	got = nil
	path, _ := in.ResponsePath("g0001")
	if err := os.WriteFile(path, []byte(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := in.Absorb(st, prof); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Next != "resend" || got[0].Accepted || !strings.Contains(got[0].Problems[0], "overloaded_error") ||
		got[0].SetAside != filepath.Join(in.Dir, "responses", "g0001.error-1.json") {
		t.Fatalf("provider error: %+v", got)
	}
	// The second rejection splits the group.
	got = nil
	answer(t, in, "g0001", "", map[string]bool{missing: true})
	in.Absorb(st, prof)
	if len(got) != 1 || got[0].Next != "split" || got[0].SetAside != filepath.Join(in.Dir, "responses", "g0001.rejected-2.json") {
		t.Fatalf("second rejection: %+v", got)
	}
}

func TestCheckAnswer(t *testing.T) {
	group := []Skill{{Name: "a", Description: "x"}, {Name: "b", Description: "y"}}
	_, problems := CheckAnswer(group, []answerCard{
		{Name: "a", Card: "ok", Tags: []string{"testing"}},
		{Name: "a", Card: "again", Tags: []string{"testing"}},
		{Name: "c", Card: "stranger", Tags: []string{"testing"}},
		{Name: "b", Card: strings.Repeat("x", 201), Tags: []string{"testing", "nope"}},
	})
	joined := strings.Join(problems, "\n")
	for _, want := range []string{`"a" appears more than once`, `"c" is not one of`, `"b": card of 201`} {
		if !strings.Contains(joined, want) {
			t.Errorf("problems lack %q:\n%s", want, joined)
		}
	}
}

// A state file that is not JSON is an error naming the file that still
// carries the decoder's error, so callers can tell it from a missing file.
func TestBrokenStateWrapsTheCause(t *testing.T) {
	dir := t.TempDir()
	skills, _ := synthetic(3)
	in := &Initializer{Dir: dir, Profile: filepath.Join(dir, "cards.json"), Snap: NewSnapshot(skills, Options{})}
	if err := os.WriteFile(filepath.Join(dir, "state.json"), []byte(`{"version":1,`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := in.Plan(NewProfile())
	var syn *json.SyntaxError
	if !errors.As(err, &syn) || !strings.Contains(err.Error(), "state.json") {
		t.Fatalf("got %v, want a *json.SyntaxError naming state.json", err)
	}
	if errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%v reads as a missing state", err)
	}
}
