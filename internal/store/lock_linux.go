//go:build linux

package store

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// lockDB takes an exclusive flock(2) on the database file at path itself,
// creating it if need be, so that every path to the file, through a
// symbolic or a hard link, meets the same lock: PATH.lock, beside the
// path, is one lock per path. On Linux flock(2) locks and SQLite's own
// fcntl(2) locks on the file are independent. It fails with an error
// wrapping ErrLocked if another Store holds the file.
func lockDB(path string) (*os.File, error) {
	return flock(path, "through another path to the same file, a link", flockHolder)
}

// flockHolder returns the ID of the process that holds an flock(2) on the
// file of f, as /proc/locks says, or 0 if it cannot tell.
func flockHolder(f *os.File) int {
	fi, err := f.Stat()
	if err != nil {
		return 0
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0
	}
	dev := uint64(st.Dev)
	major := (dev>>8)&0xfff | (dev>>32)&^uint64(0xfff)
	minor := dev&0xff | (dev>>12)&^uint64(0xff)
	want := fmt.Sprintf("%02x:%02x:%d", major, minor, st.Ino)
	locks, err := os.Open("/proc/locks")
	if err != nil {
		return 0
	}
	defer locks.Close()
	sc := bufio.NewScanner(locks)
	for sc.Scan() {
		// 1: FLOCK  ADVISORY  WRITE 4242 fd:01:1234567 0 EOF
		f := strings.Fields(sc.Text())
		if len(f) >= 6 && f[1] == "FLOCK" && f[3] == "WRITE" && f[5] == want {
			if pid, err := strconv.Atoi(f[4]); err == nil {
				return pid
			}
		}
	}
	return 0
}
