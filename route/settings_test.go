package route

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseDefaults(t *testing.T) {
	for _, src := range []string{`{}`, `{"theme": "dark", "other": {"x": 1}}`, `{"auggieRouter": {}}`} {
		s, err := Parse("settings.json", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if !reflect.DeepEqual(s, Defaults()) {
			t.Errorf("%s: got %+v, want the defaults", src, s)
		}
	}
}

// TestParseSeedBlock reads the whole block with every key at its default.
func TestParseSeedBlock(t *testing.T) {
	s, err := Parse("settings.json", []byte(fullBlock))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s, Defaults()) {
		t.Errorf("got %+v, want the defaults", s)
	}
}

const fullBlock = `{
  "auggieRouter": {
    "defaultProvider": "openrouter",
    "routingModel": "anthropic/claude-3-5-haiku",
    "historyWindow": 20,
    "maxJudgeIterations": 2,
    "routingTimeoutMs": 60000,
    "qaTimeoutMs": 300000,
    "totalTimeoutMs": 300000,
    "inactivityTimeoutMs": 60000,
    "subAgentTemperature": 0.0,
    "overflowCeilingBytes": 25000,
    "auggieBinPath": "auggie",
    "allowedProviderPrefixes": [],
    "executionRouting": {
      "enabled": false, "preference": "balanced", "surfaceDecision": false, "skillModelPolicy": "pin",
      "models": {"cheap": "anthropic/claude-3-5-haiku", "balanced": "anthropic/claude-3-5-sonnet", "frontier": "anthropic/claude-3-7-sonnet"}
    },
    "debugPromptPrefixHash": false,
    "outputSanitizer": {"enabled": true, "finalOutputMaxChars": 120000, "stripToolTraces": true},
    "contextBudgets": {"enabled": false, "overflowCeilingBytes": {"cheap": 15000, "balanced": 25000, "frontier": 50000}},
    "historyAssembly": {"strategy": "recent", "headMessages": 2, "tailMessages": 12, "middleMode": "marker", "maxCharsPerMessage": 10000, "maxTotalChars": 60000},
    "contextMemory": {"enabled": false, "maxEntries": 8, "maxBytesPerRun": 1000000, "previewHeadChars": 4000, "previewTailChars": 4000},
    "parallelSubagents": {"enabled": false, "maxSubagents": 3, "perWorkerOutputCharCap": 8000},
    "executionTrace": {"enabled": true, "maxResultPreviewChars": 2000, "traceDirectory": ".pi/traces"},
    "traceObservability": {"enabled": true, "showReportAfterExecution": false, "degradationAlertEnabled": true,
      "degradationConsecutiveFailures": 3, "degradationAlertCooldownHours": 24, "reportMaxTraces": 10,
      "reportMaxInlineTraces": 5, "regressionWindowSize": 10, "maxTracesPerSkill": 20},
    "promptInjection": {"enabled": true}
  }
}`

