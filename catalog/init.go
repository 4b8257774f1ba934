package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skillopt/skillopt/internal/atomicfile"
	"github.com/skillopt/skillopt/internal/untrusted"
)

// Card generation is explicit, offline-prepared model work: skillopt writes
// one request body per group of skills, something else sends it (a person,
// a script, or --exec), and the answers are validated and checkpointed into
// the profile group by group.

// Group limits.
const (
	GroupMaxSkills   = 20
	GroupMaxBytes    = 32 << 10
	MaxAttempts      = 2 // per group
	MaxExtraCalls    = 8 // retries and subdivisions per original group
	maxFeedbackChars = 1200
)

// Size limits of the files card generation reads back.
const (
	MaxResponseBytes = 64 << 20 // one answer, as written by whoever sent the request
	MaxStateBytes    = 64 << 20 // state.json
	MaxRequestBytes  = 64 << 20 // a request body read back for --exec
)

// InitState is the bookkeeping of a card-generation run, kept beside the
// requests so runs can resume.
type InitState struct {
	Version     int          `json:"version"`
	Fingerprint string       `json:"fingerprint"`
	Provider    string       `json:"provider"`
	Model       string       `json:"model"`
	Groups      []*InitGroup `json:"groups"`
}

// InitGroup is one request's worth of skills.
type InitGroup struct {
	ID       string   `json:"id"`
	Origin   string   `json:"origin"` // the original group it descends from
	Skills   []string `json:"skills"`
	Attempt  int      `json:"attempt"`
	Status   string   `json:"status"` // pending, accepted, split, failed
	Feedback string   `json:"feedback,omitempty"`
	// ProviderErrors counts the answers that were provider errors (a rate
	// limit, an overload): not content failures, so they neither use an
	// attempt nor split the group.
	ProviderErrors int `json:"provider_errors,omitempty"`
}

