package validity

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// The Anthropic and Pi checks find nothing on any real request of the
// shared corpus, the requests rebuilt from host session files included.
func TestCorpusAnthropicChecks(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("shared corpus not present at %s", root)
	}
	checks := []*rules.Rule{AnthropicThinking, AnthropicThinkingHistory, AnthropicMaxTokens, AnthropicThinkingMode, AnthropicSampling,
		AnthropicFinalAssistant, AnthropicEmptyContent, AnthropicImages, AnthropicDeferredCache, PiMessageParts}
	paths, err := capture.Expand([]string{filepath.Join(root, "provider-examples"), filepath.Join(root, "captures"), filepath.Join(root, "sessions")})
	if err != nil {
		t.Fatal(err)
	}
	n := map[capture.Provider]int{}
	for _, p := range paths {
		f, err := capture.ReadFile(p, nil, capture.Options{})
		if err != nil {
			continue // not a capture (manifests, sources, response streams)
		}
		for _, c := range f.Captures {
			n[c.Provider]++
			diags, err := rules.RunChecks(c, checks, nil)
			if err != nil {
				t.Error(err)
			}
			for _, d := range diags {
				t.Errorf("%s: %s %s: %s", c.Name, d.Rule, d.Pointer, d.Message)
			}
		}
	}
	if n[capture.Anthropic] < 50 || n[capture.PiMessages] < 5 {
		t.Errorf("only %d Anthropic and %d Pi captures checked", n[capture.Anthropic], n[capture.PiMessages])
	}
	t.Logf("captures checked: %v", n)
}
