// Package shell runs a command line through sh for a program that hands
// it a request and reads its answer: bounded in time and in output, and
// stopped as a whole process group, so that nothing it started outlives
// it.
package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"time"
)

// errOutputLimit stops a command whose output passed its limit.
var errOutputLimit = errors.New("output limit reached")

// ErrTimeout is the error of a run stopped because it took too long.
var ErrTimeout = errors.New("no answer in time; stopped")

// cappedBuffer keeps at most limit bytes; the write that passes the limit
// fails and calls stop, once.
type cappedBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	limit int
	over  bool
	stop  func()
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.over {
		return 0, errOutputLimit
	}
	if b.buf.Len()+len(p) > b.limit {
		b.over = true
		b.stop()
		return 0, errOutputLimit
	}
	return b.buf.Write(p)
}

// Run runs script through sh -c with stdin, in a process group of its
// own, and returns its standard output. A run longer than timeout or
// printing more than limit bytes is stopped — the whole group, so that
// children the script started stop too — and reported as an error.
func Run(script string, stdin []byte, stderr io.Writer, timeout time.Duration, limit int) ([]byte, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	out := &cappedBuffer{limit: limit, stop: cancel}
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(stdin), out, stderr
	ownProcessGroup(cmd)
	// A grandchild holding the output pipe open must not keep Wait from
	// returning once the group was killed.
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	switch {
	case out.over:
		return nil, fmt.Errorf("output exceeds the %d-byte limit; stopped", limit)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return nil, ErrTimeout
	case err != nil:
		return nil, err
	}
	return out.buf.Bytes(), nil
}
