//go:build unix

package untrusted

import "syscall"

// openFlags keeps an open of a FIFO from waiting for a writer.
const openFlags = syscall.O_NONBLOCK
