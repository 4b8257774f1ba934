//go:build !unix

package untrusted

// openFlags: without O_NONBLOCK the type check before the open is the guard.
const openFlags = 0
