// Package untrusted opens files and builds paths from data that skillopt
// does not control: cloned skill repositories, captures, agent definitions,
// configuration, card profiles, model answers and its own state files, all
// of which someone else may have written.
//
// Reads are bounded and refuse anything but a regular file. The type and
// size are checked with Stat before the file is opened, the open cannot
// block on a FIFO, and Fstat afterwards confirms that the file opened is
// the one checked; a file growing during the read is still cut off at the
// limit. Names and relative paths taken from data are confined to their
// folder.
package untrusted

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// TooLargeError reports input over its limit. Size is -1 when the input is
// a stream whose length was not known in advance.
type TooLargeError struct {
	Size, Limit int64
}

func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("input exceeds the %d-byte limit", e.Limit)
	}
	return fmt.Sprintf("file of %d bytes exceeds the %d-byte limit", e.Size, e.Limit)
}

// ErrNotRegular is matched (errors.Is) by every refusal of a path that
// names something other than a regular file.
var ErrNotRegular = errors.New("not a regular file")

// ErrChanged reports a path that was replaced between the check and the open.
var ErrChanged = errors.New("file changed while it was being opened")

// NotRegularError refuses a path by its type.
type NotRegularError struct {
	Mode fs.FileMode // the type found
}

func (e *NotRegularError) Error() string {
	m := e.Mode
	switch {
	case m.IsDir():
		// The words of the system's EISDIR, which callers already show.
		return "is a directory"
	case m&fs.ModeNamedPipe != 0:
		return "is a named pipe, not a regular file"
	case m&fs.ModeSocket != 0:
		return "is a socket, not a regular file"
	case m&fs.ModeCharDevice != 0:
		return "is a character device, not a regular file"
	case m&fs.ModeDevice != 0:
		return "is a device, not a regular file"
	case m&fs.ModeSymlink != 0:
		return "is a symbolic link, not a regular file"
	}
	return "is not a regular file"
}

// Is makes errors.Is(err, ErrNotRegular) true.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// CheckMode returns nil for a regular file's mode and the refusal of any
// other, for walks that see an entry's type without opening it.
func CheckMode(m fs.FileMode) error {
	if m.IsRegular() {
		return nil
	}
	return &NotRegularError{Mode: m.Type()}
}

// Open opens the regular file at path for reading, following symbolic
// links. Anything else (a folder, FIFO, device or socket, directly or
// through a link) is refused without being opened for reading in a way
// that could block. The returned info is that of the open file. Errors do
// not repeat the path.
func Open(path string) (*os.File, fs.FileInfo, error) {
	before, err := os.Stat(path)
	if err != nil {
		return nil, nil, unwrapPath(err)
	}
	if !before.Mode().IsRegular() {
		return nil, nil, &NotRegularError{Mode: before.Mode().Type()}
	}
	return openChecked(path, before)
}

// openChecked opens path, which Stat described as before, and checks that
// the file opened is that regular file.
func openChecked(path string, before fs.FileInfo) (*os.File, fs.FileInfo, error) {
	// The path may be swapped for a FIFO between Stat and open: with
	// O_NONBLOCK the open returns at once instead of waiting for a writer,
	// and Fstat below refuses it.
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, nil, unwrapPath(err)
	}
	after, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, unwrapPath(err)
	}
	if !after.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRegularError{Mode: after.Mode().Type()}
	}
	if !os.SameFile(before, after) {
		f.Close()
		return nil, nil, ErrChanged
	}
	return f, after, nil
}

// ReadFile reads the regular file at path, refusing it (before reading)
// when it is larger than limit bytes.
func ReadFile(path string, limit int64) ([]byte, error) {
	return ReadFileBuf(path, limit, nil)
}

// ReadFileBuf is ReadFile reading into buf when it is large enough, so that
// a worker can reuse one buffer for many files.
func ReadFileBuf(path string, limit int64, buf []byte) ([]byte, error) {
	f, st, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > limit {
		return nil, &TooLargeError{Size: st.Size(), Limit: limit}
	}
	// One byte more than stat reported, so that the end is seen in one
	// read; a file that grew meanwhile is read up to the limit and refused.
	want := int(st.Size()) + 1
	if cap(buf) >= want {
		buf = buf[:0]
	} else {
		buf = make([]byte, 0, want)
	}
	data, err := readUpTo(f, buf, limit)
	if err != nil {
		if _, ok := err.(*TooLargeError); !ok {
			err = unwrapPath(err)
		}
		return nil, err
	}
	return data, nil
}

// ReadAll reads r to its end, stopping after limit+1 bytes: more than limit
// bytes is a *TooLargeError, and the rest of r is left unread. A regular
// file (stdin redirected from one) is refused by its size before it is
// read. A stream is read in blocks that are never copied while it is read,
// so that refusing one holds little more than limit bytes, whatever the
// collector's pace; the blocks are joined once the end is seen.
func ReadAll(r io.Reader, limit int64) ([]byte, error) {
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			size := st.Size()
			if off, err := f.Seek(0, io.SeekCurrent); err == nil && off <= size {
				size -= off
			}
			if size > limit {
				return nil, &TooLargeError{Size: size, Limit: limit}
			}
			return readUpTo(f, make([]byte, 0, size+1), limit)
		}
	}
	return readBlocks(r, limit)
}

// Block sizes of readBlocks: the first block is small, so that a short
// stream costs little, and each next one doubles up to maxBlock.
const (
	firstBlock = 32 << 10
	maxBlock   = 4 << 20
)

// readBlocks reads a stream of unknown length, at most limit bytes.
func readBlocks(r io.Reader, limit int64) ([]byte, error) {
	lr := &io.LimitedReader{R: r, N: limit + 1}
	var blocks [][]byte
	var total int64
	size := firstBlock
	for {
		b := make([]byte, min(int64(size), limit+1-total))
		n, err := io.ReadFull(lr, b)
		if n > 0 {
			blocks = append(blocks, b[:n])
			total += int64(n)
		}
		if total > limit {
			return nil, &TooLargeError{Size: -1, Limit: limit}
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
		size = min(2*size, maxBlock)
	}
	switch len(blocks) {
	case 0:
		return []byte{}, nil
	case 1:
		return blocks[0], nil
	}
	out := make([]byte, 0, total)
	for i, b := range blocks {
		out = append(out, b...)
		blocks[i] = nil
	}
	return out, nil
}

// readUpTo appends r's content to buf, at most limit bytes.
func readUpTo(r io.Reader, buf []byte, limit int64) ([]byte, error) {
	lr := &io.LimitedReader{R: r, N: limit + 1}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, &TooLargeError{Size: -1, Limit: limit}
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// unwrapPath drops the *fs.PathError wrapper: messages name the path once,
// at the edge.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
