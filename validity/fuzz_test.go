package validity

import (
	"testing"

	"github.com/skillopt/skillopt/capture"
)

// FuzzCheck: the family's rules never panic on any body of any provider
// shape, and every finding points at a value of the body.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		`{"model":"m","max_tokens":1,"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"t","input":{}}]},{"role":"user","content":[{"type":"text","text":"x"},{"type":"tool_result","tool_use_id":"b"}]}],"tools":[{"name":"t","defer_loading":true,"cache_control":{"type":"ephemeral","ttl":"1h"}}]}`,
		`{"model":"m","messages":[{"role":"tool","tool_call_id":"x"},{"role":"assistant","tool_calls":[{"id":"y"}]},{"role":"user","content":"hi"}],"tools":[{"function":{"name":"a b"}}]}`,
		`{"model":"m","input":[{"type":"reasoning"},{"type":"function_call","id":"fc_1","call_id":"c"},{"type":"function_call_output","call_id":"d"}],"tools":[{"type":"tool_search","defer_loading":true}]}`,
		`{"contents":[{"role":"model","parts":[{"functionCall":{"name":"f"}}]},{"role":"user","parts":{"functionResponse":{}}}],"tools":{"functionDeclarations":{"name":"f"}}}`,
	} {
		for p := range capture.Providers {
			f.Add(uint8(p), []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		if len(body) > 1<<16 {
			return
		}
		d, err := capture.Parse(body)
		if err != nil {
			return
		}
		c := &capture.Capture{Name: "f.json", Body: body, Doc: d, Provider: capture.Providers[int(which)%len(capture.Providers)]}
		diags, err := Check(c, nil)
		if err != nil {
			t.Fatal(err) // the family's rules do not fail
		}
		for _, diag := range diags {
			if _, err := d.Lookup(diag.Pointer); err != nil {
				t.Fatalf("%s: pointer %q does not resolve: %v", diag.Rule, diag.Pointer, err)
			}
			if diag.Message == "" {
				t.Fatalf("%s: empty message", diag.Rule)
			}
		}
	})
}
