package route

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/suggest"
)

// Settings are the router's settings: the auggieRouter block of a Pi
// workspace's .pi/settings.json. Keys the file leaves out keep their
// defaults.
type Settings struct {
	DefaultProvider         string           `json:"defaultProvider"`
	RoutingModel            string           `json:"routingModel"`
	HistoryWindow           int              `json:"historyWindow"`
	MaxJudgeIterations      int              `json:"maxJudgeIterations"`
	RoutingTimeoutMs        int              `json:"routingTimeoutMs"`
	QATimeoutMs             int              `json:"qaTimeoutMs"`
	TotalTimeoutMs          int              `json:"totalTimeoutMs"`
	InactivityTimeoutMs     int              `json:"inactivityTimeoutMs"`
	SubAgentTemperature     float64          `json:"subAgentTemperature"`
	OverflowCeilingBytes    int              `json:"overflowCeilingBytes"`
	AuggieBinPath           string           `json:"auggieBinPath"`
	AllowedProviderPrefixes []string         `json:"allowedProviderPrefixes"`
	ExecutionRouting        ExecutionRouting `json:"executionRouting"`
	DebugPromptPrefixHash   bool             `json:"debugPromptPrefixHash"`
	ContextBudgets          ContextBudgets   `json:"contextBudgets"`
}

// ExecutionRouting is the adaptive routing block.
type ExecutionRouting struct {
	Enabled         bool       `json:"enabled"`
	Preference      Preference `json:"preference"`
	SurfaceDecision bool       `json:"surfaceDecision"`
	Policy          Policy     `json:"skillModelPolicy"`
	// Models is the pool. A tier whose model is "" has none.
	Models map[Tier]string `json:"models"`
}

// ContextBudgets is the per-tier overflow ceiling block.
type ContextBudgets struct {
	Enabled bool `json:"enabled"`
	// OverflowCeilingBytes holds the tiers that have a ceiling; a tier
	// left out falls back to the top-level ceiling.
	OverflowCeilingBytes map[Tier]int `json:"overflowCeilingBytes"`
}

// Defaults returns the router's built-in settings.
func Defaults() *Settings {
	return &Settings{
		DefaultProvider:         "openrouter",
		RoutingModel:            "anthropic/claude-3-5-haiku",
		HistoryWindow:           20,
		MaxJudgeIterations:      2,
		RoutingTimeoutMs:        60000,
		QATimeoutMs:             300000,
		TotalTimeoutMs:          300000,
		InactivityTimeoutMs:     60000,
		SubAgentTemperature:     0,
		OverflowCeilingBytes:    25000,
		AuggieBinPath:           "auggie",
		AllowedProviderPrefixes: []string{},
		ExecutionRouting: ExecutionRouting{
			Preference: preferenceDefault,
			Policy:     Pin,
			Models: map[Tier]string{
				Cheap:    "anthropic/claude-3-5-haiku",
				Balanced: "anthropic/claude-3-5-sonnet",
				Frontier: "anthropic/claude-3-7-sonnet",
			},
		},
		ContextBudgets: ContextBudgets{
			OverflowCeilingBytes: map[Tier]int{Cheap: 15000, Balanced: 25000, Frontier: 50000},
		},
	}
}

// Block is the key of the router's block in .pi/settings.json.
const Block = "auggieRouter"

// Error is one problem of a settings file, at a 1-based line and byte
// column.
type Error struct {
	File      string
	Line, Col int
	// Key is the dotted path of the value ("auggieRouter.historyWindow"),
	// "" for the file as a whole.
	Key string
	Msg string
}

func (e *Error) Error() string {
	where := fmt.Sprintf("%s:%d:%d: ", e.File, e.Line, e.Col)
	if e.Key != "" {
		return where + e.Key + ": " + e.Msg
	}
	return where + e.Msg
}

// Errors are the problems of one file, in document order.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// The bounds Parse accepts. The router documents its defaults but not its
// bounds; these keep every value where the setting still means something.
const (
	maxCount    = 10000
	maxChars    = 100_000_000
	minTimeout  = 1000       // 1 s
	maxTimeout  = 86_400_000 // 24 h
	minCeiling  = 1
	maxCeiling  = 100_000_000
	maxTemp     = 2
	maxJudge    = 2 // the Actor/Judge loop runs at most two passes
	maxWorkers  = 64
	maxCooldown = 8760 // a year of hours
)

