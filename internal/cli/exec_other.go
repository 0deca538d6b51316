//go:build !unix

package cli

import (
	"errors"
	"os"
	"os/exec"
)

// execReplace runs bin in a child process with the same streams and exits
// with its status, where the system cannot replace a process.
func execReplace(bin string, argv, env []string) error {
	cmd := exec.Command(bin, argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr, cmd.Env = os.Stdin, os.Stdout, os.Stderr, env
	err := cmd.Run()
	var xe *exec.ExitError
	if errors.As(err, &xe) {
		os.Exit(xe.ExitCode())
	}
	if err == nil {
		os.Exit(0)
	}
	return err
}
