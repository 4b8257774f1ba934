package validity

import (
	"fmt"
	"strings"
	"testing"
)

// pdfWithPages builds a small uncompressed PDF whose page tree declares n
// pages, with the page objects written out.
func pdfWithPages(n int) []byte {
	var b strings.Builder
	b.WriteString("%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n")
	var kids []string
	for i := 0; i < n; i++ {
		kids = append(kids, fmt.Sprintf("%d 0 R", i+3))
	}
	fmt.Fprintf(&b, "2 0 obj\n<< /Type /Pages /Kids [%s] /Count %d >>\nendobj\n", strings.Join(kids, " "), n)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%d 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n", i+3)
	}
	b.WriteString("trailer\n<< /Root 1 0 R >>\n%%EOF\n")
	return []byte(b.String())
}

func TestPDFPageCount(t *testing.T) {
	for _, tc := range []struct {
		name string
		pdf  []byte
		n    int
		ok   bool
	}{
		{"three pages", pdfWithPages(3), 3, true},
		{"101 pages", pdfWithPages(101), 101, true},
		// An incremental update writes a new root last: its count holds.
		{"updated", append(pdfWithPages(120), []byte("2 0 obj\n<</Type/Pages/Kids[3 0 R]/Count 1>>\nendobj\n%%EOF\n")...), 1, true},
		// Intermediate nodes have a /Parent and do not count.
		{"intermediate only", []byte("%PDF-1.7\n5 0 obj\n<< /Type /Pages /Parent 2 0 R /Count 40 >>\nendobj\n"), 0, false},
		// Compressed object streams hide the tree: unknown.
		{"object streams", []byte("%PDF-1.5\n4 0 obj\n<< /Type /ObjStm /N 9 /First 60 /Filter /FlateDecode /Length 3 >>\nstream\nxyz\nendstream\nendobj\n"), 0, false},
		{"not a pdf", []byte("<< /Type /Pages /Count 500 >>"), 0, false},
	} {
		n, ok := pdfPageCount(tc.pdf)
		if n != tc.n || ok != tc.ok {
			t.Errorf("%s: got %d, %v; want %d, %v", tc.name, n, ok, tc.n, tc.ok)
		}
	}
}
