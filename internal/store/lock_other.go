//go:build !unix

package store

import (
	"errors"
	"fmt"
	"os"
)

// lockFile creates the file at path exclusively and writes this process's
// ID in it; it fails with an error wrapping ErrLocked if the file exists.
// Without flock(2), a lock left by a process that crashed must be removed
// by hand.
func lockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return nil, fmt.Errorf("%w (lock %s; remove it if no server is running)", ErrLocked, path)
	}
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(f, "%d\n", os.Getpid())
	return f, nil
}

// unlockFile releases the lock of lockFile by removing the file.
func unlockFile(f *os.File) error {
	err := f.Close()
	return errors.Join(err, os.Remove(f.Name()))
}
