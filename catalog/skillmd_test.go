package catalog

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/testfs"
)

func TestParseSkillDoc(t *testing.T) {
	cases := []struct {
		name, in string
		err      DocErrorKind
		errPos   string // line:col of the error
		want     string // summary of the doc
	}{
		{name: "plain", in: "---\nname: pdf\ndescription: Read PDFs.\n---\n# PDF\n",
			want: "name=pdf desc=Read PDFs. fields=[name@2:1=2:7 description@3:1=3:14] body=5:\"# PDF\\n\""},
		{name: "crlf", in: "---\r\nname: pdf\r\ndescription: >\r\n  folded\r\n  text\r\n---\r\nbody\r\n",
			want: "name=pdf desc=folded text\n fields=[name@2:1=2:7 description@3:1=3:14] body=7:\"body\\r\\n\""},
		{name: "bom", in: "\ufeff---\nname: x\ndescription: y\n---\n",
			want: "name=x desc=y fields=[name@2:1=2:7 description@3:1=3:14] body=5:\"\" bom"},
		{name: "no final newline", in: "---\nname: x\n---",
			want: "name=x desc= fields=[name@2:1=2:7] body=4:\"\""},
		{name: "trailing spaces on delimiters", in: "--- \nname: x\n---\t\nbody",
			want: "name=x desc= fields=[name@2:1=2:7] body=4:\"body\""},
		{name: "empty frontmatter", in: "---\n---\nbody\n",
			want: "name= desc= fields=[] body=3:\"body\\n\""},
		{name: "comment only", in: "---\n# nothing\n---\n",
			want: "name= desc= fields=[] body=4:\"\""},
		{name: "dashes in a quoted value", in: "---\nname: x\ndescription: \"a --- b\"\n---\n",
			want: "name=x desc=a --- b fields=[name@2:1=2:7 description@3:1=3:14] body=5:\"\""},
		{name: "quoted booleans", in: "---\nname: x\ndisable-model-invocation: \"true\"\n---\n",
			want: "name=x desc= fields=[name@2:1=2:7 disable-model-invocation@3:1=3:27] body=5:\"\""},
		{name: "yaml boolean", in: "---\nname: x\ndisable-model-invocation: True\n---\n",
			want: "name=x desc= fields=[name@2:1=2:7 disable-model-invocation@3:1=3:27] body=5:\"\" disabled"},
		{name: "yes is a string", in: "---\ndisable-model-invocation: yes\n---\n",
			want: "name= desc= fields=[disable-model-invocation@2:1=2:27] body=4:\"\""},
		{name: "non-ascii columns", in: "---\nnáme: é\nname: 技能\n---\n",
			want: "name=技能 desc= fields=[náme@2:1=2:7 name@3:1=3:7] body=5:\"\""},
		{name: "null name", in: "---\nname:\ndescription: ~\n---\n",
			want: "name= desc= fields=[name@2:1=2:6 description@3:1=3:14] body=5:\"\""},

		{name: "leading blank line", in: "\n---\nname: x\n---\n", err: ErrNoFrontmatter, errPos: "1:1"},
		{name: "no frontmatter", in: "# Title\n", err: ErrNoFrontmatter, errPos: "1:1"},
		{name: "empty file", in: "", err: ErrNoFrontmatter, errPos: "1:1"},
		{name: "unclosed", in: "---\nname: x\ndescription: y\n", err: ErrUnclosed, errPos: "1:1"},
		{name: "only opening", in: "---", err: ErrUnclosed, errPos: "1:1"},
		{name: "dashes line inside a quoted value closes early", in: "---\nname: x\ndescription: \"a\n---\nb\"\n---\n", err: ErrYAML, errPos: "3:1"},
		{name: "unquoted colon", in: "---\nname: x\ndescription: Use when: always\n---\n", err: ErrYAML, errPos: "3:1"},
		{name: "tab indentation", in: "---\nmetadata:\n\tauthor: me\n---\n", err: ErrYAML, errPos: "3:1"},
		{name: "unterminated flow", in: "---\nname: [invalid\n---\n", err: ErrYAML, errPos: "2:1"},
		{name: "duplicate key", in: "---\nname: x\ndescription: y\nname: x\n---\n", err: ErrDuplicateKey, errPos: "4:1",
			want: "name=x desc=y fields=[name@2:1=2:7 description@3:1=3:14 name@4:1=4:7] body=6:\"\" dups=[name@4:1(2)]"},
		{name: "nested duplicate", in: "---\nmetadata:\n  a: 1\n  a: 2\n---\n", err: ErrDuplicateKey, errPos: "4:3",
			want: "name= desc= fields=[metadata@2:1=3:3] body=6:\"\" dups=[a@4:3(3)]"},
		{name: "list", in: "---\n- a\n- b\n---\n", err: ErrNotMapping, errPos: "2:1"},
		{name: "scalar", in: "---\njust text\n---\n", err: ErrNotMapping, errPos: "2:1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ParseSkillDoc("SKILL.md", []byte(tc.in))
			if d == nil {
				t.Fatal("nil doc")
			}
			if tc.err != 0 {
				var de *DocError
				if !errors.As(err, &de) || de.Kind != tc.err {
					t.Fatalf("error %v, want kind %d", err, tc.err)
				}
				if pos := fmt.Sprintf("%d:%d", de.Line, de.Col); pos != tc.errPos {
					t.Errorf("error at %s, want %s (%v)", pos, tc.errPos, err)
				}
				if !strings.HasPrefix(err.Error(), "SKILL.md:"+tc.errPos+": ") {
					t.Errorf("error text %q", err)
				}
				if tc.want == "" {
					return
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if got := summarize(d); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func summarize(d *SkillDoc) string {
	var fs []string
	for _, f := range d.Fields {
		fs = append(fs, fmt.Sprintf("%s@%d:%d=%d:%d", f.Key, f.Line, f.Col, f.ValueLine, f.ValueCol))
	}
	s := fmt.Sprintf("name=%s desc=%s fields=[%s] body=%d:%q", d.Name, d.Description, strings.Join(fs, " "), d.BodyLine, d.Body)
	if d.BOM {
		s += " bom"
	}
	if d.DisableModelInvocation {
		s += " disabled"
	}
	if len(d.Duplicates) > 0 {
		var ds []string
		for _, dup := range d.Duplicates {
			ds = append(ds, fmt.Sprintf("%s@%d:%d(%d)", dup.Key, dup.Line, dup.Col, dup.FirstLine))
		}
		s += " dups=[" + strings.Join(ds, " ") + "]"
	}
	return s
}

func TestSkillDocPositions(t *testing.T) {
	d, err := ParseSkillDoc("x.md", []byte("\ufeff---\r\nname: é😀x\r\n---\r\nline\rnext\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Lines() != 5 {
		t.Errorf("lines %d", d.Lines())
	}
	if got := string(d.Line(1)); got != "---" {
		t.Errorf("line 1 %q", got)
	}
	off := strings.Index(string(d.Raw), "x\r")
	if l, c := d.Pos(off); l != 2 || c != 9 {
		t.Errorf("pos %d:%d, want 2:9", l, c)
	}
	if c := UTF16Column(d.Line(2), 9); c != 10 {
		t.Errorf("utf-16 column %d, want 10", c)
	}
	if l, c := d.Pos(3); l != 1 || c != 1 {
		t.Errorf("pos after BOM %d:%d", l, c)
	}
	if got := string(d.Line(5)); got != "next" {
		t.Errorf("lone CR: line 5 %q", got)
	}
}

func TestLoadSkills(t *testing.T) {
	dir := testfs.Tree(t, `
-- README.md --
# Readme
-- titled.md --
---
title: Just a page
---
-- single.md --
---
name: single
description: A single-file skill.
---
-- good/SKILL.md --
---
name: good
description: Good.
---
-- bad/SKILL.md --
---
name: bad
description: bad: yaml
---
`)
	docs, errs := LoadSkills([]string{dir}, WalkOptions{})
	var names []string
	for _, d := range docs {
		names = append(names, d.Name)
	}
	if !slices.Equal(names, []string{"single", "good"}) {
		t.Errorf("docs %v", names)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), filepath.Join("bad", "SKILL.md")+":3:1: invalid YAML") {
		t.Errorf("errors %v", errs)
	}
	if got := docs[1].SkillName(); got != "good" {
		t.Errorf("skill name %q", got)
	}
}

// FuzzParseSkillDoc: any input parses or yields a located *DocError; the
// body is always a suffix of the input and positions stay inside it.
func FuzzParseSkillDoc(f *testing.F) {
	f.Add([]byte("---\nname: x\ndescription: y\n---\nbody\n"))
	f.Add([]byte("\ufeff---\r\nname: x\r\n---\r\n"))
	f.Add([]byte("---\nname: [x\n---\n"))
	f.Add([]byte("---\na: &a [*a]\nb: *a\n---\n"))
	f.Add([]byte("---\nmetadata:\n  k: 1\n  k: 2\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		d, err := ParseSkillDoc("f.md", data)
		if d == nil {
			t.Fatal("nil doc")
		}
		if !strings.HasSuffix(string(data), string(d.Body)) {
			t.Fatal("body is not a suffix of the input")
		}
		lines := d.Lines()
		if err != nil {
			var de *DocError
			if !errors.As(err, &de) {
				t.Fatalf("unlocated error %T %v", err, err)
			}
			if de.Line < 1 || de.Col < 1 || de.Line > lines+1 {
				t.Fatalf("error outside the file: %v (lines %d)", err, lines)
			}
		}
		for _, fl := range d.Fields {
			if fl.Line < 2 || fl.Col < 1 || fl.ValueLine < 2 {
				t.Fatalf("field %q at %d:%d", fl.Key, fl.Line, fl.Col)
			}
		}
	})
}
