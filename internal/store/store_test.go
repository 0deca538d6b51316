package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/store"
)

var (
	ctx = context.Background()
	t0  = time.UnixMilli(1_795_000_000_000) // 2026-11-18
	// noSweep opens stores without the background sweep, whose clock
	// would not be the tests' t0.
	noSweep = &store.Options{SweepEvery: -1}
)

// openStore opens a store on a new file in a temporary directory and
// closes it at the end of the test.
func openStore(t testing.TB) (*store.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "games.db")
	s, err := store.Open(path, noSweep)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func code(t testing.TB, r mm.Rules, s string) mm.Code {
	t.Helper()
	c, err := r.ParseCode(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func newGame(t testing.TB, s *store.Store, id string, r mm.Rules, secret string, max int, limit time.Duration) *mm.Game {
	t.Helper()
	g := &mm.Game{ID: id, Rules: r, Secret: code(t, r, secret), MaxGuesses: max, TimeLimit: limit, Created: t0}
	if err := s.CreateGame(ctx, g, nil); err != nil {
		t.Fatalf("CreateGame(%s): %v", id, err)
	}
	return g
}

func guess(t testing.TB, s *store.Store, id, c string, at time.Time) (*mm.Game, error) {
	t.Helper()
	c2, err := mm.DefaultAlphabet.Parse(mm.Rules{Colors: 35, Pegs: len(c)}, c)
	if err != nil {
		t.Fatal(err)
	}
	return s.Guess(ctx, id, nil, c2, at)
}

func TestCreateAndRead(t *testing.T) {
	s, _ := openStore(t)
	r := mm.Rules{Colors: 8, Pegs: 5, Distinct: true}
	want := newGame(t, s, "a", r, "12345", 35, 2*time.Second)
	got, err := s.Game(ctx, "a", nil)
	if err != nil {
		t.Fatalf("Game(a): %v", err)
	}
	if got.Rules != r || got.Secret != want.Secret || got.MaxGuesses != 35 || got.TimeLimit != 2*time.Second ||
		!got.Created.Equal(t0) || got.Status != mm.Playing || len(got.Turns) != 0 || !got.Ended.IsZero() {
		t.Errorf("Game(a) = %+v; want %+v", got, want)
	}
	if _, err := s.Game(ctx, "b", nil); !errors.Is(err, mm.ErrUnknownGame) {
		t.Errorf("Game(b) error = %v; want ErrUnknownGame", err)
	}
	if err := s.CreateGame(ctx, want, nil); err == nil {
		t.Error("creating game a twice succeeded")
	}
	for _, bad := range []*mm.Game{
		{Rules: r, Secret: want.Secret},
		{ID: "c", Rules: r, Secret: code(t, mm.Classic, "1234")},
		{ID: "d", Rules: mm.Rules{Colors: 1, Pegs: 4}, Secret: code(t, mm.Classic, "1111")},
		{ID: "e", Rules: r, Secret: want.Secret, Status: mm.Won},
		{ID: "f", Rules: r, Secret: want.Secret, MaxGuesses: -1},
	} {
		if err := s.CreateGame(ctx, bad, nil); err == nil {
			t.Errorf("CreateGame(%+v) succeeded", bad)
		}
	}
}

func TestGuessToTheEnd(t *testing.T) {
	s, path := openStore(t)
	newGame(t, s, "g", mm.Classic, "3632", 10, 0)
	steps := []struct {
		guess  string
		err    error
		turns  int
		status mm.GameStatus
	}{
		{"1122", nil, 1, mm.Playing},
		{"112", mm.ErrInvalidCode, 1, mm.Playing},
		{"1127", mm.ErrInvalidCode, 1, mm.Playing},
		{"1344", nil, 2, mm.Playing},
		{"3632", nil, 3, mm.Won},
		{"3632", mm.ErrGameOver, 3, mm.Won},
	}
	for _, st := range steps {
		g, err := guess(t, s, "g", st.guess, t0.Add(time.Second))
		if !errors.Is(err, st.err) || (st.err == nil && err != nil) {
			t.Fatalf("Guess(%s) error = %v; want %v", st.guess, err, st.err)
		}
		if err != nil {
			continue
		}
		if len(g.Turns) != st.turns || g.Status != st.status {
			t.Errorf("Guess(%s) = %d turns, %v; want %d, %v", st.guess, len(g.Turns), g.Status, st.turns, st.status)
		}
	}
	if _, err := guess(t, s, "nope", "1122", t0); !errors.Is(err, mm.ErrUnknownGame) {
		t.Errorf("Guess on an unknown game: %v; want ErrUnknownGame", err)
	}
	// The game as read back, and again after reopening the file.
	check := func(s *store.Store) {
		t.Helper()
		g, err := s.Game(ctx, "g", nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, tu := range g.Turns {
			got = append(got, fmt.Sprintf("%s %v", tu.Guess, tu.Feedback))
		}
		want := []string{"1122 1 0", "1344 0 1", "3632 4 0"}
		if !slices.Equal(got, want) || g.Status != mm.Won || !g.Ended.Equal(t0.Add(time.Second)) {
			t.Errorf("Game(g) = %v, %v, ended %v; want %v, won, ended %v", got, g.Status, g.Ended, want, t0.Add(time.Second))
		}
	}
	check(s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := store.Open(path, noSweep)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	check(s2)
}

func TestTimeUp(t *testing.T) {
	s, path := openStore(t)
	newGame(t, s, "g", mm.Classic, "3632", 10, 2*time.Second)
	newGame(t, s, "h", mm.Classic, "3632", 10, 2*time.Second)
	if _, err := guess(t, s, "g", "1122", t0.Add(2*time.Second)); err != nil {
		t.Fatalf("guess on the deadline: %v", err)
	}
	g, err := guess(t, s, "g", "3632", t0.Add(2*time.Second+time.Millisecond))
	if !errors.Is(err, mm.ErrTimeUp) {
		t.Fatalf("guess after the deadline: %v; want ErrTimeUp", err)
	}
	if g == nil || g.Status != mm.Lost || len(g.Turns) != 1 {
		t.Fatalf("game after time up = %+v; want lost with 1 turn", g)
	}
	s.Close()
	s, err = store.Open(path, noSweep)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if g, err := s.Game(ctx, "g", nil); err != nil || g.Status != mm.Lost || !g.Ended.Equal(t0.Add(2*time.Second)) {
		t.Errorf("Game(g) after reopening = %+v, %v; want lost at the deadline", g, err)
	}
	if _, err := guess(t, s, "g", "3632", t0); !errors.Is(err, mm.ErrGameOver) {
		t.Errorf("guess on a lost game: %v; want ErrGameOver", err)
	}
	// h never recorded its time-out, but the statistics count it lost.
	stats, err := s.Stats(ctx, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	want := []mm.GameStats{{Rules: mm.Classic, Played: 2, Lost: 2}}
	if !slices.Equal(stats, want) {
		t.Errorf("Stats = %+v; want %+v", stats, want)
	}
}

func TestStats(t *testing.T) {
	s, _ := openStore(t)
	big := mm.Rules{Colors: 8, Pegs: 5}
	newGame(t, s, "a", mm.Classic, "1111", 0, 0)
	newGame(t, s, "b", mm.Classic, "1112", 0, 0)
	newGame(t, s, "c", mm.Classic, "1113", 1, 0)
	newGame(t, s, "d", big, "11111", 0, 0)
	for _, g := range []struct{ id, guess string }{{"a", "1111"}, {"b", "1111"}, {"b", "1112"}, {"c", "1111"}} {
		if _, err := guess(t, s, g.id, g.guess, t0); err != nil {
			t.Fatal(err)
		}
	}
	stats, err := s.Stats(ctx, t0)
	if err != nil {
		t.Fatal(err)
	}
	want := []mm.GameStats{
		{Rules: mm.Classic, Played: 3, Won: 2, Lost: 1, WonGuesses: 3},
		{Rules: big, Played: 1},
	}
	if !slices.Equal(stats, want) {
		t.Errorf("Stats = %+v; want %+v", stats, want)
	}
}

// Concurrent guesses on one game are each counted once, with numbers 1 to
// n, and share transactions; also with a cache too small to hold the game,
// which is then read from the file for every batch.
func TestConcurrentGuesses(t *testing.T) {
	for _, cache := range []int64{0, 1} {
		t.Run(fmt.Sprintf("cache=%d", cache), func(t *testing.T) {
			s, err := store.Open(filepath.Join(t.TempDir(), "games.db"), &store.Options{CacheBytes: cache, SweepEvery: -1})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			concurrentGuesses(t, s)
		})
	}
}

func concurrentGuesses(t *testing.T, s *store.Store) {
	r := mm.Rules{Colors: 9, Pegs: 8}
	newGame(t, s, "g", r, "99999999", 0, 0)
	const workers, each = 16, 40
	var (
		mu   sync.Mutex
		nums []int
		wg   sync.WaitGroup
	)
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				g, err := guess(t, s, "g", fmt.Sprintf("%d%d%d11111", w%9+1, i/9%9+1, i%9+1), t0)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				nums = append(nums, len(g.Turns))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	slices.Sort(nums)
	for i, n := range nums {
		if n != i+1 {
			t.Fatalf("guess numbers %v…; want 1 to %d each once", nums[:i+1], workers*each)
		}
	}
	g, err := s.Game(ctx, "g", nil)
	if err != nil || len(g.Turns) != workers*each {
		t.Fatalf("Game(g) = %d turns, %v; want %d", len(g.Turns), err, workers*each)
	}
	txs, reqs := s.GroupCommits()
	t.Logf("%d requests in %d transactions", reqs, txs)
	if txs >= reqs {
		t.Errorf("%d requests took %d transactions; want fewer: no group commit", reqs, txs)
	}
}

func TestClosed(t *testing.T) {
	s, _ := openStore(t)
	newGame(t, s, "g", mm.Classic, "1234", 0, 0)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := guess(t, s, "g", "1111", t0); !errors.Is(err, store.ErrClosed) {
		t.Errorf("Guess after Close: %v; want ErrClosed", err)
	}
	if _, err := s.Game(ctx, "g", nil); !errors.Is(err, store.ErrClosed) {
		t.Errorf("Game after Close: %v; want ErrClosed", err)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"", ":memory:", filepath.Join(dir, "a?b"), filepath.Join(dir, "missing", "x.db")} {
		if s, err := store.Open(p, noSweep); err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", p)
		}
	}
	// A database from a newer program is refused, not damaged.
	path := filepath.Join(dir, "newer.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if s, err := store.Open(path, noSweep); err == nil {
		s.Close()
		t.Error("Open of a schema version 99 database succeeded")
	}
}

func Example() {
	dir, _ := os.MkdirTemp("", "store")
	defer os.RemoveAll(dir)
	s, err := store.Open(filepath.Join(dir, "games.db"), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()

	r := mm.Classic
	secret, _ := r.ParseCode("3632")
	now := time.Now()
	s.CreateGame(context.Background(), &mm.Game{ID: "g1", Rules: r, Secret: secret, MaxGuesses: 10, Created: now}, nil)
	for _, text := range []string{"1122", "3632"} {
		c, _ := r.ParseCode(text)
		g, err := s.Guess(context.Background(), "g1", nil, c, now)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(text, g.Turns[len(g.Turns)-1].Feedback, g.Status)
	}
	// Output:
	// 1122 1 0 playing
	// 3632 4 0 won
}

// One store per file: a second Open of the same database fails at once,
// in this process as in another, until the first store is closed.
func TestLocked(t *testing.T) {
	a, path := openStore(t)
	newGame(t, a, "g", mm.Classic, "6666", 0, 0)
	b, err := store.Open(path, noSweep)
	if err == nil {
		b.Close()
		t.Fatal("a second Open of the same database succeeded")
	}
	if !errors.Is(err, store.ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("process %d", os.Getpid())) ||
		!strings.Contains(err.Error(), path) {
		t.Errorf("second Open: %v; want ErrLocked naming the file and process %d", err, os.Getpid())
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	b, err = store.Open(path, noSweep)
	if err != nil {
		t.Fatalf("Open after the first store closed: %v", err)
	}
	defer b.Close()
	if g, err := b.Game(ctx, "g", nil); err != nil || g.Secret.String() != "6666" {
		t.Errorf("Game(g) = %v, %v", g, err)
	}
}

// TestAdversaryGame stores a game whose codemaker holds no code: the
// answers are the adversary's, and the flag survives a reopening.
func TestAdversaryGame(t *testing.T) {
	s, path := openStore(t)
	g := &mm.Game{ID: "adv", Rules: mm.Classic, Secret: code(t, mm.Classic, "1111"), MaxGuesses: 10, Created: t0, Adversary: true}
	if err := s.CreateGame(ctx, g, nil); err != nil {
		t.Fatal(err)
	}
	// 1111 is the placeholder secret: an adversary never gives the win
	// to it while other codes remain.
	got, err := guess(t, s, "adv", "1111", t0)
	if err != nil {
		t.Fatal(err)
	}
	if f := got.Turns[0].Feedback; f != (mm.Feedback{}) {
		t.Errorf("1111 against the adversary got %v; want 0 0 (625 codes kept)", f)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := store.Open(path, noSweep)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	back, err := s2.Game(ctx, "adv", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Adversary || len(back.Turns) != 1 {
		t.Errorf("reopened: adversary %v, %d turns; want true, 1", back.Adversary, len(back.Turns))
	}
}

// Every path to a database meets the same lock: a second Open through a
// symbolic link, or (on Linux) a hard link, in another directory or
// beside the file, fails with ErrLocked, and works once the first store
// is closed.
func TestLockedThroughLinks(t *testing.T) {
	a, path := openStore(t)
	newGame(t, a, "g", mm.Classic, "6666", 0, 0)
	other := t.TempDir()
	links := map[string]func(old, new string) error{
		filepath.Join(other, "symlink.db"):              os.Symlink,
		filepath.Join(filepath.Dir(path), "symlink.db"): os.Symlink,
	}
	if runtime.GOOS == "linux" {
		links[filepath.Join(other, "hardlink.db")] = os.Link
		links[filepath.Join(filepath.Dir(path), "hardlink.db")] = os.Link
	}
	for link, makeLink := range links {
		if err := makeLink(path, link); err != nil {
			t.Fatal(err)
		}
		b, err := store.Open(link, noSweep)
		if err == nil {
			b.Close()
			t.Errorf("Open(%s), a link to an open database, succeeded", link)
			continue
		}
		if !errors.Is(err, store.ErrLocked) || !strings.Contains(err.Error(), link) {
			t.Errorf("Open(%s): %v; want ErrLocked naming the path", link, err)
		}
		if runtime.GOOS == "linux" && !strings.Contains(err.Error(), fmt.Sprintf("process %d", os.Getpid())) {
			t.Errorf("Open(%s): %v; want the holder, process %d", link, err, os.Getpid())
		}
		// A refused start leaves no lock file of its own behind.
		if _, err := os.Lstat(link + ".lock"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Open(%s) refused left %s.lock: %v", link, link, err)
		}
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	for link := range links {
		b, err := store.Open(link, noSweep)
		if err != nil {
			t.Fatalf("Open(%s) after the first store closed: %v", link, err)
		}
		if g, err := b.Game(ctx, "g", nil); err != nil || g.Secret.String() != "6666" {
			t.Errorf("Game(g) through %s = %v, %v", link, g, err)
		}
		b.Close()
	}
}

// A store closed right after Open leaves no connection behind: another
// connection, without a busy timeout, writes to the file at once.
func TestReopenAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	for i := range 20 {
		s, err := store.Open(path, noSweep)
		if err != nil {
			t.Fatalf("Open %d: %v", i, err)
		}
		s.Close()
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = db.Exec(`INSERT INTO stats (colors, pegs, distinct_) VALUES (?, 4, 0)`, i+2)
		db.Close()
		if err != nil {
			t.Fatalf("writing after Close %d: %v", i, err)
		}
	}
}