// Parse reads a .pi/settings.json (name is used in messages only) and
// returns the router's settings: the defaults with the auggieRouter block
// laid over them. A file without the block gives the defaults. Every
// problem is reported, as Errors: a value of the wrong type or outside its
// range, a key the router does not know, malformed JSON.
func Parse(name string, data []byte) (*Settings, error) {
	s := Defaults()
	doc, err := capture.Parse(data)
	if err != nil {
		if se := (*capture.SyntaxError)(nil); errors.As(err, &se) {
			return nil, Errors{{File: name, Line: max(se.Line, 1), Col: max(se.Col, 1), Msg: se.Msg}}
		}
		return nil, Errors{{File: name, Line: 1, Col: 1, Msg: err.Error()}}
	}
	d := &decoder{file: name, doc: doc}
	if doc.Kind(0) != capture.Object {
		d.fail(0, "", "the settings file holds %s, not an object", article(doc.Kind(0)))
		return nil, d.errs
	}
	if n := doc.Get(0, Block); n != capture.NoNode {
		d.router(n, s)
	}
	if len(d.errs) > 0 {
		slices.SortStableFunc(d.errs, func(a, b *Error) int {
			if a.Line != b.Line {
				return a.Line - b.Line
			}
			return a.Col - b.Col
		})
		return nil, d.errs
	}
	return s, nil
}

type decoder struct {
	file string
	doc  *capture.Doc
	errs Errors
}

// fail reports a problem of node n.
func (d *decoder) fail(n capture.Node, key, format string, args ...any) {
	off := 0
	if n != capture.NoNode {
		off = int(d.doc.Nodes[n].Start)
	}
	d.failAt(off, key, format, args...)
}

func (d *decoder) failAt(off int, key, format string, args ...any) {
	line, col := capture.LineCol(d.doc.Src, off)
	d.errs = append(d.errs, &Error{File: d.file, Line: line, Col: col, Key: key, Msg: fmt.Sprintf(format, args...)})
}

// members returns the members of object n by key, reporting a value that
// is not an object and every key not in known (at the key).
func (d *decoder) members(n capture.Node, key string, known []string) map[string]capture.Node {
	if d.doc.Kind(n) != capture.Object {
		d.fail(n, key, "want an object, not %s", article(d.doc.Kind(n)))
		return nil
	}
	m := map[string]capture.Node{}
	for c := range d.doc.Children(n) {
		k := d.doc.Key(c)
		if !slices.Contains(known, k) {
			start, _ := d.doc.KeySpan(c)
			d.failAt(start, join(key, k), "unknown key%s", didYouMean(k, known))
			continue
		}
		m[k] = c
	}
	return m
}

func join(parent, key string) string { return parent + "." + key }

func (d *decoder) boolean(m map[string]capture.Node, parent, key string, dst *bool) {
	n, ok := m[key]
	if !ok {
		return
	}
	switch d.doc.Kind(n) {
	case capture.True:
		*dst = true
	case capture.False:
		*dst = false
	default:
		d.fail(n, join(parent, key), "want true or false, not %s", article(d.doc.Kind(n)))
	}
}

// number reads a number within min..max; integral also refuses fractions.
func (d *decoder) number(m map[string]capture.Node, parent, key string, min, max float64, integral bool) (float64, bool) {
	n, ok := m[key]
	if !ok {
		return 0, false
	}
	what := "a number"
	if integral {
		what = "an integer"
	}
	if d.doc.Kind(n) != capture.Number {
		d.fail(n, join(parent, key), "want %s, not %s", what, article(d.doc.Kind(n)))
		return 0, false
	}
	raw := string(d.doc.Raw(n))
	v, err := strconv.ParseFloat(raw, 64)
	switch {
	case err != nil || math.IsInf(v, 0):
		d.fail(n, join(parent, key), "%s is out of range", raw)
		return 0, false
	case integral && v != math.Trunc(v):
		d.fail(n, join(parent, key), "%s is not an integer", raw)
		return 0, false
	case v < min || v > max:
		d.fail(n, join(parent, key), "%s is outside %s..%s", raw, bound(min), bound(max))
		return 0, false
	}
	return v, true
}

