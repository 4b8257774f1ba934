//go:build unix

package shell

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestRun(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	out, err := Run("cat; echo done", []byte("req\n"), io.Discard, time.Minute, 64)
	if err != nil || string(out) != "req\ndone\n" {
		t.Fatalf("got %q, %v", out, err)
	}
	// Output past the limit stops the command, however much it would print.
	_, err = Run("while :; do echo 0123456789; done", nil, io.Discard, 0, 1000)
	if err == nil || !strings.Contains(err.Error(), "exceeds the 1000-byte limit") {
		t.Fatalf("err = %v", err)
	}
	_, err = Run("exit 3", nil, io.Discard, time.Minute, 64)
	if err == nil || !strings.Contains(err.Error(), "exit status 3") {
		t.Fatalf("err = %v", err)
	}
}

// On timeout the whole process group is killed: a child the script
// started in the background does not outlive it.
func TestRunKillsGroup(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	_, err := Run("sleep 300 & echo $! > "+pidFile+"; wait", nil, io.Discard, time.Second, 64)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v", err)
	}
	data, err := os.ReadFile(pidFile)
	if os.IsNotExist(err) {
		t.Skip("the script was stopped before it started its child")
	}
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	// SIGKILL was sent to the group before runShell returned; give the
	// kernel a moment to finish the child (a zombie counts as gone). No
	// wall-clock bound of its own: a busy machine may take a while, and a
	// child that survives is caught by the test timeout.
	deadline, hasDeadline := t.Deadline()
	for !hasDeadline || time.Until(deadline) > 5*time.Second {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return
		}
		if f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); len(f) > 0 && (f[0] == "Z" || f[0] == "X") {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("background child %d still running", pid)
}
