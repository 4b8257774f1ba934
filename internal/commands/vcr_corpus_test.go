package commands

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestCorpusCassettes: every VCR cassette of the shared corpus reads, every
// request validates (no false rejection), and every turn carries the usage
// its recorded response reports.
func TestCorpusCassettes(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "sessions", "streams")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.yaml"))
	if len(files) == 0 {
		if _, err := os.Stat(dir); err != nil {
			t.Skipf("shared corpus not present at %s", dir)
		}
		t.Fatalf("no cassettes in %s", dir)
	}
	turns := 0
	for _, p := range files {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"skillopt", "validate", "--format", "json", p}, nil, &stdout, &stderr); code != 0 {
			t.Errorf("%s: validate exit %d: %s%s", p, code, stderr.String(), stdout.String())
			continue
		}
		var val struct {
			Inputs []struct {
				Name, Envelope string
				Valid          bool
			}
		}
		if err := json.Unmarshal(stdout.Bytes(), &val); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, in := range val.Inputs {
			if in.Envelope != "vcr" || !in.Valid {
				t.Errorf("%s: envelope %q, valid %v", in.Name, in.Envelope, in.Valid)
			}
		}
		stdout.Reset()
		stderr.Reset()
		if code := run([]string{"skillopt", "measure", "--conversation", "--format", "json", p}, nil, &stdout, &stderr); code != 0 {
			t.Errorf("%s: measure exit %d: %s", p, code, stderr.String())
			continue
		}
		var rep struct {
			Conversation struct {
				Turns []struct {
					Capture       string
					ProviderUsage *struct{ Input, Output int } `json:"provider_usage"`
				}
			}
		}
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if len(rep.Conversation.Turns) != len(val.Inputs) {
			t.Errorf("%s: %d turns, %d captures", p, len(rep.Conversation.Turns), len(val.Inputs))
		}
		for _, tu := range rep.Conversation.Turns {
			turns++
			if tu.ProviderUsage == nil || tu.ProviderUsage.Input == 0 || tu.ProviderUsage.Output == 0 {
				t.Errorf("%s: no provider usage (%+v)", tu.Capture, tu.ProviderUsage)
			}
		}
	}
	if turns < len(files) {
		t.Errorf("%d turns from %d cassettes", turns, len(files))
	}
}