// Groups splits skills (source order) into groups of at most
// GroupMaxSkills skills and GroupMaxBytes of serialized input; a single
// skill larger than the byte limit gets a group of its own with its full
// description.
func Groups(skills []Skill) [][]Skill {
	var out [][]Skill
	var cur []Skill
	size := 0
	for _, sk := range skills {
		n := len(skillInput(sk))
		if len(cur) > 0 && (len(cur) == GroupMaxSkills || size+n > GroupMaxBytes) {
			out = append(out, cur)
			cur, size = nil, 0
		}
		cur = append(cur, sk)
		size += n
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

func skillInput(sk Skill) []byte {
	b, _ := json.Marshal(map[string]string{"name": sk.Name, "description": sk.Description})
	return b
}

// cardSchema returns the JSON Schema the answers must match.
func cardSchema() string {
	return `{"type":"object","required":["cards"],"additionalProperties":false,"properties":{"cards":{"type":"array","items":{"type":"object","required":["name","card","tags"],"additionalProperties":false,"properties":{"name":{"type":"string"},"card":{"type":"string","maxLength":200},"tags":{"type":"array","minItems":1,"maxItems":3,"items":{"enum":[` + tagEnum() + `]}}}}}}}`
}

func tagEnum() string {
	names := make([]string, len(Vocabulary))
	for i, t := range Vocabulary {
		names[i] = `"` + t.Name + `"`
	}
	return strings.Join(names, ",")
}

// instructions is the system prompt of a card request.
func instructions() string {
	var b strings.Builder
	b.WriteString("You write catalog cards for agent skills. For every skill in the user's JSON list, write one card: ")
	b.WriteString("a single sentence of at most 200 characters that says what the skill does and when it is the right choice, ")
	b.WriteString("distinguishing it from similar skills, and one to three tags from this vocabulary:\n")
	for _, t := range Vocabulary {
		fmt.Fprintf(&b, "- %s: %s\n", t.Name, t.Doc)
	}
	b.WriteString("Use discipline for habits of evidence, verification and safe judgment, and other only when no topic fits.\n")
	b.WriteString(`Answer with JSON only, exactly {"cards":[{"name":"…","card":"…","tags":["…"]}]}, one entry per skill, each skill exactly once, names copied exactly.`)
	return b.String()
}

// RequestBody returns the provider request asking for the cards of skills.
func RequestBody(provider, model string, skills []Skill, feedback string) ([]byte, error) {
	list := make([]map[string]string, len(skills))
	for i, sk := range skills {
		list[i] = map[string]string{"name": sk.Name, "description": sk.Description}
	}
	input, err := json.Marshal(map[string]any{"skills": list})
	if err != nil {
		return nil, err
	}
	user := string(input)
	if feedback != "" {
		user += "\n\nYour previous answer was rejected: " + feedback + "\nAnswer again for exactly these skills."
	}
	sys := instructions()
	var schema any
	_ = json.Unmarshal([]byte(cardSchema()), &schema)
	var body any
	switch provider {
	case "", "anthropic":
		if model == "" {
			model = "claude-sonnet-4-5"
		}
		body = map[string]any{"model": model, "max_tokens": 8192, "system": sys,
			"messages": []any{map[string]any{"role": "user", "content": user}}}
	case "openai-chat", "mistral":
		if model == "" {
			model = "gpt-4.1"
		}
		body = map[string]any{"model": model, "messages": []any{
			map[string]any{"role": "system", "content": sys}, map[string]any{"role": "user", "content": user}},
			"response_format": map[string]any{"type": "json_object"}}
	case "openai-responses":
		if model == "" {
			model = "gpt-4.1"
		}
		body = map[string]any{"model": model, "instructions": sys, "input": user,
			"text": map[string]any{"format": map[string]any{"type": "json_schema", "name": "cards", "schema": schema}}}
	case "gemini":
		body = map[string]any{"systemInstruction": map[string]any{"parts": []any{map[string]any{"text": sys}}},
			"contents":         []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": user}}}},
			"generationConfig": map[string]any{"responseMimeType": "application/json"}}
	default:
		return nil, fmt.Errorf("cannot write card requests for provider %q (anthropic, openai-chat, openai-responses, gemini, mistral)", provider)
	}
	return json.MarshalIndent(body, "", "  ")
}

// answerCard is one card of an answer.
type answerCard struct {
	Name string   `json:"name"`
	Card string   `json:"card"`
	Tags []string `json:"tags"`
}

// ParseAnswer extracts the cards from a raw provider response (Anthropic,
// OpenAI chat or Responses, Gemini) or a bare {"cards":[…]} document.
func ParseAnswer(data []byte) ([]answerCard, error) {
	text := string(data)
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err == nil {
		if _, ok := raw["cards"]; !ok {
			if t := responseText(raw); t != "" {
				text = t
			}
		}
	}
	text = strings.TrimSpace(text)
	// Tolerate a fenced code block around the JSON.
	if strings.HasPrefix(text, "```") {
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			text = text[i+1:]
		}
		text = strings.TrimSuffix(strings.TrimSpace(text), "```")
	}
	var ans struct {
		Cards []answerCard `json:"cards"`
	}
	if err := json.Unmarshal([]byte(text), &ans); err != nil {
		return nil, fmt.Errorf("answer is not the cards JSON: %w", err)
	}
	return ans.Cards, nil
}

// responseText pulls the model's text out of a provider response.
func responseText(r map[string]any) string {
	var out []string
	walkText := func(v any) {
		switch x := v.(type) {
		case string:
			out = append(out, x)
		}
	}
	if content, ok := r["content"].([]any); ok { // Anthropic
		for _, b := range content {
			if m, ok := b.(map[string]any); ok && m["type"] == "text" {
				walkText(m["text"])
			}
		}
	}
	if choices, ok := r["choices"].([]any); ok && len(choices) > 0 { // OpenAI chat, Mistral
		if m, ok := choices[0].(map[string]any); ok {
			if msg, ok := m["message"].(map[string]any); ok {
				walkText(msg["content"])
			}
		}
	}
	if t, ok := r["output_text"].(string); ok { // Responses convenience field
		out = append(out, t)
	} else if output, ok := r["output"].([]any); ok {
		for _, it := range output {
			if m, ok := it.(map[string]any); ok {
				if parts, ok := m["content"].([]any); ok {
					for _, p := range parts {
						if pm, ok := p.(map[string]any); ok && pm["type"] == "output_text" {
							walkText(pm["text"])
						}
					}
				}
			}
		}
	}
	if cands, ok := r["candidates"].([]any); ok && len(cands) > 0 { // Gemini
		if m, ok := cands[0].(map[string]any); ok {
			if c, ok := m["content"].(map[string]any); ok {
				if parts, ok := c["parts"].([]any); ok {
					for _, p := range parts {
						if pm, ok := p.(map[string]any); ok && pm["thought"] != true {
							walkText(pm["text"])
						}
					}
				}
			}
		}
	}
	return strings.Join(out, "")
}

// CheckAnswer validates an answer for a group: every owner exactly once,
// no stranger, every card valid. It returns the accepted cards, or the list
// of problems.
func CheckAnswer(group []Skill, cards []answerCard) (map[string]ProfileCard, []string) {
	want := map[string]Skill{}
	for _, sk := range group {
		want[sk.Name] = sk
	}
	got := map[string]ProfileCard{}
	var problems []string
	for _, c := range cards {
		sk, ok := want[c.Name]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("%q is not one of the skills asked for", c.Name))
			continue
		case got[c.Name].Card != "":
			problems = append(problems, fmt.Sprintf("%q appears more than once", c.Name))
			continue
		}
		pc := ProfileCard{Card: strings.TrimSpace(c.Card), Tags: c.Tags, SourceSHA256: SourceHash(sk.Description)}
		if err := ValidateCard(pc); err != nil {
			problems = append(problems, fmt.Sprintf("%q: %v", c.Name, err))
			continue
		}
		got[c.Name] = pc
	}
	for _, sk := range group {
		if _, ok := got[sk.Name]; !ok && !mentioned(problems, sk.Name) {
			problems = append(problems, fmt.Sprintf("%q is missing", sk.Name))
		}
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return got, nil
}

