package store_test

import (
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/store"
)

// A database whose interior pages are damaged is refused at Open, with a
// message that says what to do, rather than opened to fail requests later;
// a check cut short by CheckTime is logged and the file used.
func TestDamagedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	s, err := store.Open(path, noSweep)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 500 { // many pages: the root of games is an interior page
		wg.Go(func() {
			g := &mm.Game{ID: fmt.Sprintf("game-%04d", i), Rules: mm.Classic, Secret: code(t, mm.Classic, "1234"), Created: t0}
			if err := s.CreateGame(ctx, g, nil); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	s.Close()
	checkpoint(t, path)

	// The root page of the games table, an interior page: its first byte
	// says so (5).
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	var root, pageSize int64
	if err := db.QueryRow(`SELECT rootpage FROM sqlite_schema WHERE name = 'games'`).Scan(&root); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`PRAGMA page_size`).Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	db.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	at := (root - 1) * pageSize
	head := make([]byte, 12)
	if _, err := f.ReadAt(head, at); err != nil {
		t.Fatal(err)
	}
	if head[0] != 5 {
		t.Fatalf("page %d, the root of games, is of type %d; want 5, interior", root, head[0])
	}
	// Its cells point past the page.
	cells := binary.BigEndian.Uint16(head[3:5])
	for i := range int64(cells) {
		if _, err := f.WriteAt([]byte{0xff, 0xf0}, at+12+2*i); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()

	var logs []string
	logf := func(format string, args ...any) { logs = append(logs, fmt.Sprintf(format, args...)) }
	// Time enough for the check, even under the race detector.
	s, err = store.Open(path, &store.Options{SweepEvery: -1, Logf: logf, CheckTime: time.Minute})
	if err == nil {
		s.Close()
		t.Fatal("Open of a damaged file succeeded")
	}
	t.Log(err)
	if !errors.Is(err, store.ErrDamaged) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "backup") {
		t.Errorf("Open of a damaged file: %v; want ErrDamaged saying what to do", err)
	}
	// Without the check, it opens: the damage shows only on use.
	s, err = store.Open(path, &store.Options{SweepEvery: -1, Logf: logf, CheckTime: -1})
	if err != nil {
		t.Fatalf("Open without the check: %v", err)
	}
	s.Close()
	if len(logs) > 0 {
		t.Errorf("Open logged %q", logs)
	}
	// A check out of time is logged, and the file used.
	s, err = store.Open(path, &store.Options{SweepEvery: -1, Logf: logf, CheckTime: time.Nanosecond})
	if err != nil {
		t.Fatalf("Open with a check out of time: %v", err)
	}
	s.Close()
	if len(logs) != 1 || !strings.Contains(logs[0], "did not finish") {
		t.Errorf("Open with a check out of time logged %q; want that it did not finish", logs)
	}
}
