package store_test

import (
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/store"
)

// A database of schema version 1 (no owners, no counters, no incremental
// vacuum) is upgraded: the counters are filled from the games it holds,
// the file is converted to incremental vacuum, and its games, which have
// no owner, take any token.
func TestMigrateFromVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	db, err := sql.Open("sqlite", path+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	schema, err := os.ReadFile("migrations/001_games.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{string(schema), "PRAGMA user_version = 1", `INSERT INTO games
		(id, colors, pegs, distinct_, max_guesses, time_limit_ms, deadline_ms, secret, created_ms, status, guesses, ended_ms) VALUES
		('w1', 6, 4, 0, 10, 0, NULL, '1111', 1000, 'won', 3, 2000),
		('w2', 6, 4, 0, 10, 0, NULL, '1111', 1000, 'won', 5, 2000),
		('l1', 6, 4, 0, 1, 0, NULL, '1111', 1000, 'lost', 1, 2000),
		('p1', 8, 5, 1, 10, 0, NULL, '12345', 1000, 'playing', 0, NULL)`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	s, err := store.Open(path, noSweep)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.Stats(ctx, t0)
	if err != nil {
		t.Fatal(err)
	}
	want := []mm.GameStats{
		{Rules: mm.Classic, Played: 3, Won: 2, Lost: 1, WonGuesses: 8},
		{Rules: mm.Rules{Colors: 8, Pegs: 5, Distinct: true}, Played: 1},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Stats after the upgrade = %+v; want %+v", got, want)
	}
	g, err := s.Guess(ctx, "p1", []byte("any token"), code(t, want[1].Rules, "12345"), t0)
	if err != nil || g.Status != mm.Won {
		t.Errorf("guess on a game from before owners = %+v, %v; want won", g, err)
	}
	if got, _ := s.Stats(ctx, t0); got[1].Won != 1 {
		t.Errorf("Stats after winning p1 = %+v; want it won", got[1])
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var mode, version int
	if err := db.QueryRow("PRAGMA auto_vacuum").Scan(&mode); err != nil || mode != 2 {
		t.Errorf("auto_vacuum = %d, %v; want 2 (incremental)", mode, err)
	}
	if err := db.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != 4 {
		t.Errorf("user_version = %d, %v; want 4", version, err)
	}
}
