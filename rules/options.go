package rules

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Options are the settings of a rule, or of a family of rules and the
// commands that share them, in one table of skillopt.toml. An Options value
// is a pointer to a struct whose exported fields carry a `toml:"key"` tag
// and a `doc:"…"` tag; the value a rule declares holds the defaults. The
// configuration file, `skillopt init`'s template, `skillopt rules ID` and
// docs/rules are all generated from these declarations.
//
// Field types are bool, int, float64, string, []string, map[string]int,
// map[string]string, and slices of structs whose fields are strings
// (arrays of tables, [[section.key]]).
type Options interface {
	// Section names the table of skillopt.toml the keys live in, such as
	// "catalog"; several owners may share a table, each with its own keys.
	Section() string
}

// Checker is implemented by options that validate their decoded values.
type Checker interface {
	// Check returns one problem per offending key.
	Check() []OptionError
}

// OptionError is a value that decoded but is not allowed.
type OptionError struct {
	Key string // key within the section
	Msg string
}

// Settings are options owned by a family of rules and the commands that
// use them rather than by one rule (the skill folders of the catalog
// commands, the tool-output thresholds every output rule shares).
type Settings struct {
	Name    string // the family, e.g. "catalog"
	Doc     string // one sentence: what the section configures
	Options Options
}

// Owner is a declaration of options: a rule's or a family's.
type Owner struct {
	Name    string // rule ID and name, or family name
	Doc     string
	Options Options
}

// Option describes one key, for templates and docs.
type Option struct {
	Section string `json:"section"`
	Key     string `json:"key"`
	Doc     string `json:"doc"`
	Default string `json:"default"` // TOML spelling of the default
	Type    string `json:"type,omitempty"`
	Owner   string `json:"owner,omitempty"`
}

// Name is the key's dotted name, "section.key".
func (o Option) Name() string { return o.Section + "." + o.Key }

// OptionsOf lists the keys a rule reads: its own options, then the family
// settings it names (see Registry.OptionsOf, which also describes Reads).
func OptionsOf(r *Rule) []Option {
	out := Describe(r.Options)
	for i := range out {
		out[i].Owner = r.ID
	}
	return out
}

// Describe lists the keys an Options value declares, in field order.
func Describe(o Options) []Option {
	if o == nil {
		return nil
	}
	v := reflect.ValueOf(o).Elem()
	t := v.Type()
	var out []Option
	for i := range t.NumField() {
		f := t.Field(i)
		key, ok := optionKey(f)
		if !ok {
			continue
		}
		out = append(out, Option{
			Section: o.Section(),
			Key:     key,
			Doc:     f.Tag.Get("doc"),
			Default: TOMLValue(v.Field(i)),
			Type:    typeWords(f.Type),
		})
	}
	return out
}

func optionKey(f reflect.StructField) (string, bool) {
	if !f.IsExported() {
		return "", false
	}
	key := strings.Split(f.Tag.Get("toml"), ",")[0]
	return key, key != "" && key != "-"
}

// supportedKind reports whether a field type can hold an option.
func supportedKind(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Float64, reflect.String:
		return true
	case reflect.Slice:
		return t.Elem().Kind() == reflect.String || tableOfStrings(t.Elem())
	case reflect.Map:
		return t.Key().Kind() == reflect.String && (t.Elem().Kind() == reflect.Int || t.Elem().Kind() == reflect.String)
	}
	return false
}

// tableOfStrings reports whether t is a struct whose keys hold strings:
// the element of an array of tables.
func tableOfStrings(t reflect.Type) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if _, ok := optionKey(f); ok && f.Type.Kind() != reflect.String {
			return false
		}
	}
	return true
}

func typeWords(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "boolean"
	case reflect.Int:
		return "integer"
	case reflect.Float64:
		return "number"
	case reflect.String:
		return "string"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Struct {
			return "list of tables"
		}
		return "list of strings"
	case reflect.Map:
		if t.Elem().Kind() == reflect.Int {
			return "table of integers"
		}
		return "table of strings"
	}
	return t.String()
}

