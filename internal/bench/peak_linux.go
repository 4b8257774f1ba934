package bench

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// resetPeak writes 5 to /proc/self/clear_refs, which sets the high-water
// mark of the resident set (VmHWM) to the current resident size (Linux
// 4.0 and later).
func resetPeak() bool {
	f, err := os.OpenFile("/proc/self/clear_refs", os.O_WRONLY, 0)
	if err != nil {
		return false
	}
	_, err = f.Write([]byte("5"))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err == nil
}

// readPeak reads VmHWM from /proc/self/status, or ru_maxrss (KiB on Linux)
// when /proc is not there.
func readPeak(reset bool) Peak {
	if kib, ok := vmHWM(); ok {
		if reset {
			return Peak{KiB: kib, Source: "VmHWM since reset"}
		}
		return Peak{KiB: kib, Source: "VmHWM"}
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return Peak{}
	}
	return Peak{KiB: int64(ru.Maxrss), Source: "ru_maxrss"}
}

func vmHWM() (int64, bool) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	return parseVmHWM(data)
}

// parseVmHWM finds the "VmHWM:   1234 kB" line of a /proc status file.
func parseVmHWM(status []byte) (int64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("VmHWM:"))
		if !ok {
			continue
		}
		num, ok := bytes.CutSuffix(bytes.TrimSpace(rest), []byte("kB"))
		if !ok {
			return 0, false
		}
		n, err := strconv.ParseInt(string(bytes.TrimSpace(num)), 10, 64)
		if err != nil || n < 0 {
			return 0, false
		}
		return n, true
	}
	return 0, false
}
