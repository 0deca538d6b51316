//go:build unix

package store

import (
	"errors"
	"fmt"
	"io/fs"
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
//
// unlockFile removes the file, so that a server stopped leaves none
// behind; a Store that opened the file before it went may then lock a
// file no longer at path, which locks nothing: lockFile checks that the
// file it locked is the one at path, and tries again if not.
func lockFile(path string) (*os.File, error) {
	for {
		f, err := flock(path, "lock file "+path, pidIn)
		if err != nil {
			return nil, err
		}
		fi, err := f.Stat()
		pi, perr := os.Stat(path)
		if err != nil || perr != nil || !os.SameFile(fi, pi) {
			f.Close() // removed by its holder as we locked it
			continue
		}
		if err := f.Truncate(0); err == nil {
			f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
		}
		return f, nil
	}
}

// flock opens the file at path, creating it if need be, and takes an
// exclusive flock(2) on it without waiting. If another holds it, the error
// wraps ErrLocked and names where, and the holder's process ID when holder
// can tell it (0 if not).
func flock(path, where string, holder func(*os.File) int) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		defer f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			by := ""
			if pid := holder(f); pid > 0 {
				by = "process " + strconv.Itoa(pid) + ", "
			}
			return nil, fmt.Errorf("%w (%s%s)", ErrLocked, by, where)
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return f, nil
}

// pidIn returns the process ID that lockFile wrote in f, or 0.
func pidIn(f *os.File) int {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n])))
	if err != nil {
		return 0
	}
	return pid
}

// unlockFile removes the file of lockFile, while it holds the lock (see
// lockFile), then releases the lock.
func unlockFile(f *os.File) error {
	err := os.Remove(f.Name())
	if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	return errors.Join(err, f.Close())
}