// TOMLValue spells a value the way skillopt.toml would.
func TOMLValue(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'f', -1, 64)
	case reflect.String:
		return strconv.Quote(v.String())
	case reflect.Slice:
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = TOMLValue(v.Index(i))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case reflect.Map:
		keys := make([]string, 0, v.Len())
		for _, k := range v.MapKeys() {
			keys = append(keys, k.String())
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + " = " + TOMLValue(v.MapIndex(reflect.ValueOf(k)))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case reflect.Struct:
		var parts []string
		for i := range v.NumField() {
			if key, ok := optionKey(v.Type().Field(i)); ok {
				parts = append(parts, key+" = "+TOMLValue(v.Field(i)))
			}
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v.Interface())
}

// Binding gathers the options of a registry into one table per section,
// for the configuration decoder, and hands each owner its configured copy
// afterwards.
type Binding struct {
	owners   []Owner
	sections map[string]*section
	order    []string
}

// section is one table of skillopt.toml: a struct type made of the fields
// of every owner declaring keys in it.
type section struct {
	name   string
	typ    reflect.Type
	fields []boundField // by position in typ
}

type boundField struct {
	owner int // index into Binding.owners
	field int // field index in the owner's struct
	key   string
}

// Bind checks that no two owners declare the same key of a section and
// that every field has a supported type, a key and documentation.
func Bind(owners []Owner) (*Binding, error) {
	b := &Binding{owners: owners, sections: map[string]*section{}}
	type pending struct {
		fields []reflect.StructField
		bound  []boundField
	}
	tables := map[string]*pending{}
	seen := map[string]string{} // section.key → owner
	for oi, o := range owners {
		if o.Options == nil {
			continue
		}
		v := reflect.ValueOf(o.Options)
		if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
			return nil, fmt.Errorf("%s: options must be a pointer to a struct, not %T", o.Name, o.Options)
		}
		sec := o.Options.Section()
		if sec == "" || strings.ContainsAny(sec, ". \"") {
			return nil, fmt.Errorf("%s: options section %q is not a plain table name", o.Name, sec)
		}
		p := tables[sec]
		if p == nil {
			p = &pending{}
			tables[sec] = p
			b.order = append(b.order, sec)
		}
		t := v.Elem().Type()
		for fi := range t.NumField() {
			f := t.Field(fi)
			key, ok := optionKey(f)
			if !ok {
				continue
			}
			switch {
			case !supportedKind(f.Type):
				return nil, fmt.Errorf("%s: option %s.%s has unsupported type %s", o.Name, sec, key, f.Type)
			case strings.TrimSpace(f.Tag.Get("doc")) == "":
				return nil, fmt.Errorf("%s: option %s.%s has no doc tag", o.Name, sec, key)
			}
			if prev, dup := seen[sec+"."+key]; dup {
				return nil, fmt.Errorf("option %s.%s is declared by both %s and %s", sec, key, prev, o.Name)
			}
			seen[sec+"."+key] = o.Name
			p.fields = append(p.fields, reflect.StructField{
				Name: fmt.Sprintf("F%d", len(p.fields)),
				Type: f.Type,
				Tag:  reflect.StructTag(fmt.Sprintf(`toml:%q`, key)),
			})
			p.bound = append(p.bound, boundField{owner: oi, field: fi, key: key})
		}
	}
	for _, name := range b.order {
		p := tables[name]
		b.sections[name] = &section{name: name, typ: reflect.StructOf(p.fields), fields: p.bound}
	}
	return b, nil
}

// Targets returns, per section, a fresh struct holding every owner's
// defaults, for the configuration decoder to fill (pointers to structs
// whose fields carry the keys' toml tags).
func (b *Binding) Targets() map[string]any {
	out := make(map[string]any, len(b.sections))
	for name, s := range b.sections {
		v := reflect.New(s.typ)
		for i, bf := range s.fields {
			def := reflect.ValueOf(b.owners[bf.owner].Options).Elem().Field(bf.field)
			v.Elem().Field(i).Set(cloneValue(def))
		}
		out[name] = v.Interface()
	}
	return out
}

