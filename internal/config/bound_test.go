package config

import (
	"reflect"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/rules"
)

type boundOptions struct {
	Budget int      `toml:"budget" doc:"characters"`
	Names  []string `toml:"names" doc:"names"`
}

func (*boundOptions) Section() string { return "demo" }

func (o *boundOptions) Check() []rules.OptionError {
	if o.Budget < 0 {
		return []rules.OptionError{{Key: "budget", Msg: "must not be negative"}}
	}
	return nil
}

// Tables declared by rules decode like built-in ones: values land in the
// owner's configured options, problems are located and sorted with the
// rest.
func TestDecodeDeclaredTables(t *testing.T) {
	def := &boundOptions{Budget: 10, Names: []string{"x"}}
	b, err := rules.Bind([]rules.Owner{{Name: "SO999", Options: def}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Default()
	good := "[demo]\nbudget = 42\nnames = [\"a\", \"b\"]\n"
	if err := DecodeWith("s.toml", []byte(good), cfg, b); err != nil {
		t.Fatal(err)
	}
	got := rules.Get(cfg.Options, def)
	if got.Budget != 42 || !reflect.DeepEqual(got.Names, []string{"a", "b"}) || def.Budget != 10 {
		t.Errorf("got %+v, defaults %+v", got, def)
	}
	bad := "[measure]\nreplay = 8\n[demo]\nbudget = \"ten\"\nbudgett = 3\n[demo2]\n"
	err = DecodeWith("s.toml", []byte(bad), Default(), b)
	want := []string{
		`s.toml:4:10: demo.budget: want an integer, got string "ten"`,
		`s.toml:5:1: demo.budgett: unknown key (did you mean budget?)`,
		`s.toml:6:2: demo2: unknown key (did you mean demo?)`,
	}
	if err == nil || err.Error() != strings.Join(want, "\n") {
		t.Errorf("got\n%v\nwant\n%s", err, strings.Join(want, "\n"))
	}
	err = DecodeWith("s.toml", []byte("[demo]\nbudget = -1\n"), Default(), b)
	if err == nil || !strings.Contains(err.Error(), "s.toml:2:10: demo.budget: must not be negative") {
		t.Errorf("range check: %v", err)
	}
	tpl := string(TemplateWith(b))
	if !strings.Contains(tpl, "[demo]\n# characters (SO999)\nbudget = 10\n") {
		t.Errorf("template:\n%s", tpl)
	}
}
