//go:build !unix

package tokens

import "time"

func processCPU() (time.Duration, bool) { return 0, false }