// Set builds every owner's configured options from decoded targets (as
// returned by Targets; nil or a missing section keeps the defaults) and
// runs their checks. Problems name "section.key".
func (b *Binding) Set(targets map[string]any) (*Set, []OptionError) {
	set := &Set{vals: make(map[Options]Options, len(b.owners))}
	copies := make([]reflect.Value, len(b.owners))
	for i, o := range b.owners {
		if o.Options == nil {
			continue
		}
		c := reflect.New(reflect.ValueOf(o.Options).Elem().Type())
		c.Elem().Set(reflect.ValueOf(o.Options).Elem())
		copies[i] = c
	}
	for name, s := range b.sections {
		t, ok := targets[name]
		if !ok || t == nil {
			continue
		}
		tv := reflect.ValueOf(t).Elem()
		for i, bf := range s.fields {
			copies[bf.owner].Elem().Field(bf.field).Set(cloneValue(tv.Field(i)))
		}
	}
	var errs []OptionError
	for i, o := range b.owners {
		if o.Options == nil {
			continue
		}
		cfg := copies[i].Interface().(Options)
		set.vals[o.Options] = cfg
		if c, ok := cfg.(Checker); ok {
			for _, e := range c.Check() {
				e.Key = o.Options.Section() + "." + e.Key
				errs = append(errs, e)
			}
		}
	}
	return set, errs
}

// Options lists every key, section by section in declaration order.
func (b *Binding) Options() []Option {
	var out []Option
	for _, name := range b.order {
		s := b.sections[name]
		for _, bf := range s.fields {
			o := b.owners[bf.owner]
			for _, d := range Describe(o.Options) {
				if d.Key == bf.key {
					d.Owner = o.Name
					out = append(out, d)
				}
			}
		}
	}
	return out
}

// declares reports whether some owner declares the key "section.key".
func (b *Binding) declares(name string) bool {
	sec, key, ok := strings.Cut(name, ".")
	if s := b.sections[sec]; ok && s != nil {
		for _, bf := range s.fields {
			if bf.key == key {
				return true
			}
		}
	}
	return false
}

// Template renders the sections as commented TOML: each key with its
// documentation, its owner and its default.
func (b *Binding) Template() []byte {
	var sb strings.Builder
	all := b.Options()
	for _, name := range b.order {
		fmt.Fprintf(&sb, "\n[%s]\n", name)
		for _, o := range all {
			if o.Section != name {
				continue
			}
			for _, line := range wrapComment(o.Doc + " (" + o.Owner + ")") {
				sb.WriteString("# " + line + "\n")
			}
			if o.Default == "{}" || o.Default == "[]" && o.Type == "list of tables" {
				// Left commented, so that the file can gain a
				// [section.key] or [[section.key]] table.
				sb.WriteString("# ")
			}
			fmt.Fprintf(&sb, "%s = %s\n", o.Key, o.Default)
		}
	}
	return []byte(sb.String())
}

func wrapComment(s string) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > 76 {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// cloneValue copies slices and maps so that configured copies never share
// storage with the declared defaults.
func cloneValue(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Slice:
		if v.IsNil() {
			return reflect.Zero(v.Type())
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(c, v)
		return c
	case reflect.Map:
		if v.IsNil() {
			return reflect.Zero(v.Type())
		}
		c := reflect.MakeMapWithSize(v.Type(), v.Len())
		for _, k := range v.MapKeys() {
			c.SetMapIndex(k, v.MapIndex(k))
		}
		return c
	}
	return v
}

// Set holds the configured options of every owner. A nil Set hands out the
// declared defaults.
type Set struct {
	vals map[Options]Options
}

// Of returns the configured copy of the options declared as def (def
// itself when the set does not know it).
func (s *Set) Of(def Options) Options {
	if s != nil && def != nil {
		if v, ok := s.vals[def]; ok {
			return v
		}
	}
	return def
}

// Get is Of with the options' own type.
func Get[T Options](s *Set, def T) T {
	return s.Of(def).(T)
}
