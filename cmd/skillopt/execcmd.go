package main

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

// maxExecOutput bounds what one --exec run may print: an answer of a few
// thousand cards is well under a megabyte.
const maxExecOutput = 8 << 20

// errOutputLimit stops a command whose output passed maxExecOutput.
var errOutputLimit = errors.New("output limit reached")

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

// runShell runs script through sh -c with stdin, in a process group of its
// own, and returns its standard output. A run longer than timeout or
// printing more than limit bytes is stopped — the whole group, so that
// children the script started stop too — and reported as an error.
func runShell(script string, stdin []byte, stderr io.Writer, timeout time.Duration, limit int) ([]byte, error) {
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
		return nil, fmt.Errorf("no answer within %v (--exec-timeout); stopped", timeout)
	case err != nil:
		return nil, err
	}
	return out.buf.Bytes(), nil
}
