package lint

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzScanLinks: the markdown link scanner never panics and every link
// destination it returns is the text at its offset.
func FuzzScanLinks(f *testing.F) {
	f.Add([]byte("See [a](b.md) and ![c](d%20e.png#x).\n\n```\n[no](x)\n```\n[ref]: r.md\n"))
	f.Add([]byte("`[code](x)` [a](<b c.md>) [d](e(f).md) \\[g](h)\n[^1]: foot\n"))
	f.Add([]byte("~~~~\n[a](b)\n~~~\n[c](d)\n~~~~\n[e](f)"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		for _, l := range scanLinks(data, 0) {
			if l.off < 0 || l.off+len(l.target) > len(data) || string(data[l.off:l.off+len(l.target)]) != l.target {
				t.Fatalf("link %q at %d does not match the input", l.target, l.off)
			}
			if t2, ok := localTarget(l.target); ok && t2 == "" {
				t.Fatalf("empty local target from %q", l.target)
			}
		}
	})
}

// FuzzTokenCache: any cache file opens without panicking; a saved cache
// reads back the same counts.
func FuzzTokenCache(f *testing.F) {
	f.Add([]byte(tokenCacheVersion + " o200k_base\n00112233445566778899aabbccddeeff 12\n"))
	f.Add([]byte(tokenCacheVersion + " o200k_base\nzz 1\n"))
	f.Add([]byte("garbage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "lint-tokens-o200k_base"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		c := openTokenCache(dir, "o200k_base")
		k := bodyKey(data)
		c.put(k, len(data))
		if err := c.save(); err != nil {
			t.Fatal(err)
		}
		again := openTokenCache(dir, "o200k_base")
		if n, ok := again.get(k); !ok || n != len(data) {
			t.Fatalf("saved count not read back: %d %v", n, ok)
		}
		for key, n := range c.old {
			if m, ok := again.get(key); !ok || m != n {
				t.Fatalf("old entry lost")
			}
		}
	})
}