func TestParseValues(t *testing.T) {
	src := `{"auggieRouter": {
  "defaultProvider": " gateway/ ",
  "allowedProviderPrefixes": ["gateway", "openrouter"],
  "overflowCeilingBytes": 30000,
  "subAgentTemperature": 0.5,
  "maxJudgeIterations": 0,
  "executionRouting": {"enabled": true, "preference": "preferCheap", "skillModelPolicy": "ignore", "surfaceDecision": true,
    "models": {"cheap": "", "frontier": null}},
  "contextBudgets": {"enabled": true, "overflowCeilingBytes": {"frontier": 60000, "cheap": null}}
}}`
	s, err := Parse("s.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := Defaults()
	want.DefaultProvider = "gateway"
	want.AllowedProviderPrefixes = []string{"gateway", "openrouter"}
	want.OverflowCeilingBytes = 30000
	want.SubAgentTemperature = 0.5
	want.MaxJudgeIterations = 0
	want.ExecutionRouting = ExecutionRouting{Enabled: true, Preference: PreferCheap, Policy: Ignore, SurfaceDecision: true,
		Models: map[Tier]string{Cheap: "", Balanced: "anthropic/claude-3-5-sonnet", Frontier: ""}}
	want.ContextBudgets = ContextBudgets{Enabled: true, OverflowCeilingBytes: map[Tier]int{Frontier: 60000}}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("got  %+v\nwant %+v", s, want)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"syntax", "{\n  \"auggieRouter\": {,}\n}", []string{"s.json:2:20: "}},
		{"empty file", "", []string{"s.json:1:1: empty input"}},
		{"duplicate key", `{"auggieRouter": {"historyWindow": 1, "historyWindow": 2}}`, []string{"s.json:1:"}},
		{"not an object", `[1]`, []string{"s.json:1:1: the settings file holds an array, not an object"}},
		{"block not an object", `{"auggieRouter": true}`, []string{"s.json:1:18: auggieRouter: want an object, not a boolean"}},
		{"unknown key", "{\"auggieRouter\": {\n  \"historyWindw\": 3}}", []string{`s.json:2:3: auggieRouter.historyWindw: unknown key (did you mean "historyWindow"?)`}},
		{"int below", `{"auggieRouter": {"historyWindow": 0}}`, []string{"s.json:1:36: auggieRouter.historyWindow: 0 is outside 1..10000"}},
		{"fraction", `{"auggieRouter": {"historyWindow": 2.5}}`, []string{"auggieRouter.historyWindow: 2.5 is not an integer"}},
		{"string for int", `{"auggieRouter": {"historyWindow": "20"}}`, []string{"auggieRouter.historyWindow: want an integer, not a string"}},
		{"judge iterations above", `{"auggieRouter": {"maxJudgeIterations": 3}}`, []string{"auggieRouter.maxJudgeIterations: 3 is outside 0..2"}},
		{"timeout below", `{"auggieRouter": {"totalTimeoutMs": 10}}`, []string{"auggieRouter.totalTimeoutMs: 10 is outside 1000..86400000"}},
		{"temperature above", `{"auggieRouter": {"subAgentTemperature": 2.5}}`, []string{"auggieRouter.subAgentTemperature: 2.5 is outside 0..2"}},
		{"huge number", `{"auggieRouter": {"overflowCeilingBytes": 1e400}}`, []string{"auggieRouter.overflowCeilingBytes: 1e400 is out of range"}},
		{"ceiling zero", `{"auggieRouter": {"overflowCeilingBytes": 0}}`, []string{"auggieRouter.overflowCeilingBytes: 0 is outside 1..100000000"}},
		{"provider with slash", `{"auggieRouter": {"defaultProvider": "a/b"}}`, []string{`auggieRouter.defaultProvider: "a/b" is not a provider prefix`}},
		{"provider empty", `{"auggieRouter": {"defaultProvider": " "}}`, []string{"auggieRouter.defaultProvider: must not be empty"}},
		{"prefixes not array", `{"auggieRouter": {"allowedProviderPrefixes": "openrouter"}}`, []string{"auggieRouter.allowedProviderPrefixes: want an array of provider prefixes, not a string"}},
		{"prefix entry", `{"auggieRouter": {"allowedProviderPrefixes": ["ok", 3, "a/b", " sp"]}}`, []string{
			"auggieRouter.allowedProviderPrefixes[1]: want a string, not a number",
			`auggieRouter.allowedProviderPrefixes[2]: "a/b" is not a provider prefix`,
			`auggieRouter.allowedProviderPrefixes[3]: " sp" is not a provider prefix`}},
		{"preference", `{"auggieRouter": {"executionRouting": {"preference": "preferCheep"}}}`, []string{`auggieRouter.executionRouting.preference: "preferCheep" is not one of preferCheap, balanced, preferBest (did you mean "preferCheap"?)`}},
		{"policy", `{"auggieRouter": {"executionRouting": {"skillModelPolicy": "prefer"}}}`, []string{`auggieRouter.executionRouting.skillModelPolicy: "prefer" is not one of pin, ignore`}},
		{"enabled string", `{"auggieRouter": {"executionRouting": {"enabled": "yes"}}}`, []string{"auggieRouter.executionRouting.enabled: want true or false, not a string"}},
		{"unknown tier", `{"auggieRouter": {"executionRouting": {"models": {"mystery": "a/b"}}}}`, []string{"auggieRouter.executionRouting.models.mystery: unknown key"}},
		{"tier model number", `{"auggieRouter": {"executionRouting": {"models": {"balanced": 42}}}}`, []string{"auggieRouter.executionRouting.models.balanced: want a string, not a number"}},
		{"tier model spaces", `{"auggieRouter": {"executionRouting": {"models": {"balanced": "a b"}}}}`, []string{`auggieRouter.executionRouting.models.balanced: model "a b" contains white space`}},
		{"models array", `{"auggieRouter": {"executionRouting": {"models": ["a", "b"]}}}`, []string{"auggieRouter.executionRouting.models: want an object, not an array"}},
		{"routing not object", `{"auggieRouter": {"executionRouting": "off"}}`, []string{"auggieRouter.executionRouting: want an object, not a string"}},
		{"budget tier zero", `{"auggieRouter": {"contextBudgets": {"overflowCeilingBytes": {"cheap": 0}}}}`, []string{"auggieRouter.contextBudgets.overflowCeilingBytes.cheap: 0 is outside 1..100000000"}},
		{"strategy", `{"auggieRouter": {"historyAssembly": {"strategy": "headtail"}}}`, []string{`auggieRouter.historyAssembly.strategy: "headtail" is not one of recent, headTail (did you mean "headTail"?)`}},
		{"max subagents", `{"auggieRouter": {"parallelSubagents": {"maxSubagents": 0}}}`, []string{"auggieRouter.parallelSubagents.maxSubagents: 0 is outside 1..64"}},
		{"negative cap", `{"auggieRouter": {"outputSanitizer": {"finalOutputMaxChars": -1}}}`, []string{"auggieRouter.outputSanitizer.finalOutputMaxChars: -1 is outside 0..100000000"}},
		{"memory entries", `{"auggieRouter": {"contextMemory": {"maxEntries": 0, "extra": 1}}}`, []string{"auggieRouter.contextMemory.maxEntries: 0 is outside 1..10000", "auggieRouter.contextMemory.extra: unknown key"}},
		{"trace directory", `{"auggieRouter": {"executionTrace": {"traceDirectory": ""}}}`, []string{"auggieRouter.executionTrace.traceDirectory: must not be empty"}},
		{"cooldown", `{"auggieRouter": {"traceObservability": {"degradationAlertCooldownHours": 9000}}}`, []string{"auggieRouter.traceObservability.degradationAlertCooldownHours: 9000 is outside 0..8760"}},
		{"prompt injection", `{"auggieRouter": {"promptInjection": {"enabled": 1}}}`, []string{"auggieRouter.promptInjection.enabled: want true or false, not a number"}},
		{"several", `{"auggieRouter": {"historyWindow": -1, "qaTimeoutMs": null}}`, []string{"auggieRouter.historyWindow: -1", "auggieRouter.qaTimeoutMs: want an integer, not null"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Parse("s.json", []byte(tc.src))
			if err == nil {
				t.Fatalf("no error, settings %+v", s)
			}
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("error %T, want Errors", err)
			}
			if len(es) != len(tc.want) {
				t.Fatalf("%d errors, want %d:\n%v", len(es), len(tc.want), err)
			}
			for i, w := range tc.want {
				if !strings.Contains(es[i].Error(), w) {
					t.Errorf("error %d = %q, want it to hold %q", i, es[i].Error(), w)
				}
				if !strings.HasPrefix(es[i].Error(), "s.json:") || es[i].Line < 1 || es[i].Col < 1 {
					t.Errorf("error %d has no position: %q", i, es[i].Error())
				}
			}
		})
	}
}
