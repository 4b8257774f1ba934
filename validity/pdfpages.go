package validity

import (
	"bytes"
	"strconv"
)

// pdfPageCount returns the page count a PDF's page tree declares: the
// /Count of the last root /Pages object (one without /Parent) found in
// the file's uncompressed bytes, the one an incremental update wrote last.
// ok is false when no such object is readable, as in a PDF that keeps its
// objects in compressed object streams; the count is then unknown, never
// guessed.
func pdfPageCount(pdf []byte) (n int, ok bool) {
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		return 0, false
	}
	rest := pdf
	for {
		i := bytes.Index(rest, []byte("/Type"))
		if i < 0 {
			return n, ok
		}
		at := len(pdf) - len(rest) + i
		rest = rest[i+len("/Type"):]
		v := bytes.TrimLeft(rest, " \t\r\n\f\x00")
		if !bytes.HasPrefix(v, []byte("/Pages")) || len(v) > 6 && isNameChar(v[6]) {
			continue
		}
		body := pdfObject(pdf, at)
		if body == nil || bytes.Contains(body, []byte("/Parent")) {
			continue
		}
		if c, found := pdfCount(body); found {
			n, ok = c, true
		}
	}
}

// maxPDFObject bounds the bytes read either side of a /Type key for its
// object, so that no input makes the search quadratic.
const maxPDFObject = 64 << 10

// pdfObject returns the bytes of the indirect object around position at,
// from its "obj" keyword to its "endobj", or nil.
func pdfObject(pdf []byte, at int) []byte {
	start := -1
	for j := at; j >= 3 && at-j < maxPDFObject; j-- {
		if string(pdf[j-3:j]) == "obj" && (j < 6 || string(pdf[j-6:j-3]) != "end") {
			start = j
			break
		}
		if string(pdf[j-3:j]) == "obj" {
			return nil // the previous object ended first
		}
	}
	end := bytes.Index(pdf[at:min(len(pdf), at+maxPDFObject)], []byte("endobj"))
	if start < 0 || end < 0 {
		return nil
	}
	return pdf[start : at+end]
}

// pdfCount reads the integer after /Count in an object's bytes.
func pdfCount(body []byte) (int, bool) {
	i := bytes.Index(body, []byte("/Count"))
	if i < 0 {
		return 0, false
	}
	v := bytes.TrimLeft(body[i+len("/Count"):], " \t\r\n\f\x00")
	j := 0
	for j < len(v) && v[j] >= '0' && v[j] <= '9' {
		j++
	}
	n, err := strconv.Atoi(string(v[:j]))
	return n, err == nil
}

func isNameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
