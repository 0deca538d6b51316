package store_test

import (
	"context"
	"flag"
	"fmt"
	"slices"
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
// their ratio (1 is no cost), the sweep's duration, and the 99th
// percentile of a guess's time without a sweep and during it (the goal:
// 50 ms):
//
//	go test ./internal/store -run XXX -bench SweepLoad -benchtime 1x -args -bench.expired 20000
func BenchmarkSweepLoad(b *testing.B) {
	for b.Loop() {
		path := expiredDB(b, *benchExpired)
		s, err := store.Open(path, noSweep)
		if err != nil {
			b.Fatal(err)
		}
		l := sweepLoad(b, s)
		s.Close()
		b.ReportMetric(l.idle, "guesses/s-idle")
		b.ReportMetric(l.busy, "guesses/s-sweeping")
		b.ReportMetric(l.busy/l.idle, "ratio")
		b.ReportMetric(l.took.Seconds(), "sweep-s")
		b.ReportMetric(l.p99Idle, "p99-ms-idle")
		b.ReportMetric(l.p99Busy, "p99-ms-sweeping")
	}
}

// A sweepLoadResult is what sweepLoad measured: guesses a second without
// and with a sweep, the sweep's duration, and the 99th percentile of a
// guess's time, in milliseconds, without and with a sweep.
type sweepLoadResult struct {
	idle, busy       float64
	took             time.Duration
	p99Idle, p99Busy float64
}

// sweepLoad runs the players of BenchmarkSweepLoad on s.
func sweepLoad(b *testing.B, s *store.Store) (l sweepLoadResult) {
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
		// The times of the guesses, by phase: 0 warming up, 1 without a
		// sweep, 2 during it, 3 after it.
		mu     sync.Mutex
		phase  int
		byPart [4][]time.Duration
	)
	setPhase := func(p int) {
		mu.Lock()
		phase = p
		mu.Unlock()
	}
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
					start := time.Now()
					if _, _, _, err := s.Play(ctx, id, nil, guesses[i], now); err != nil {
						b.Error(err)
						return
					}
					took := time.Since(start)
					mu.Lock()
					byPart[phase] = append(byPart[phase], took)
					mu.Unlock()
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
	setPhase(1)
	before := rate(3*time.Second, nil)
	setPhase(2)
	l.busy = rate(0, func() {
		start := time.Now()
		sw, err := s.Sweep(context.Background(), now)
		l.took = time.Since(start)
		if err != nil || sw.Expired != *benchExpired {
			b.Errorf("Sweep = %+v, %v; want %d expired", sw, err, *benchExpired)
		}
	})
	// The rate without a sweep is measured before and after it, so that
	// a drift of the machine's load, or of the store's, counts on both
	// sides.
	setPhase(3)
	l.idle = (before + rate(3*time.Second, nil)) / 2
	close(stop)
	wg.Wait()
	l.p99Idle = p99(append(byPart[1], byPart[3]...))
	l.p99Busy = p99(byPart[2])
	return l
}

// p99 returns the 99th percentile of ds in milliseconds.
func p99(ds []time.Duration) float64 {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return float64(ds[len(ds)*99/100]) / float64(time.Millisecond)
}
