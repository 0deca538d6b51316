package store_test

import (
	"database/sql"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/store"
)

var benchGames = flag.Int("bench.games", 1_000_000, "games stored for BenchmarkStats")

// BenchmarkStats reads the statistics of a database of -bench.games games
// (a million by default) of 30 variants: first with 1 111 of them past
// their deadline and not yet recorded by the sweep, then with none. The
// target is under 5 ms:
//
//	go test ./internal/store -run XXX -bench Stats -benchtime 200x
func BenchmarkStats(b *testing.B) {
	start := time.Now()
	path := storedDB(b, *benchGames,
		// Games of 30 variants: a third won in 5 guesses, a third lost,
		// a third in play, of which one in 300 is past its deadline.
		`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
		INSERT INTO games (id, colors, pegs, distinct_, max_guesses, time_limit_ms, deadline_ms, secret, created_ms, status, guesses, ended_ms)
		SELECT printf('g%08d', i), 6 + i % 10, 4 + i % 3, 0, 10,
			CASE WHEN i % 900 = 2 THEN 1000 ELSE 0 END,
			CASE WHEN i % 900 = 2 THEN 1795000001000 ELSE NULL END,
			'1111', 1795000000000,
			CASE i % 3 WHEN 0 THEN 'won' WHEN 1 THEN 'lost' ELSE 'playing' END,
			CASE i % 3 WHEN 0 THEN 5 ELSE 0 END,
			CASE WHEN i % 3 < 2 THEN 1795000000000 + i ELSE NULL END
		FROM n`,
		`INSERT INTO stats (colors, pegs, distinct_, played, won, lost, won_guesses)
		SELECT colors, pegs, distinct_, COUNT(*), SUM(status = 'won'), SUM(status = 'lost'), 5 * SUM(status = 'won')
		FROM games GROUP BY colors, pegs, distinct_`)
	b.Logf("%d games stored in %.1f s", *benchGames, time.Since(start).Seconds())
	s, err := store.Open(path, noSweep)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	now := time.UnixMilli(1795000002000)
	stats, err := s.Stats(ctx, now)
	if err != nil {
		b.Fatal(err)
	}
	played, lost := 0, 0
	for _, st := range stats {
		played += st.Played
		lost += st.Lost
	}
	if played != *benchGames || len(stats) != 30 {
		b.Fatalf("Stats counts %d games of %d variants; want %d of 30", played, len(stats), *benchGames)
	}
	b.Run("unrecorded=1111", func(b *testing.B) { benchStats(b, s, now) })
	if sw, err := s.Sweep(ctx, now); err != nil || sw.Expired != lost-*benchGames/3 {
		b.Fatalf("Sweep = %+v, %v; want %d expired", sw, err, lost-*benchGames/3)
	}
	b.Run("unrecorded=0", func(b *testing.B) { benchStats(b, s, now) })
}

func benchStats(b *testing.B, s *store.Store, now time.Time) {
	for b.Loop() {
		if _, err := s.Stats(ctx, now); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAdversaryGuess is issue 31's adversary: a guess of 1111 at turn
// 500 of a 16 × 4 adversary game (65,536 codes), durable. It filtered
// every code through every turn in the writer, about a second a guess:
//
//	go test ./internal/store -run XXX -bench AdversaryGuess -benchtime 200x
func BenchmarkAdversaryGuess(b *testing.B) {
	s, _ := openStore(b)
	r := mm.Rules{Colors: 16, Pegs: 4}
	c := code(b, r, "1111")
	games := 0
	start := func() string {
		games++
		id := fmt.Sprintf("adv%d", games)
		g := &mm.Game{ID: id, Rules: r, Secret: c, MaxGuesses: 1000, Created: t0, Adversary: true}
		if err := s.CreateGame(ctx, g, nil); err != nil {
			b.Fatal(err)
		}
		for range 500 {
			if _, _, _, err := s.Play(ctx, id, nil, c, t0); err != nil {
				b.Fatal(err)
			}
		}
		return id
	}
	id, turns := start(), 500
	b.ResetTimer()
	for range b.N {
		if turns == 999 {
			b.StopTimer()
			id, turns = start(), 500
			b.StartTimer()
		}
		if _, _, _, err := s.Play(ctx, id, nil, c, t0); err != nil {
			b.Fatal(err)
		}
		turns++
	}
}

// storedDB makes a store's database in a temporary directory and fills it
// directly with queries, without the store, fast: a query that starts
// with WITH gets n as its one argument.
func storedDB(b *testing.B, n int, queries ...string) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "games.db")
	s, err := store.Open(path, noSweep)
	if err != nil {
		b.Fatal(err)
	}
	s.Close()
	db, err := sql.Open("sqlite", path+"?_pragma=journal_mode(WAL)&_pragma=synchronous(OFF)")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	for _, q := range queries {
		var args []any
		if strings.HasPrefix(q, "WITH") {
			args = append(args, n)
		}
		if _, err := db.Exec(q, args...); err != nil {
			b.Fatal(err)
		}
	}
	return path
}

