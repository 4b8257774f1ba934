//go:build !linux && !darwin

package bench

func resetPeak() bool { return false }

// readPeak has nothing to read where the platform reports no peak.
func readPeak(bool) Peak { return Peak{} }
