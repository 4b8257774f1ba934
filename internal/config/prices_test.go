package config

import (
	"strings"
	"testing"
)

// A table under a table of tables ([prices."m"]) was decoded into a map
// entry that was never stored: its keys were lost and never checked.
func TestPricesTables(t *testing.T) {
	src := `[prices."gpt-5.5"]
input = 1
output = 2.5

[prices."local-*"]
input = 0
output = 0
cache_read = 0
`
	cfg := Default()
	if err := DecodeWith("s.toml", []byte(src), cfg, nil); err != nil {
		t.Fatal(err)
	}
	if got := cfg.Prices["gpt-5.5"]; got["input"] != 1 || got["output"] != 2.5 || len(got) != 2 {
		t.Errorf("gpt-5.5: %v", got)
	}
	if got, ok := cfg.Prices["local-*"]; !ok || len(got) != 3 {
		t.Errorf("local-*: %v", got)
	}
	inline := "prices = { \"a\" = { input = 1, output = 2 } }\n"
	cfg = Default()
	if err := DecodeWith("s.toml", []byte(inline), cfg, nil); err != nil || cfg.Prices["a"]["output"] != 2 {
		t.Errorf("inline: %v %v", cfg.Prices, err)
	}
}

func TestPricesErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"[prices.m]\ninput = 1\n", "s.toml:1:1: prices.m: input and output are required"},
		{"[prices.m]\ninput = 1\noutput = 1\ncahce_read = 1\n", "s.toml:4:14: prices.m.cahce_read: unknown key"},
		{"[prices.m]\ninput = -1\noutput = 1\n", "s.toml:2:9: prices.m.input: must be a number"},
		{"[prices.m]\ninput = \"cheap\"\noutput = 1\n", `s.toml:2:9: prices.m.input: want a number, got string "cheap"`},
		{"[prices.\"*\"]\ninput = 1\noutput = 1\n", `s.toml:1:1: prices."*": a model name is required`},
	}
	for _, c := range cases {
		cfg := Default()
		err := DecodeWith("s.toml", []byte(c.src), cfg, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.src, err, c.want)
		}
	}
}
