//go:build unix

package cli

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockDir takes a flock(2) on the file name, creating it, so that two
// runs do not write one directory at once: an exclusive lock, or with
// shared a lock that other shared holders may hold too (the shards of a
// table, which write only their own files) but no exclusive one. The
// kernel drops the lock when the process ends, however it ends. unlock
// releases it.
func lockDir(name string, shared bool) (unlock func(), err error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	how := syscall.LOCK_EX
	if shared {
		how = syscall.LOCK_SH
	}
	if err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			if shared {
				return nil, &lockedError{fmt.Sprintf("a whole run or a merge holds %s: shards wait until it ends", name)}
			}
			return nil, &lockedError{fmt.Sprintf("another run holds %s: one run at a time writes a table, and none while shards run", name)}
		}
		return nil, fmt.Errorf("locking %s: %w", name, err)
	}
	return func() { f.Close() }, nil
}
