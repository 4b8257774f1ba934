//go:build !unix

package testfs

import "testing"

// Mkfifo skips the test: this system has no named pipes.
func Mkfifo(t testing.TB, path string) { t.Skip("no named pipes here") }
