package store_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mastermind-toolkit/mastermind/internal/store"
)

// TestCloseRemovesLock checks that a store closed leaves no PATH.lock
// beside its database: a server stopped leaves only its database.
func TestCloseRemovesLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	for range 2 {
		s, err := store.Open(path, noSweep)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(path + ".lock"); err != nil {
			t.Errorf("an open store has no lock file: %v", err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Lstat(path + ".lock"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Close left %s.lock: %v", path, err)
		}
	}
}

// TestLockRace opens and closes one database from several goroutines at
// once: with the lock file removed on Close, a store that opened it just
// before must not hold a lock on a file no longer there while another
// holds the new one. Two stores are never open at once.
func TestLockRace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	if s, err := store.Open(path, noSweep); err != nil {
		t.Fatal(err)
	} else {
		s.Close() // the database is made once, not by racing starts
	}
	var open, opened atomic.Int32
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 25 {
				s, err := store.Open(path, noSweep)
				if errors.Is(err, store.ErrLocked) {
					continue
				}
				if err != nil {
					t.Error(err)
					return
				}
				opened.Add(1)
				if n := open.Add(1); n > 1 {
					t.Errorf("%d stores open on one database at once", n)
				}
				open.Add(-1)
				s.Close()
			}
		})
	}
	wg.Wait()
	if opened.Load() == 0 {
		t.Error("no Open succeeded")
	}
}
