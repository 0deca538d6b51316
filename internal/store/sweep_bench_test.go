package store_test

import (
	"context"
	"flag"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/store"
)

var (
	benchExpired  = flag.Int("bench.expired", 300_000, "games past their deadline for BenchmarkStatsExpired and BenchmarkSweepLoad")
	benchGuessers = flag.Int("bench.guessers", 50, "concurrent players of BenchmarkSweepLoad")
)

// expiredDB returns a database of n games of 10 variants, all in play and
// past their deadline at t0 + 2 s, written directly, as a server that was
// stopped for a while leaves them.
func expiredDB(b *testing.B, n int) string {
	b.Helper()
	return storedDB(b, n,
		`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
		INSERT INTO games (id, colors, pegs, distinct_, max_guesses, time_limit_ms, deadline_ms, secret, created_ms)
		SELECT printf('x%08d', i), 6 + i % 10, 4, 0, 10, 1000, 1795000001000 - i % 1000, '1111', 1795000000000 - i % 1000 FROM n`,
		`INSERT INTO stats (colors, pegs, distinct_, played) SELECT colors, pegs, distinct_, COUNT(*) FROM games GROUP BY 1, 2, 3`)
}

// BenchmarkStatsExpired reads the statistics of a database of
// -bench.expired games (300 000 by default) all past their deadline and
// not yet recorded by the sweep, as after a restart or a burst of timed
// games:
//
//	go test ./internal/store -run XXX -bench StatsExpired -benchtime 20x
func BenchmarkStatsExpired(b *testing.B) {
	path := expiredDB(b, *benchExpired)
	for _, check := range []time.Duration{-1, 0} {
		start := time.Now()
		s, err := store.Open(path, &store.Options{SweepEvery: -1, CheckTime: check})
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("Open with CheckTime %v took %v", check, time.Since(start).Round(time.Millisecond))
		s.Close()
	}
	s, err := store.Open(path, noSweep)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	now := t0.Add(2 * time.Second)
	stats, err := s.Stats(ctx, now)
	if err != nil {
		b.Fatal(err)
	}
	lost := 0
	for _, st := range stats {
		lost += st.Lost
	}
	if lost != *benchExpired {
		b.Fatalf("Stats counts %d lost; want %d", lost, *benchExpired)
	}
	benchStats(b, s, now)
}

// BenchmarkSweepLoad measures what a sweep of -bench.expired expired games
// costs the players: -bench.guessers players (50 by default) guess as fast
// as the store answers, for 3 s with no sweep, then while the sweep records
// the expired games, then 3 s with no sweep again. It reports the guesses
// a second without a sweep (the mean of before and after) and during it,
// their ratio (1 is no cost), and the sweep's duration:
//
//	go test ./internal/store -run XXX -bench SweepLoad -benchtime 1x -args -bench.expired 20000
func BenchmarkSweepLoad(b *testing.B) {
	for b.Loop() {
		path := expiredDB(b, *benchExpired)
		s, err := store.Open(path, noSweep)
		if err != nil {
			b.Fatal(err)
		}
		idle, busy, took := sweepLoad(b, s)
		s.Close()
		b.ReportMetric(idle, "guesses/s-idle")
		b.ReportMetric(busy, "guesses/s-sweeping")
		b.ReportMetric(busy/idle, "ratio")
		b.ReportMetric(took.Seconds(), "sweep-s")
	}
}

// sweepLoad runs the players of BenchmarkSweepLoad on s and returns their
// guesses a second without and with a sweep, and the sweep's duration.
func sweepLoad(b *testing.B, s *store.Store) (idle, busy float64, took time.Duration) {
	// 10 colours × 8 pegs; the secret has the tenth colour, which no
	// guess has.
	r := mm.Rules{Colors: 10, Pegs: 8}
	secret := code(b, r, "AAAAAAAA")
	guesses := make([]mm.Code, 729)
	for i := range guesses {
		guesses[i] = code(b, r, fmt.Sprintf("11111%d%d%d", 1+i/81, 1+i/9%9, 1+i%9))
	}
	var (
		played atomic.Int64
		stop   = make(chan struct{})
		wg     sync.WaitGroup
	)
	now := t0.Add(2 * time.Second)
	for p := range *benchGuessers {
		wg.Go(func() {
			for n := 0; ; n++ {
				id := fmt.Sprintf("p%d-%d", p, n)
				g := &mm.Game{ID: id, Rules: r, Secret: secret, MaxGuesses: len(guesses), Created: now}
				if err := s.CreateGame(ctx, g, nil); err != nil {
					b.Error(err)
					return
				}
				for i := range guesses {
					select {
					case <-stop:
						return
					default:
					}
					if _, err := s.Guess(ctx, id, nil, guesses[i], now); err != nil {
						b.Error(err)
						return
					}
					played.Add(1)
				}
			}
		})
	}
	rate := func(d time.Duration, during func()) float64 {
		start, n := time.Now(), played.Load()
		if during != nil {
			during()
		} else {
			time.Sleep(d)
		}
		return float64(played.Load()-n) / time.Since(start).Seconds()
	}
	time.Sleep(500 * time.Millisecond) // warm up
	before := rate(3*time.Second, nil)
	busy = rate(0, func() {
		start := time.Now()
		sw, err := s.Sweep(context.Background(), now)
		took = time.Since(start)
		if err != nil || sw.Expired != *benchExpired {
			b.Errorf("Sweep = %+v, %v; want %d expired", sw, err, *benchExpired)
		}
	})
	// The rate without a sweep is measured before and after it, so that
	// a drift of the machine's load, or of the store's, counts on both
	// sides.
	idle = (before + rate(3*time.Second, nil)) / 2
	close(stop)
	wg.Wait()
	return idle, busy, took
}
