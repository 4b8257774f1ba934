package rules

import (
	"reflect"
	"strings"
	"testing"
)

type demoOptions struct {
	Budget int               `toml:"budget" doc:"characters per index"`
	Names  []string          `toml:"names" doc:"skills never listed"`
	Ratio  float64           `toml:"ratio" doc:"share that must be saved"`
	On     bool              `toml:"on" doc:"whether it runs"`
	Mode   string            `toml:"mode" doc:"compact or native"`
	Tiers  map[string]int    `toml:"tiers" doc:"ceilings by tier"`
	Labels map[string]string `toml:"labels" doc:"free labels"`
	//lint:ignore U1000 an unexported field, which the binding must leave out
	private int
}

func (*demoOptions) Section() string { return "demo" }

func (o *demoOptions) Check() []OptionError {
	if o.Budget < 0 {
		return []OptionError{{Key: "budget", Msg: "must not be negative"}}
	}
	return nil
}

type otherOptions struct {
	Limit int `toml:"limit" doc:"at most this many"`
}

func (*otherOptions) Section() string { return "demo" }

type badOptions struct {
	Budget int `toml:"budget" doc:"again"`
}

func (*badOptions) Section() string { return "demo" }

type undocumented struct {
	X int `toml:"x"`
}

func (*undocumented) Section() string { return "demo" }

type unsupported struct {
	X []int `toml:"x" doc:"numbers"`
}

func (*unsupported) Section() string { return "demo" }

func TestBindSharedSection(t *testing.T) {
	def := &demoOptions{Budget: 12000, Names: []string{"a"}, Ratio: 0.25, Mode: "compact", Tiers: map[string]int{"cheap": 1}}
	other := &otherOptions{Limit: 3}
	b, err := Bind([]Owner{{Name: "SO101", Options: def}, {Name: "SO103", Options: other}})
	if err != nil {
		t.Fatal(err)
	}
	if got := b.order; !reflect.DeepEqual(got, []string{"demo"}) {
		t.Fatalf("sections %v", got)
	}
	targets := b.Targets()
	tv := reflect.ValueOf(targets["demo"]).Elem()
	if tv.NumField() != 8 {
		t.Fatalf("section struct has %d fields, want 8", tv.NumField())
	}
	// What a decoder would do: set budget, append to names, set limit.
	tv.Field(0).SetInt(500)
	tv.Field(1).Set(reflect.Append(tv.Field(1), reflect.ValueOf("b")))
	tv.Field(7).SetInt(9)
	set, errs := b.Set(targets)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	got := Get(set, def)
	if got == def || got.Budget != 500 || !reflect.DeepEqual(got.Names, []string{"a", "b"}) || got.Ratio != 0.25 || got.Mode != "compact" {
		t.Errorf("configured %+v", got)
	}
	if def.Budget != 12000 || len(def.Names) != 1 {
		t.Errorf("defaults changed: %+v", def)
	}
	if Get(set, other).Limit != 9 {
		t.Errorf("other owner's key not bound")
	}
	var nilSet *Set
	if Get(nilSet, def) != def {
		t.Error("a nil set must hand out the defaults")
	}
	tv.Field(0).SetInt(-1)
	if _, errs := b.Set(targets); len(errs) != 1 || errs[0].Key != "demo.budget" {
		t.Errorf("check errors %v", errs)
	}
}

func TestBindRejects(t *testing.T) {
	for name, owners := range map[string][]Owner{
		"key declared twice": {{Name: "A", Options: &demoOptions{}}, {Name: "B", Options: &badOptions{}}},
		"undocumented key":   {{Name: "A", Options: &undocumented{}}},
		"unsupported type":   {{Name: "A", Options: &unsupported{}}},
	} {
		if _, err := Bind(owners); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestTemplateAndDescribe(t *testing.T) {
	def := &demoOptions{Budget: 12000, Names: []string{"a"}, Ratio: 0.25, Mode: "compact", Tiers: map[string]int{"b": 2, "a": 1}}
	b, err := Bind([]Owner{{Name: "SO101 catalog.compact-index", Options: def}})
	if err != nil {
		t.Fatal(err)
	}
	tpl := string(b.Template())
	for _, want := range []string{"[demo]\n", "# characters per index (SO101 catalog.compact-index)\nbudget = 12000\n", `names = ["a"]`, "ratio = 0.25", "on = false", `mode = "compact"`, "tiers = {a = 1, b = 2}", "labels = {}"} {
		if !strings.Contains(tpl, want) {
			t.Errorf("template lacks %q:\n%s", want, tpl)
		}
	}
	ds := Describe(def)
	if len(ds) != 7 || ds[0].Name() != "demo.budget" || ds[0].Type != "integer" || ds[1].Type != "list of strings" {
		t.Errorf("describe %+v", ds)
	}
}

type entry struct {
	Rule   string `toml:"rule"`
	Reason string `toml:"reason"`
}

type tableOptions struct {
	Entries []entry           `toml:"entries" doc:"entries as [[demo.entries]]"`
	Levels  map[string]string `toml:"levels" doc:"levels by rule"`
}

func (*tableOptions) Section() string { return "demo" }

type badTable struct {
	Entries []struct {
		N int `toml:"n"`
	} `toml:"entries" doc:"entries"`
}

func (*badTable) Section() string { return "demo" }

// Arrays of tables of strings bind; empty tables are left commented in the
// template, so that a file can add [demo.levels] or [[demo.entries]].
func TestArrayOfTables(t *testing.T) {
	if _, err := Bind([]Owner{{Name: "A", Options: &badTable{}}}); err == nil {
		t.Error("array of tables with an integer key bound")
	}
	def := &tableOptions{}
	b, err := Bind([]Owner{{Name: "A", Options: def}})
	if err != nil {
		t.Fatal(err)
	}
	tpl := string(b.Template())
	if !strings.Contains(tpl, "\n# entries = []\n") || !strings.Contains(tpl, "\n# levels = {}\n") {
		t.Errorf("template:\n%s", tpl)
	}
	if ds := Describe(def); ds[0].Type != "list of tables" || ds[0].Default != "[]" {
		t.Errorf("describe %+v", ds)
	}
	full := &tableOptions{Entries: []entry{{Rule: "SK017", Reason: "old links"}}}
	if got := Describe(full)[0].Default; got != `[{rule = "SK017", reason = "old links"}]` {
		t.Errorf("default %s", got)
	}
	targets := b.Targets()
	reflect.ValueOf(targets["demo"]).Elem().Field(0).Set(reflect.ValueOf([]entry{{Rule: "x", Reason: "y"}}))
	set, _ := b.Set(targets)
	if got := Get(set, def); len(got.Entries) != 1 || got.Entries[0].Rule != "x" || len(def.Entries) != 0 {
		t.Errorf("configured %+v, defaults %+v", got, def)
	}
}
