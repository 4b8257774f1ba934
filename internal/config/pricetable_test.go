package config

import "testing"

func TestPriceTable(t *testing.T) {
	cfg := Default()
	if err := DecodeWith("s.toml", []byte("[prices.\"my-model\"]\ninput = 1\noutput = 2.5\n"), cfg, nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, source string }{{"", "skillopt.toml"}, {"/repo/skillopt.toml", "/repo/skillopt.toml"}} {
		cfg.Path = tc.path
		p := cfg.PriceTable().Lookup("my-model")
		if p == nil || p.Input != 1 || p.Output != 2.5 || p.Source != tc.source {
			t.Errorf("path %q: %+v, want input 1, output 2.5 from %s", tc.path, p, tc.source)
		}
	}
	if Default().PriceTable().Lookup("claude-sonnet-4-5") == nil {
		t.Error("the built-in prices are missing")
	}
}