func mentioned(problems []string, name string) bool {
	q := fmt.Sprintf("%q", name)
	for _, p := range problems {
		if strings.HasPrefix(p, q) {
			return true
		}
	}
	return false
}

// feedback joins problems into bounded retry feedback.
func feedback(problems []string) string {
	var b strings.Builder
	for i, p := range problems {
		if b.Len()+len(p)+2 > maxFeedbackChars {
			fmt.Fprintf(&b, "; and %d more problem(s)", len(problems)-i)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p)
	}
	return b.String()
}

// Initializer runs card generation in a work folder:
//
//	DIR/state.json            the groups and their status
//	DIR/requests/ID.json      request bodies still to send
//	DIR/responses/ID.json     answers, written by whoever sends the requests
//	DIR/responses/ID.rejected-N.json  rejected answers, moved aside (never deleted)
//
// Everything read back is untrusted: group IDs from state.json must be
// plain file names, so that no path built from them leaves its folder.
type Initializer struct {
	Dir      string
	Profile  string // profile file, updated after every accepted group
	Provider string
	Model    string
	Snap     *Snapshot
	// OnAnswer, when set, is told what became of every answer Absorb
	// reads.
	OnAnswer func(AnswerOutcome)
}

// AnswerOutcome is what became of one answer.
type AnswerOutcome struct {
	Group    string // the group's ID
	Skills   int    // how many skills the group holds
	Accepted bool
	// Problems say why a rejected answer was rejected.
	Problems []string
	// SetAside is where a rejected answer was moved ("" when there was
	// no file to move).
	SetAside string
	// Next is what follows a rejection: "retry" (a request with the
	// feedback), "split" (two smaller requests), "failed" (no more
	// calls for this group) or "resend" (the answer was the provider's
	// error: the same request is to be sent again).
	Next string
}

func (in *Initializer) tell(o AnswerOutcome) {
	if in.OnAnswer != nil {
		in.OnAnswer(o)
	}
}

// Plan writes requests for every eligible skill without a current card and
// returns the state. An existing state for the same catalog is kept.
func (in *Initializer) Plan(prof *Profile) (*InitState, error) {
	st, err := in.load()
	switch {
	case err == nil && st.Fingerprint == in.Snap.Fingerprint:
		return st, nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		// A state that cannot be trusted is not silently replaced.
		return nil, err
	}
	var todo []Skill
	for _, sk := range in.Snap.Skills {
		if _, ok := prof.Current(sk); !ok {
			todo = append(todo, sk)
		}
	}
	st = &InitState{Version: 1, Fingerprint: in.Snap.Fingerprint, Provider: in.Provider, Model: in.Model}
	if err := os.MkdirAll(filepath.Join(in.Dir, "responses"), 0o755); err != nil {
		return nil, err
	}
	for i, g := range Groups(todo) {
		id := fmt.Sprintf("g%04d", i+1)
		grp := &InitGroup{ID: id, Origin: id, Attempt: 1, Status: "pending"}
		for _, sk := range g {
			grp.Skills = append(grp.Skills, sk.Name)
		}
		st.Groups = append(st.Groups, grp)
		if err := in.writeRequest(grp); err != nil {
			return nil, err
		}
	}
	return st, in.save(st)
}

