//go:build unix

package server

import "syscall"

// openFileLimit returns the most files the process may have open (its
// soft RLIMIT_NOFILE, which Go raises to the hard limit at start), or 0 if
// it is not known or unlimited.
func openFileLimit() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur > 1<<30 {
		return 0
	}
	return int(rl.Cur)
}