var benchAdvTurns = flag.Int("bench.advturns", 300, "turns played in each game of BenchmarkAdversaryGames")

// BenchmarkAdversaryGames is issue 46's adversary: many 16 × 4 adversary
// games at turn 300 (-bench.advturns), each with 11⁴ codes left, guessed
// on in turn, durable, each game guessed once before the timer starts.
// 200 games' codes fit in memory; 4,000 do not (before, 135 did: every
// guess worked its game's codes out again, 185 ms a guess), and have them
// read back. A guess should cost about the same at either count; rss-MB
// and heap-MB are the process's memory at the end, the heap after a
// collection:
//
//	go test ./internal/store -run XXX -bench AdversaryGames -benchtime 2000x
func BenchmarkAdversaryGames(b *testing.B) {
	for _, games := range []int{200, 4000} {
		var s *store.Store // kept from the first run to the next
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) {
			if s == nil {
				s = adversaryGames(b, games)
			}
			benchAdversaryGames(b, s, games)
		})
		if s != nil {
			s.Close()
		}
	}
}

// adversaryGames returns a store of games adversary games of 16 × 4 at
// turn -bench.advturns, each guessed on once since it was opened.
func adversaryGames(b *testing.B, games int) *store.Store {
	start := time.Now()
	r := mm.Rules{Colors: 16, Pegs: 4}
	// The turns: 1111 to 5555, then codes of colours 1 to 5, each answered
	// 0 0.
	var turns []string
	for _, c := range []string{"1111", "2222", "3333", "4444", "5555"} {
		turns = append(turns, c)
	}
	for i := 0; len(turns) < *benchAdvTurns && i < 625; i++ {
		turns = append(turns, string([]byte{'1' + byte(i/125), '1' + byte(i/25%5), '1' + byte(i/5%5), '1' + byte(i%5)}))
	}
	// An adversary answers each 0 0: the codes without colours 1 to 5 are
	// the largest class of each.
	sp, err := mm.SpaceOf(r)
	if err != nil {
		b.Fatal(err)
	}
	left := sp.All()
	for _, t := range turns {
		if left, err = left.Filter(code(b, r, t), mm.Feedback{}); err != nil {
			b.Fatal(err)
		}
	}
	if left.Len() != 11*11*11*11 {
		b.Fatalf("%d codes left; want 11⁴", left.Len())
	}
	var values []string
	for i, t := range turns {
		values = append(values, fmt.Sprintf("(%d, '%s')", i+1, t))
	}
	path := storedDB(b, games,
		`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
		INSERT INTO games (id, colors, pegs, distinct_, max_guesses, time_limit_ms, secret, created_ms, adversary)
		SELECT printf('adv%05d', i), 16, 4, 0, 2000, 0, '1111', 1795000000000, 1 FROM n`,
		`CREATE TEMP TABLE turns (n INTEGER, guess TEXT)`,
		`INSERT INTO turns VALUES `+strings.Join(values, ", "),
		`INSERT INTO guesses (game_id, n, guess, black, white, at_ms)
		SELECT games.id, turns.n, turns.guess, 0, 0, 1795000000000 FROM games, turns`,
		fmt.Sprintf(`INSERT INTO adversary_codes (game_id, turns, codes) SELECT id, %d, x'%x' FROM games`,
			len(turns), store.CodesOf(left)))
	s, err := store.Open(path, noSweep)
	if err != nil {
		b.Fatal(err)
	}
	// Each game guessed on once, 16 at a time.
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 1))
			for i := w; i < games; i += 16 {
				if _, _, _, err := s.Play(ctx, fmt.Sprintf("adv%05d", i), nil, mm.RandomCode(r, rng), t0); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.Logf("%d games of %d turns stored and guessed on in %.1f s", games, len(turns), time.Since(start).Seconds())
	return s
}

func benchAdversaryGames(b *testing.B, s *store.Store, games int) {
	r := mm.Rules{Colors: 16, Pegs: 4}
	rng := rand.New(rand.NewPCG(1, 2))
	b.ResetTimer()
	for i := range b.N {
		id := fmt.Sprintf("adv%05d", i%games)
		if _, _, _, err := s.Play(ctx, id, nil, mm.RandomCode(r, rng), t0); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	b.ReportMetric(float64(m.HeapAlloc)/(1<<20), "heap-MB")
	if status, err := os.ReadFile("/proc/self/status"); err == nil {
		for line := range strings.Lines(string(status)) {
			var kb float64
			if _, err := fmt.Sscanf(line, "VmRSS: %f kB", &kb); err == nil {
				b.ReportMetric(kb/1024, "rss-MB")
			}
		}
	}
}
