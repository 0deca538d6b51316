package store_test

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/store"
)

const day = 24 * time.Hour

// The sweep records games lost to the clock once, and deletes the games
// idle for longer than the retention, whose results still count.
func TestSweep(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	s, err := store.Open(path, &store.Options{Retention: 30 * day, SweepEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	big := mm.Rules{Colors: 8, Pegs: 5}
	newGame(t, s, "won", mm.Classic, "1111", 0, 0)
	newGame(t, s, "timed", mm.Classic, "1111", 0, time.Minute)
	newGame(t, s, "idle", big, "11111", 0, 0)
	newGame(t, s, "active", big, "11111", 0, 0)
	newGame(t, s, "lately", mm.Classic, "1111", 0, 0)
	mustGuess := func(id, c string, at time.Time) {
		t.Helper()
		if _, err := guess(t, s, id, c, at); err != nil {
			t.Fatalf("Guess(%s, %s): %v", id, c, err)
		}
	}
	mustGuess("won", "1112", t0)
	mustGuess("won", "1111", t0.Add(time.Second))
	mustGuess("idle", "12345", t0)
	mustGuess("active", "12345", t0.Add(29*day))
	mustGuess("lately", "1112", t0.Add(10*day))
	mustGuess("lately", "1111", t0.Add(10*day)) // ended 10 days after t0
	want := []mm.GameStats{
		{Rules: mm.Classic, Played: 3, Won: 2, Lost: 1, WonGuesses: 4},
		{Rules: big, Played: 2},
	}
	checkStats := func(at time.Time, want []mm.GameStats) {
		t.Helper()
		got, err := s.Stats(ctx, at)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("Stats at %v = %+v; want %+v", at.Sub(t0), got, want)
		}
	}
	checkStats(t0.Add(2*time.Minute), want)

	// At 2 minutes: "timed" is recorded lost, and nothing is old enough
	// to go.
	sw, err := s.Sweep(ctx, t0.Add(2*time.Minute))
	if err != nil || sw.Expired != 1 || sw.Deleted != 0 {
		t.Fatalf("Sweep at 2 min = %+v, %v; want 1 expired, 0 deleted", sw, err)
	}
	checkStats(t0.Add(2*time.Minute), want)
	if g, err := s.Game(ctx, "timed", nil); err != nil || g.Status != mm.Lost || !g.Ended.Equal(t0.Add(time.Minute)) {
		t.Errorf("Game(timed) = %+v, %v; want lost at its deadline", g, err)
	}
	// A late guess on it is refused, and not counted again.
	if _, err := guess(t, s, "timed", "1111", t0.Add(3*time.Minute)); !errors.Is(err, mm.ErrGameOver) {
		t.Errorf("guess on a swept game: %v; want ErrGameOver", err)
	}
	checkStats(t0.Add(3*time.Minute), want)

	// At 31 days: "won" and "timed" ended, and "idle" was last played, more
	// than 30 days before; "active" was played 2 days ago and "lately"
	// ended 21 days ago. The idle game counts as lost.
	sw, err = s.Sweep(ctx, t0.Add(31*day))
	if err != nil || sw.Expired != 0 || sw.Deleted != 3 {
		t.Fatalf("Sweep at 31 days = %+v, %v; want 3 deleted", sw, err)
	}
	want[1].Lost = 1
	checkStats(t0.Add(31*day), want)
	for id, err := range map[string]error{"won": mm.ErrUnknownGame, "timed": mm.ErrUnknownGame, "idle": mm.ErrUnknownGame, "active": nil, "lately": nil} {
		if _, got := s.Game(ctx, id, nil); !errors.Is(got, err) || (err == nil && got != nil) {
			t.Errorf("Game(%s) after the sweep: %v; want %v", id, got, err)
		}
	}
	// The writer forgets the deleted game it had in memory.
	if _, err := guess(t, s, "idle", "11111", t0.Add(31*day)); !errors.Is(err, mm.ErrUnknownGame) {
		t.Errorf("guess on a deleted game: %v; want ErrUnknownGame", err)
	}
	mustGuess("active", "11111", t0.Add(31*day))
	want[1].Won, want[1].WonGuesses = 1, 2
	checkStats(t0.Add(31*day), want)

	// No retention: nothing is deleted.
	s2, _ := openStore(t)
	newGame(t, s2, "old", mm.Classic, "1111", 0, 0)
	if sw, err := s2.Sweep(ctx, t0.Add(1000*day)); err != nil || sw != (store.Swept{}) {
		t.Errorf("Sweep without retention = %+v, %v; want nothing done", sw, err)
	}
}

// The background sweep runs on its own clock and period.
func TestSweepInBackground(t *testing.T) {
	now := t0.Add(time.Hour)
	s, err := store.Open(filepath.Join(t.TempDir(), "games.db"), &store.Options{
		SweepEvery: 10 * time.Millisecond, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	newGame(t, s, "g", mm.Classic, "1111", 0, time.Second)
	deadline := time.Now().Add(20 * time.Second)
	for {
		g, err := s.Game(ctx, "g", nil)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status == mm.Lost {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the background sweep did not record the game lost within 20 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Deleting old games gives the space back: the file shrinks, and a
// server that keeps creating and deleting games keeps a bounded file.
func TestFileBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes some megabytes")
	}
	path := filepath.Join(t.TempDir(), "games.db")
	s, err := store.Open(path, &store.Options{Retention: day, SweepEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	size := func() int64 {
		t.Helper()
		var n int64
		for _, suffix := range []string{"", "-wal"} {
			if fi, err := os.Stat(path + suffix); err == nil {
				n += fi.Size()
			}
		}
		return n
	}
	const rounds, games, turns = 3, 200, 12
	r := mm.Rules{Colors: 10, Pegs: 8}
	checkpoint(t, path)
	empty := size()
	for round := range rounds {
		at := t0.Add(time.Duration(round) * 2 * day)
		var wg sync.WaitGroup
		for i := range games {
			id := fmt.Sprintf("r%dg%d", round, i)
			wg.Go(func() { // concurrent games share transactions
				g := &mm.Game{ID: id, Rules: r, Secret: code(t, r, "99999999"), Created: t0}
				if err := s.CreateGame(ctx, g, nil); err != nil {
					t.Error(err)
					return
				}
				for j := range turns {
					if _, err := guess(t, s, id, fmt.Sprintf("1111%c%c11", mm.DefaultSymbols[j%9], mm.DefaultSymbols[j/9]), at); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		checkpoint(t, path)
		full := size()
		sw, err := s.Sweep(ctx, at.Add(day+time.Hour))
		if err != nil || sw.Deleted != games {
			t.Fatalf("round %d: Sweep = %+v, %v; want %d deleted", round, sw, err, games)
		}
		if round == 0 && sw.Pages == 0 {
			t.Errorf("round 0: Sweep gave no pages back: %+v", sw)
		}
		checkpoint(t, path)
		after := size()
		if full < 2*empty || after > empty+8192 {
			t.Errorf("round %d: %d bytes with the games, %d after the sweep; want at least twice and at most 8 KiB more than the empty file's %d",
				round, full, after, empty)
		}
		t.Logf("round %d: %d bytes with %d games, %d after the sweep", round, full, games, after)
	}
	stats, err := s.Stats(ctx, t0.Add(100*day))
	if err != nil || len(stats) != 1 || stats[0].Played != rounds*games || stats[0].Lost != rounds*games {
		t.Errorf("Stats = %+v, %v; want %d played and lost", stats, err, rounds*games)
	}
}

// checkpoint copies the WAL into the database file and truncates it, as
// SQLite does by itself now and then, so that file sizes can be compared.
// checkpoint copies the write-ahead log of the database at path into it
// and truncates the log, trying again while a connection of the store
// keeps it busy (it then reports busy rather than wait), for up to 10 s.
func checkpoint(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var busy, log, moved int
		if err := db.QueryRow("PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &log, &moved); err != nil {
			t.Fatal(err)
		}
		if busy == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("wal_checkpoint(TRUNCATE) still busy after 10 s (%d frames in the log, %d moved)", log, moved)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Closing a store in the middle of its background sweep stops the sweep
// quietly: a sweep cut short by Close is not an error to log.
func TestCloseDuringSweep(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	s, err := store.Open(path, noSweep)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 2000 { // more than one step of a sweep
		wg.Go(func() {
			g := &mm.Game{ID: fmt.Sprint(i), Rules: mm.Classic, Secret: code(t, mm.Classic, "1234"), TimeLimit: time.Second, Created: t0}
			if err := s.CreateGame(ctx, g, nil); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	s.Close()
	for i := range 20 {
		var (
			mu   sync.Mutex
			logs []string
		)
		s, err := store.Open(path, &store.Options{SweepEvery: time.Hour, Now: func() time.Time { return t0.Add(time.Hour) }, CheckTime: -1,
			Logf: func(format string, args ...any) {
				mu.Lock()
				logs = append(logs, fmt.Sprintf(format, args...))
				mu.Unlock()
			}})
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(i) * time.Millisecond)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		if len(logs) > 0 {
			t.Fatalf("Close %d ms after Open logged %q", i, logs)
		}
		mu.Unlock()
	}
}
