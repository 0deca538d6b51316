//go:build unix

package store

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// lockFile takes an exclusive lock on the file at path, creating it if
// need be, and writes this process's ID in it. The lock is an flock(2) on
// the file: the kernel drops it when the process ends, however it ends, so
// a crash never leaves a stale lock. It fails with an error wrapping
// ErrLocked if another Store, in this process or another, holds it.
func lockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		defer f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			holder := ""
			if b, rerr := os.ReadFile(path); rerr == nil {
				if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); perr == nil {
					holder = "process " + strconv.Itoa(pid) + ", "
				}
			}
			return nil, fmt.Errorf("%w (%slock file %s)", ErrLocked, holder, path)
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, nil
}

// unlockFile releases the lock of lockFile. The file stays, so that a
// Store opening it at the same moment never locks a file that is gone.
func unlockFile(f *os.File) error { return f.Close() }
