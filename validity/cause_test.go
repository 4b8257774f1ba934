package validity

import (
	"slices"
	"testing"
)

func TestCauses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fs    []Finding
		cause []int
		dup   []bool
	}{
		{"none", nil, []int{}, []bool{}},
		{"unrelated", []Finding{{"SO502", "/messages/1/content/0", false}, {"SO501", "/tools/0/name", false}}, []int{-1, -1}, []bool{false, false}},
		{"rule inside a schema error", []Finding{{"SO502", "/messages/1/content/0", false}, {"schema", "/messages/1", false}}, []int{1, -1}, []bool{false, false}},
		{"rule at the scalar the schema rejects", []Finding{{"schema", "/tools/0/name", true}, {"SO501", "/tools/0/name", true}}, []int{-1, 0}, []bool{false, true}},
		{"rule at the object the schema rejects", []Finding{{"schema", "/messages/1/content/0", false}, {"SO502", "/messages/1/content/0", false}}, []int{-1, 0}, []bool{false, false}},
		{"sibling of a schema error", []Finding{{"schema", "/tools/1", false}, {"SO501", "/tools/10/name", false}}, []int{-1, -1}, []bool{false, false}},
		{"schema error on the whole body", []Finding{{"schema", "", false}, {"SO502", "/messages/1", false}}, []int{-1, -1}, []bool{false, false}},
		{"unanswered call and misnamed answer", []Finding{{"SO502", "/messages/1/content/0", false}, {"SO502", "/messages/2/content/0", false}}, []int{1, -1}, []bool{false, false}},
		{"chat pairing", []Finding{{"SO503", "/messages/3", false}, {"SO503", "/messages/4", false}}, []int{1, -1}, []bool{false, false}},
		{"turns apart", []Finding{{"SO502", "/messages/1/content/0", false}, {"SO502", "/messages/3/content/0", false}}, []int{-1, -1}, []bool{false, false}},
		{"different rules", []Finding{{"SO502", "/messages/1/content/0", false}, {"SO506", "/messages/2/content/0", false}}, []int{-1, -1}, []bool{false, false}},
		{"not a pairing rule", []Finding{{"SO506", "/messages/1", false}, {"SO506", "/messages/2", false}}, []int{-1, -1}, []bool{false, false}},
		{"no chains", []Finding{{"SO502", "/messages/1/content/0", false}, {"SO502", "/messages/2/content/0", false}, {"SO502", "/messages/3/content/0", false}}, []int{-1, 2, -1}, []bool{false, false, false}},
	} {
		cause, dup := Causes(tc.fs)
		if !slices.Equal(cause, tc.cause) || !slices.Equal(dup, tc.dup) {
			t.Errorf("%s: cause %v dup %v, want %v %v", tc.name, cause, dup, tc.cause, tc.dup)
		}
	}
}
