// Package testfs builds file trees for tests: txtar archives with the
// special files and encodings txtar cannot hold, and named pipes. Only
// tests import it.
package testfs

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// WriteTree materialises a txtar archive under dir. Lines of the archive's
// comment are directives for what txtar cannot hold:
//
//	symlink LINK TARGET   create LINK (relative to dir) pointing at TARGET
//	crlf FILE             turn the file's line breaks into CRLF
//	bom FILE              prefix the file with a UTF-8 byte order mark
//	noeol FILE            drop the file's final line break
//	mkdir DIR             create an empty folder
//
// Other comment lines (args …, ambient …) are returned for the caller.
func WriteTree(t testing.TB, dir string, ar *txtar.Archive) []string {
	t.Helper()
	for _, f := range ar.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var rest []string
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		edit := func(fn func([]byte) []byte) {
			p := filepath.Join(dir, filepath.FromSlash(fields[1]))
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, fn(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		switch fields[0] {
		case "symlink":
			p := filepath.Join(dir, filepath.FromSlash(fields[1]))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.FromSlash(fields[2]), p); err != nil {
				t.Fatal(err)
			}
		case "crlf":
			edit(func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) })
		case "bom":
			edit(func(b []byte) []byte { return append([]byte{0xEF, 0xBB, 0xBF}, b...) })
		case "noeol":
			edit(func(b []byte) []byte { return bytes.TrimSuffix(b, []byte("\n")) })
		case "mkdir":
			if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(fields[1])), 0o755); err != nil {
				t.Fatal(err)
			}
		default:
			rest = append(rest, line)
		}
	}
	return rest
}

// Tree writes a txtar given as text into a fresh temporary folder.
func Tree(t testing.TB, archive string) string {
	t.Helper()
	dir := t.TempDir()
	WriteTree(t, dir, txtar.Parse([]byte(archive)))
	return dir
}
