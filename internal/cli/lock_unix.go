//go:build unix

package cli

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockDir takes an exclusive flock(2) on the file name, creating it, so
// that two runs do not write one directory at once; the kernel drops the
// lock when the process ends, however it ends. unlock releases it.
func lockDir(name string) (unlock func(), err error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("another run holds %s: one run at a time writes a table", name)
		}
		return nil, fmt.Errorf("locking %s: %w", name, err)
	}
	return func() { f.Close() }, nil
}