func (in *Initializer) skills(g *InitGroup) []Skill {
	out := make([]Skill, 0, len(g.Skills))
	for _, n := range g.Skills {
		if i := in.Snap.Lookup(n); i >= 0 {
			out = append(out, in.Snap.Skills[i])
		}
	}
	return out
}

func (in *Initializer) writeRequest(g *InitGroup) error {
	path, err := in.RequestPath(g.ID)
	if err != nil {
		return err
	}
	body, err := RequestBody(in.Provider, in.Model, in.skills(g), g.Feedback)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(in.Dir, "requests"), 0o755); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, append(body, '\n'), 0o644); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// RequestPath is where the request of group id is written. An id that is
// not a plain file name is an error.
func (in *Initializer) RequestPath(id string) (string, error) {
	return groupFile(in.Dir, "requests", id, "")
}

// ResponsePath is where the answer to request id is expected.
func (in *Initializer) ResponsePath(id string) (string, error) {
	return groupFile(in.Dir, "responses", id, "")
}

// groupFile is DIR/sub/ID(suffix).json, with id confined to its folder.
func groupFile(dir, sub, id, suffix string) (string, error) {
	if err := untrusted.Name(id); err != nil {
		return "", fmt.Errorf("group id: %w", err)
	}
	return untrusted.Join(filepath.Join(dir, sub), id+suffix+".json")
}

