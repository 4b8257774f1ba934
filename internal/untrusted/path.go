package untrusted

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// ErrOutside reports a path that leads outside the folder it must stay
// in, by a ".." element or by resolving a symbolic link.
var ErrOutside = errors.New("path leaves its folder")

// maxName bounds one path element (the common file-system limit).
const maxName = 255

// Name checks that name, taken from data, is one plain file name: not
// empty, "." or "..", no separator of any platform, no drive or stream
// colon, no NUL or other control character, at most 255 bytes. Joined to
// a folder, such a name stays directly inside it.
func Name(name string) error {
	switch {
	case name == "":
		return errors.New("empty name")
	case name == "." || name == "..":
		return fmt.Errorf("name %q is not a file name", name)
	case len(name) > maxName:
		return fmt.Errorf("name of %d bytes is longer than %d", len(name), maxName)
	}
	for _, r := range name {
		switch {
		case r == '/' || r == '\\':
			return fmt.Errorf("name %q holds a path separator", name)
		case r == ':':
			return fmt.Errorf("name %q holds a colon", name)
		case r < 0x20 || r == 0x7f:
			return fmt.Errorf("name %q holds a control character", name)
		}
	}
	return nil
}

// Join returns dir joined with name after checking name with Name.
func Join(dir, name string) (string, error) {
	if err := Name(name); err != nil {
		return "", err
	}
	return filepath.Join(dir, name), nil
}

// Rel checks a slash-separated relative path taken from data (a skill
// resource, say) and returns it cleaned, in the platform's form. It must
// name something below its folder: not empty or the folder itself, not
// absolute or drive-relative, no ".." element, no backslash, no NUL or
// other control character. Symbolic links are not resolved here; see
// Within.
func Rel(rel string) (string, error) {
	if rel == "" {
		return "", errors.New("empty path")
	}
	if strings.HasPrefix(rel, "/") || filepath.IsAbs(rel) || filepath.VolumeName(rel) != "" {
		return "", fmt.Errorf("%q is not relative", rel)
	}
	for _, r := range rel {
		switch {
		case r == '\\':
			return "", fmt.Errorf("%q holds a backslash: use forward slashes", rel)
		case r < 0x20 || r == 0x7f:
			return "", fmt.Errorf("%q holds a control character", rel)
		}
	}
	for _, elem := range strings.Split(rel, "/") {
		if elem == ".." {
			return "", fmt.Errorf("%q: %w", rel, ErrOutside)
		}
		if len(elem) > maxName {
			return "", fmt.Errorf("%q has an element longer than %d bytes", rel, maxName)
		}
	}
	clean := path.Clean(rel)
	if clean == "." {
		return "", fmt.Errorf("%q names the folder itself", rel)
	}
	local := filepath.FromSlash(clean)
	if !filepath.IsLocal(local) {
		// Reserved names on Windows (NUL, COM1 …) end up here.
		return "", fmt.Errorf("%q is not a local path", rel)
	}
	return local, nil
}

// Within resolves the symbolic links of base and of target and returns
// the resolved target when it lies inside the resolved base (or is base
// itself). A target that resolves elsewhere is ErrOutside; a missing base
// or target is the error of its resolution.
func Within(base, target string) (string, error) {
	cb, err := resolve(base)
	if err != nil {
		return "", err
	}
	ct, err := resolve(target)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(cb, ct)
	if err != nil || !(rel == "." || filepath.IsLocal(rel)) {
		return "", ErrOutside
	}
	return ct, nil
}

func resolve(p string) (string, error) {
	c, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", unwrapPath(err)
	}
	return filepath.Abs(c)
}

// Confine returns rel (slash-separated, from data such as a configuration
// file) joined to base, checking that it stays inside base: Rel's checks,
// then the deepest part of the path that exists (and the path itself, when
// it exists) must resolve inside base through any symbolic link. The path
// need not exist: Confine is for places that are about to be written.
func Confine(base, rel string) (string, error) {
	local, err := Rel(filepath.ToSlash(rel))
	if err != nil {
		return "", err
	}
	p := filepath.Join(base, local)
	for dir := filepath.Dir(p); ; dir = filepath.Dir(dir) {
		_, err := Within(base, dir)
		if err == nil {
			break
		}
		if errors.Is(err, ErrOutside) {
			return "", fmt.Errorf("%q leads out through a symbolic link: %w", rel, ErrOutside)
		}
		if !errors.Is(err, fs.ErrNotExist) || dir == base || dir == filepath.Dir(dir) {
			return "", err
		}
	}
	if _, err := os.Lstat(p); err == nil {
		if _, err := Within(base, p); err != nil {
			return "", fmt.Errorf("%q leads out through a symbolic link: %w", rel, ErrOutside)
		}
	}
	return p, nil
}