func bound(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func (d *decoder) integer(m map[string]capture.Node, parent, key string, min, max int, dst *int) {
	if v, ok := d.number(m, parent, key, float64(min), float64(max), true); ok {
		*dst = int(v)
	}
}

// str reads a string; check, when not nil, returns what is wrong with it.
func (d *decoder) str(m map[string]capture.Node, parent, key string, check func(string) string) (string, bool) {
	n, ok := m[key]
	if !ok {
		return "", false
	}
	if d.doc.Kind(n) != capture.String {
		d.fail(n, join(parent, key), "want a string, not %s", article(d.doc.Kind(n)))
		return "", false
	}
	v := d.doc.Str(n)
	if check != nil {
		if msg := check(v); msg != "" {
			d.fail(n, join(parent, key), "%s", msg)
			return "", false
		}
	}
	return v, true
}

func (d *decoder) text(m map[string]capture.Node, parent, key string, check func(string) string, dst *string) {
	if v, ok := d.str(m, parent, key, check); ok {
		*dst = v
	}
}

// enum reads a string that is one of set.
func (d *decoder) enum(m map[string]capture.Node, parent, key string, set []string) (string, bool) {
	return d.str(m, parent, key, func(v string) string {
		if slices.Contains(set, v) {
			return ""
		}
		return fmt.Sprintf("%q is not one of %s%s", v, strings.Join(set, ", "), didYouMean(v, set))
	})
}

func nonBlank(v string) string {
	if strings.TrimSpace(v) == "" {
		return "must not be empty"
	}
	return ""
}

// providerName checks a provider prefix: one path segment, no white space.
func providerName(v string) string {
	p := strings.TrimRight(strings.TrimSpace(v), "/")
	switch {
	case p == "":
		return "must not be empty"
	case strings.ContainsAny(p, "/ \t\r\n"):
		return fmt.Sprintf("%q is not a provider prefix (one segment, no slashes or spaces)", v)
	}
	return ""
}

// modelName checks a model ID: no white space inside, no empty segment.
func modelName(v string) string {
	m := strings.TrimSpace(v)
	switch {
	case strings.ContainsAny(m, " \t\r\n"):
		return fmt.Sprintf("model %q contains white space", v)
	case m != "" && (strings.HasPrefix(m, "/") || strings.HasSuffix(m, "/") || strings.Contains(m, "//")):
		return fmt.Sprintf("model %q has an empty path segment", v)
	}
	return ""
}

func (d *decoder) router(n capture.Node, s *Settings) {
	const p = Block
	m := d.members(n, p, []string{
		"defaultProvider", "routingModel", "historyWindow", "maxJudgeIterations",
		"routingTimeoutMs", "qaTimeoutMs", "totalTimeoutMs", "inactivityTimeoutMs",
		"subAgentTemperature", "overflowCeilingBytes", "auggieBinPath", "allowedProviderPrefixes",
		"executionRouting", "debugPromptPrefixHash", "outputSanitizer", "contextBudgets",
		"historyAssembly", "contextMemory", "parallelSubagents", "executionTrace",
		"traceObservability", "promptInjection",
	})
	if m == nil {
		return
	}
	if v, ok := d.str(m, p, "defaultProvider", providerName); ok {
		s.DefaultProvider = strings.TrimRight(strings.TrimSpace(v), "/")
	}
	d.text(m, p, "routingModel", func(v string) string {
		if msg := nonBlank(v); msg != "" {
			return msg
		}
		return modelName(v)
	}, &s.RoutingModel)
	d.integer(m, p, "historyWindow", 1, maxCount, &s.HistoryWindow)
	d.integer(m, p, "maxJudgeIterations", 0, maxJudge, &s.MaxJudgeIterations)
	d.integer(m, p, "routingTimeoutMs", minTimeout, maxTimeout, &s.RoutingTimeoutMs)
	d.integer(m, p, "qaTimeoutMs", minTimeout, maxTimeout, &s.QATimeoutMs)
	d.integer(m, p, "totalTimeoutMs", minTimeout, maxTimeout, &s.TotalTimeoutMs)
	d.integer(m, p, "inactivityTimeoutMs", minTimeout, maxTimeout, &s.InactivityTimeoutMs)
	if v, ok := d.number(m, p, "subAgentTemperature", 0, maxTemp, false); ok {
		s.SubAgentTemperature = v
	}
	d.integer(m, p, "overflowCeilingBytes", minCeiling, maxCeiling, &s.OverflowCeilingBytes)
	d.text(m, p, "auggieBinPath", nonBlank, &s.AuggieBinPath)
	if c, ok := m["allowedProviderPrefixes"]; ok {
		d.prefixes(c, join(p, "allowedProviderPrefixes"), s)
	}
	d.boolean(m, p, "debugPromptPrefixHash", &s.DebugPromptPrefixHash)
	if c, ok := m["executionRouting"]; ok {
		d.executionRouting(c, join(p, "executionRouting"), &s.ExecutionRouting)
	}
	if c, ok := m["contextBudgets"]; ok {
		d.contextBudgets(c, join(p, "contextBudgets"), &s.ContextBudgets)
	}
	d.checkOnly(m, p)
}

func (d *decoder) prefixes(n capture.Node, key string, s *Settings) {
	if d.doc.Kind(n) != capture.Array {
		d.fail(n, key, "want an array of provider prefixes, not %s", article(d.doc.Kind(n)))
		return
	}
	list := []string{}
	i := 0
	for c := range d.doc.Children(n) {
		k := fmt.Sprintf("%s[%d]", key, i)
		i++
		if d.doc.Kind(c) != capture.String {
			d.fail(c, k, "want a string, not %s", article(d.doc.Kind(c)))
			continue
		}
		v := d.doc.Str(c)
		if msg := providerName(v); msg != "" || strings.TrimSpace(v) != v || strings.HasSuffix(v, "/") {
			if msg == "" {
				msg = fmt.Sprintf("%q is not a provider prefix (one segment, no slashes or spaces)", v)
			}
			d.fail(c, k, "%s", msg)
			continue
		}
		list = append(list, v)
	}
	s.AllowedProviderPrefixes = list
}

func (d *decoder) executionRouting(n capture.Node, key string, er *ExecutionRouting) {
	m := d.members(n, key, []string{"enabled", "preference", "surfaceDecision", "skillModelPolicy", "models"})
	if m == nil {
		return
	}
	d.boolean(m, key, "enabled", &er.Enabled)
	if v, ok := d.enum(m, key, "preference", []string{string(PreferCheap), string(PreferBalanced), string(PreferBest)}); ok {
		er.Preference = Preference(v)
	}
	d.boolean(m, key, "surfaceDecision", &er.SurfaceDecision)
	if v, ok := d.enum(m, key, "skillModelPolicy", []string{string(Pin), string(Ignore)}); ok {
		er.Policy = Policy(v)
	}
	c, ok := m["models"]
	if !ok {
		return
	}
	// The pool is laid over the default pool tier by tier; "" or null
	// leaves a tier without a model.
	mk := join(key, "models")
	pool := d.members(c, mk, tierNames())
	if pool == nil {
		return
	}
	for _, t := range Tiers {
		tn, ok := pool[string(t)]
		if !ok {
			continue
		}
		if d.doc.Kind(tn) == capture.Null {
			er.Models[t] = ""
			continue
		}
		if v, ok := d.str(pool, mk, string(t), modelName); ok {
			er.Models[t] = strings.TrimSpace(v)
		}
	}
}

func (d *decoder) contextBudgets(n capture.Node, key string, cb *ContextBudgets) {
	m := d.members(n, key, []string{"enabled", "overflowCeilingBytes"})
	if m == nil {
		return
	}
	d.boolean(m, key, "enabled", &cb.Enabled)
	c, ok := m["overflowCeilingBytes"]
	if !ok {
		return
	}
	// A pool given replaces the default one whole: a tier it leaves out
	// (or sets to null) has no ceiling of its own.
	ck := join(key, "overflowCeilingBytes")
	pool := d.members(c, ck, tierNames())
	if pool == nil {
		return
	}
	cb.OverflowCeilingBytes = map[Tier]int{}
	for _, t := range Tiers {
		if tn, ok := pool[string(t)]; ok && d.doc.Kind(tn) == capture.Null {
			continue
		}
		var v int
		if _, ok := pool[string(t)]; ok {
			before := len(d.errs)
			d.integer(pool, ck, string(t), minCeiling, maxCeiling, &v)
			if len(d.errs) == before {
				cb.OverflowCeilingBytes[t] = v
			}
		}
	}
}

// checkOnly validates the blocks the decisions do not read: what they
// hold must still be of the right type and within range.
func (d *decoder) checkOnly(m map[string]capture.Node, parent string) {
	var b bool
	var i int
	var s string
	block := func(name string, known ...string) (map[string]capture.Node, string) {
		n, ok := m[name]
		if !ok {
			return nil, ""
		}
		key := join(parent, name)
		return d.members(n, key, known), key
	}
	if o, k := block("outputSanitizer", "enabled", "finalOutputMaxChars", "stripToolTraces"); o != nil {
		d.boolean(o, k, "enabled", &b)
		d.integer(o, k, "finalOutputMaxChars", 0, maxChars, &i)
		d.boolean(o, k, "stripToolTraces", &b)
	}
	if o, k := block("historyAssembly", "strategy", "headMessages", "tailMessages", "middleMode", "maxCharsPerMessage", "maxTotalChars"); o != nil {
		d.enum(o, k, "strategy", []string{"recent", "headTail"})
		d.integer(o, k, "headMessages", 0, maxCount, &i)
		d.integer(o, k, "tailMessages", 0, maxCount, &i)
		d.enum(o, k, "middleMode", []string{"marker", "omit"})
		d.integer(o, k, "maxCharsPerMessage", 0, maxChars, &i)
		d.integer(o, k, "maxTotalChars", 0, maxChars, &i)
	}
	if o, k := block("contextMemory", "enabled", "maxEntries", "maxBytesPerRun", "previewHeadChars", "previewTailChars"); o != nil {
		d.boolean(o, k, "enabled", &b)
		d.integer(o, k, "maxEntries", 1, maxCount, &i)
		d.integer(o, k, "maxBytesPerRun", 1, maxChars*10, &i)
		d.integer(o, k, "previewHeadChars", 0, maxChars, &i)
		d.integer(o, k, "previewTailChars", 0, maxChars, &i)
	}
	if o, k := block("parallelSubagents", "enabled", "maxSubagents", "perWorkerOutputCharCap"); o != nil {
		d.boolean(o, k, "enabled", &b)
		d.integer(o, k, "maxSubagents", 1, maxWorkers, &i)
		d.integer(o, k, "perWorkerOutputCharCap", 0, maxChars, &i)
	}
	if o, k := block("executionTrace", "enabled", "maxResultPreviewChars", "traceDirectory"); o != nil {
		d.boolean(o, k, "enabled", &b)
		d.integer(o, k, "maxResultPreviewChars", 0, maxChars, &i)
		d.text(o, k, "traceDirectory", nonBlank, &s)
	}
	if o, k := block("traceObservability", "enabled", "showReportAfterExecution", "degradationAlertEnabled",
		"degradationConsecutiveFailures", "degradationAlertCooldownHours", "reportMaxTraces",
		"reportMaxInlineTraces", "regressionWindowSize", "maxTracesPerSkill"); o != nil {
		d.boolean(o, k, "enabled", &b)
		d.boolean(o, k, "showReportAfterExecution", &b)
		d.boolean(o, k, "degradationAlertEnabled", &b)
		d.integer(o, k, "degradationConsecutiveFailures", 1, maxCount, &i)
		d.integer(o, k, "degradationAlertCooldownHours", 0, maxCooldown, &i)
		d.integer(o, k, "reportMaxTraces", 1, maxCount, &i)
		d.integer(o, k, "reportMaxInlineTraces", 1, maxCount, &i)
		d.integer(o, k, "regressionWindowSize", 1, maxCount, &i)
		d.integer(o, k, "maxTracesPerSkill", 1, maxCount, &i)
	}
	if o, k := block("promptInjection", "enabled"); o != nil {
		d.boolean(o, k, "enabled", &b)
	}
}

func tierNames() []string {
	out := make([]string, len(Tiers))
	for i, t := range Tiers {
		out[i] = string(t)
	}
	return out
}

// article names a JSON kind with its article ("an object", "a string").
func article(k capture.Kind) string {
	switch k {
	case capture.Object, capture.Array:
		return "an " + k.String()
	case capture.Null:
		return "null"
	}
	return "a " + k.String()
}

// didYouMean suggests the known word nearest to a misspelt one.
func didYouMean(word string, known []string) string {
	if best := suggest.Closest(word, known, 2); best != "" && best != word {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return ""
}
