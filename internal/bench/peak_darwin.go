package bench

import "syscall"

func resetPeak() bool { return false }

// readPeak reads ru_maxrss, which macOS reports in bytes.
func readPeak(bool) Peak {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return Peak{}
	}
	return Peak{KiB: int64(ru.Maxrss) / 1024, Source: "ru_maxrss"}
}