// ReadRequest reads back the request written for group id.
func (in *Initializer) ReadRequest(id string) ([]byte, error) {
	path, err := in.RequestPath(id)
	if err != nil {
		return nil, err
	}
	data, err := untrusted.ReadFile(path, MaxRequestBytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return data, nil
}

func (in *Initializer) statePath() string { return filepath.Join(in.Dir, "state.json") }

// load reads and checks state.json. A missing file is fs.ErrNotExist; a
// file that is not a state, or names a group by anything but a plain file
// name, is an error naming the file.
func (in *Initializer) load() (*InitState, error) {
	path := in.statePath()
	data, err := untrusted.ReadFile(path, MaxStateBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var st InitState
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	seen := map[string]bool{}
	for i, g := range st.Groups {
		if g == nil {
			return nil, fmt.Errorf("%s: group %d is null", path, i+1)
		}
		if err := untrusted.Name(g.ID); err != nil {
			return nil, fmt.Errorf("%s: group %d: id: %w", path, i+1, err)
		}
		if seen[g.ID] {
			return nil, fmt.Errorf("%s: group id %q repeats", path, g.ID)
		}
		seen[g.ID] = true
	}
	return &st, nil
}

func (in *Initializer) save(st *InitState) error {
	if err := os.MkdirAll(in.Dir, 0o755); err != nil {
		return err
	}
	data, _ := json.MarshalIndent(st, "", "  ")
	if err := atomicfile.WriteFile(in.statePath(), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("%s: %w", in.statePath(), err)
	}
	return nil
}

// Progress summarises a state.
type Progress struct {
	Groups, Accepted, Pending, Failed int
	Skills, Carded                    int
}

// ProgressOf counts a state's groups and skills.
func ProgressOf(st *InitState) Progress {
	var p Progress
	for _, g := range st.Groups {
		switch g.Status {
		case "accepted":
			p.Accepted++
			p.Carded += len(g.Skills)
		case "pending":
			p.Pending++
		case "failed":
			p.Failed++
		}
		if g.Status != "split" {
			p.Groups++
			p.Skills += len(g.Skills)
		}
	}
	return p
}

// Absorb reads every available answer of pending groups: accepted groups
// are written into the profile (atomically, after each group); rejected
// ones get a retry request with feedback, then are split in two, within the
// attempt and extra-call limits. It returns what changed.
//
// An answer that is the provider's error (an HTTP error body, a rate limit)
// is no verdict on the content: it is moved aside to ID.error-N.json and
// the group's request stays as it was, to be sent again. A transient error
// is retried up to MaxProviderRetries times per group; a terminal one (bad
// credentials, an invalid request, no quota), or one more transient error,
// stops the run with a *StopError once the state is saved.
func (in *Initializer) Absorb(st *InitState, prof *Profile) (accepted, rejected int, err error) {
	extra := extraCalls(st)
	for i := 0; i < len(st.Groups); i++ {
		g := st.Groups[i]
		if g.Status != "pending" {
			continue
		}
		verdict, err := in.absorbGroup(st, prof, g, extra)
		switch verdict {
		case groupAccepted:
			accepted++
		case groupRejected:
			rejected++
		}
		if err != nil {
			return accepted, rejected, err
		}
	}
	sort.SliceStable(st.Groups, func(a, b int) bool { return st.Groups[a].ID < st.Groups[b].ID })
	return accepted, rejected, in.save(st)
}

// extraCalls counts, per original group, the requests sent beyond the
// first: retries and the groups split from it.
func extraCalls(st *InitState) map[string]int {
	extra := map[string]int{}
	for _, g := range st.Groups {
		if g.ID != g.Origin {
			extra[g.Origin]++
		}
		if g.Attempt > 1 {
			extra[g.Origin] += g.Attempt - 1
		}
	}
	return extra
}

// groupVerdict is what became of one pending group's answer.
type groupVerdict int

const (
	groupWaiting  groupVerdict = iota // no verdict: not answered yet, or a provider error
	groupAccepted                     // its cards are in the profile
	groupRejected                     // retried, split or failed
)

// absorbGroup reads the answer of one pending group, if there is one.
func (in *Initializer) absorbGroup(st *InitState, prof *Profile, g *InitGroup, extra map[string]int) (groupVerdict, error) {
	path, err := in.ResponsePath(g.ID)
	if err != nil {
		return groupWaiting, err
	}
	data, rerr := untrusted.ReadFile(path, MaxResponseBytes)
	if errors.Is(rerr, fs.ErrNotExist) {
		return groupWaiting, nil // not answered yet
	}
	if rerr == nil {
		if pe, ok := ParseProviderError(data); ok {
			return groupWaiting, in.providerFailed(st, g, path, pe)
		}
	}
	good, problems := in.checkAnswer(g, data, rerr)
	if len(problems) == 0 {
		return in.accept(st, prof, g, good)
	}
	return groupRejected, in.reject(st, g, problems, extra)
}

// checkAnswer returns the cards of an answer that pass, or its problems.
func (in *Initializer) checkAnswer(g *InitGroup, data []byte, rerr error) (map[string]ProfileCard, []string) {
	if rerr != nil {
		// A FIFO, a device or an oversized file in the answer's place
		// is a rejected answer, not something to wait for.
		return nil, []string{fmt.Sprintf("answer file refused: %v", rerr)}
	}
	cards, perr := ParseAnswer(data)
	if perr != nil {
		return nil, []string{perr.Error()}
	}
	return CheckAnswer(in.skills(g), cards)
}

// accept writes an accepted group's cards into the profile, then the
// state; the group counts as accepted once the profile is saved.
func (in *Initializer) accept(st *InitState, prof *Profile, g *InitGroup, good map[string]ProfileCard) (groupVerdict, error) {
	for n, pc := range good {
		prof.Cards[n] = pc
	}
	prof.Activation = DeriveActivation(prof.Cards)
	if err := prof.Save(in.Profile); err != nil {
		return groupWaiting, err
	}
	g.Status, g.Feedback = "accepted", ""
	if err := in.save(st); err != nil {
		return groupAccepted, err
	}
	in.tell(AnswerOutcome{Group: g.ID, Skills: len(g.Skills), Accepted: true})
	return groupAccepted, nil
}

// reject sets a rejected answer aside and retries the group with
// feedback, splits it in two or lets it fail, within the limits.
func (in *Initializer) reject(st *InitState, g *InitGroup, problems []string, extra map[string]int) error {
	// The answer is moved aside, not deleted: it may be someone's
	// only copy, and the next answer goes in its place.
	aside, err := in.setAside(g)
	if err != nil {
		return err
	}
	g.Feedback = feedback(problems)
	switch {
	case extra[g.Origin] >= MaxExtraCalls:
		g.Status = "failed"
	case g.Attempt < MaxAttempts:
		g.Attempt++
		extra[g.Origin]++
		if err := in.writeRequest(g); err != nil {
			return err
		}
	case len(g.Skills) > 1 && extra[g.Origin]+2 <= MaxExtraCalls:
		g.Status = "split"
		half := len(g.Skills) / 2
		for k, part := range [][]string{g.Skills[:half], g.Skills[half:]} {
			child := &InitGroup{ID: fmt.Sprintf("%s%c", g.ID, 'a'+k), Origin: g.Origin, Skills: part, Attempt: 1, Status: "pending", Feedback: g.Feedback}
			st.Groups = append(st.Groups, child)
			extra[g.Origin]++
			if err := in.writeRequest(child); err != nil {
				return err
			}
		}
	default:
		g.Status = "failed"
	}
	if err := in.save(st); err != nil {
		return err
	}
	next := map[string]string{"pending": "retry", "split": "split", "failed": "failed"}[g.Status]
	in.tell(AnswerOutcome{Group: g.ID, Skills: len(g.Skills), Problems: problems, SetAside: aside, Next: next})
	return nil
}

// StopError ends card generation: the provider answered a group's request
// with an error that retrying will not cure, or kept failing.
type StopError struct {
	File  string // the answer that stopped the run, as set aside
	Group string
	Err   *ProviderError
	// Retries is how often the group's request was sent again first.
	Retries int
}

func (e *StopError) Error() string {
	advice := "fix the cause (credentials, model, quota) and run again: the request is unchanged"
	if e.Err.Retry {
		advice = fmt.Sprintf("it kept failing after %d retries; run again later: the request is unchanged", e.Retries)
	}
	return fmt.Sprintf("%s: group %s: %v; stopping: %s", e.File, e.Group, e.Err, advice)
}

// providerFailed handles an answer that is a provider's error: set aside,
// the group stays pending with its request unchanged, and the run stops
// when the error is terminal or the retries are used up.
func (in *Initializer) providerFailed(st *InitState, g *InitGroup, path string, pe *ProviderError) error {
	aside, err := in.setAsideAs(g, "error", g.ProviderErrors+1)
	if err != nil {
		return err
	}
	if aside == "" {
		aside = path
	}
	g.ProviderErrors++
	if err := in.save(st); err != nil {
		return err
	}
	if !pe.Retry || g.ProviderErrors > MaxProviderRetries {
		return &StopError{File: aside, Group: g.ID, Err: pe, Retries: g.ProviderErrors - 1}
	}
	in.tell(AnswerOutcome{Group: g.ID, Skills: len(g.Skills), Problems: []string{fmt.Sprintf("provider error: %v", pe)}, SetAside: aside, Next: "resend"})
	return nil
}

// setAside renames the rejected answer of g to ID.rejected-N.json (N the
// attempt, or the next free number), never replacing an existing file,
// and returns where it went ("" when there was nothing to move).
func (in *Initializer) setAside(g *InitGroup) (string, error) {
	return in.setAsideAs(g, "rejected", max(g.Attempt, 1))
}

// setAsideAs renames the answer of g to ID.KIND-N.json, N from first or the
// next free number, and returns the new path ("" when there was no answer).
func (in *Initializer) setAsideAs(g *InitGroup, kind string, first int) (string, error) {
	from, err := in.ResponsePath(g.ID)
	if err != nil {
		return "", err
	}
	if _, err := os.Lstat(from); errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	for n := first; n < first+1000; n++ {
		to, err := groupFile(in.Dir, "responses", g.ID, fmt.Sprintf(".%s-%d", kind, n))
		if err != nil {
			return "", err
		}
		if _, err := os.Lstat(to); err == nil || !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		// A hard link fails rather than replace a file that appeared
		// meanwhile; without hard links, rename (checked just above).
		if err := os.Link(from, to); err == nil {
			return to, os.Remove(from)
		} else if errors.Is(err, fs.ErrExist) {
			continue
		}
		return to, os.Rename(from, to)
	}
	return "", fmt.Errorf("%s: no free name to set the answer aside", from)
}

// PendingIDs lists the groups that still need an answer.
func PendingIDs(st *InitState) []string {
	var out []string
	for _, g := range st.Groups {
		if g.Status == "pending" {
			out = append(out, g.ID)
		}
	}
	return out
}
