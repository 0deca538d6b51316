//go:build unix

package cli

import "syscall"

// execReplace replaces the process with bin; it returns only on failure.
func execReplace(bin string, argv, env []string) error {
	return syscall.Exec(bin, argv, env)
}
