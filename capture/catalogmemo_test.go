package capture

import "testing"

// TestCatalogMemo: the memo gives every catalog its own digest, copies a
// catalog only the second time it comes, and then answers from the copy,
// even when the caller's bytes change afterwards.
func TestCatalogMemo(t *testing.T) {
	var m catalogMemo
	a := [][]byte{[]byte("<available_skills>a</available_skills>")}
	b := [][]byte{[]byte("<available_skills>b</available_skills>")}
	steps := []struct {
		name   string
		parts  [][]byte
		copied bool
	}{
		{"first a", a, false},
		{"second a", a, true},
		{"third a", a, true},
		{"first b", b, false},
		{"a again", a, false},
		{"a twice more", a, true},
	}
	for _, st := range steps {
		got := m.digest(st.parts)
		want := digestCatalog(st.parts)
		if *got != *want {
			t.Fatalf("%s: digest %x, want %x", st.name, got.sum, want.sum)
		}
		if e := m.last.Load(); (e.parts != nil) != st.copied {
			t.Fatalf("%s: copied %v, want %v", st.name, e.parts != nil, st.copied)
		}
	}
	// The memo holds a copy: changing the caller's bytes does not change
	// what it compares with.
	c := [][]byte{[]byte(string(a[0]))}
	c[0][len(c[0])-2] = 'X'
	if got, want := m.digest(c), digestCatalog(c); *got != *want {
		t.Fatalf("changed bytes: digest %x, want %x", got.sum, want.sum)
	}
	if got := m.digest([][]byte{}); got.ok {
		t.Fatal("no catalog: ok")
	}
}
