package record

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Log is a capture file that exchanges are appended to, one JSON line
// each. Every line goes to the file in one write to a descriptor opened
// for appending, so lines of concurrent exchanges never interleave and a
// crash loses at most the exchange in flight; should a write still be cut
// short (a full disk), the capture reader reports that line and reads the
// others.
type Log struct {
	mu   sync.Mutex
	f    *os.File
	path string
}

// Create makes dir (mode 0700) when missing and a new capture file in it,
// skillopt-record-TIME.jsonl (mode 0600), never overwriting one.
func Create(dir string, now time.Time) (*Log, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	stamp := now.UTC().Format("20060102T150405Z")
	for i := 0; i < 100; i++ {
		name := "skillopt-record-" + stamp + ".jsonl"
		if i > 0 {
			name = fmt.Sprintf("skillopt-record-%s-%d.jsonl", stamp, i+1)
		}
		p := filepath.Join(dir, name)
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return &Log{f: f, path: p}, nil
	}
	return nil, fmt.Errorf("%s: too many capture files named skillopt-record-%s", dir, stamp)
}

// OpenLog appends to the file at path, created (mode 0600) when missing.
func OpenLog(path string) (*Log, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	return &Log{f: f, path: path}, nil
}

// Path is the file's path.
func (l *Log) Path() string { return l.path }

// Append writes line and a line break in one write.
func (l *Log) Append(line []byte) error {
	buf := make([]byte, 0, len(line)+1)
	return l.write(append(append(buf, line...), '\n'))
}

// write writes buf, a line with its line break, in one write.
func (l *Log) write(buf []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return errors.New("capture file is closed")
	}
	n, err := l.f.Write(buf)
	if err == nil && n < len(buf) {
		err = fmt.Errorf("short write (%d of %d bytes)", n, len(buf))
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", l.path, err)
	}
	return nil
}

// Close closes the file.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}
