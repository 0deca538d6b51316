package server_test

import (
	"context"
	"flag"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/server"
)

var (
	loadGuesses = flag.Int("load.guesses", 2000, "guesses the load test sends (20000 for the figures in BENCHMARKS.md)")
	loadClients = flag.Int("load.clients", 200, "concurrent clients of the load test")
)

// TestLoad sends guesses from many concurrent clients over loopback to a
// server on a real SQLite file, four clients to a game, and checks that
// every acknowledged guess is stored once, at the number it was given, and
// that nothing else is. It reports the throughput of durable guesses and
// the latency percentiles. The full run of BENCHMARKS.md:
//
//	go test ./internal/server -run TestLoad -count=1 -v -args -load.guesses=20000 -load.clients=200
func TestLoad(t *testing.T) {
	guesses, clients := *loadGuesses, *loadClients
	if testing.Short() {
		guesses = min(guesses, 400)
	}
	if clients < 1 || guesses < clients {
		t.Fatalf("-load.clients %d and -load.guesses %d: want 1 ≤ clients ≤ guesses", clients, guesses)
	}
	e := newEnv(t, func(s *server.Server) { s.Now = nil })
	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	c := &server.Client{URL: e.URL, HTTP: hc}
	ctx := context.Background()

	// 10 colours × 8 pegs: 10⁸ codes, so no random guess wins.
	games := max(1, clients/4)
	perGame := (guesses + games - 1) / games
	if perGame > server.DefaultLimits.MaxGuesses {
		t.Fatalf("%d guesses per game; the server allows %d: use more clients", perGame, server.DefaultLimits.MaxGuesses)
	}
	ids, tokens := make([]string, games), make([]string, games)
	for i := range ids {
		g, err := c.NewGame(ctx, server.NewGame{Colors: 10, Pegs: 8, MaxGuesses: server.DefaultLimits.MaxGuesses})
		if err != nil {
			t.Fatal(err)
		}
		ids[i], tokens[i] = g.ID, g.Token
	}

	type sent struct {
		game, guess string
		n           int
		took        time.Duration
	}
	var (
		mu   sync.Mutex
		acks []sent
		wg   sync.WaitGroup
	)
	txs0, reqs0 := e.store.GroupCommits()
	start := time.Now()
	for i := range clients {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			id, token := ids[i%games], tokens[i%games]
			mine := guesses / clients
			if i < guesses%clients {
				mine++
			}
			local := make([]sent, 0, mine)
			for range mine {
				b := make([]byte, 8)
				for j := range b {
					b[j] = mm.DefaultSymbols[rng.IntN(10)]
				}
				t0 := time.Now()
				f, err := c.Guess(ctx, id, token, string(b))
				if err != nil {
					t.Errorf("client %d: %v", i, err)
					return
				}
				local = append(local, sent{id, string(b), f.Guesses, time.Since(t0)})
			}
			mu.Lock()
			acks = append(acks, local...)
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	txs1, reqs1 := e.store.GroupCommits()
	if t.Failed() {
		return
	}

	// Every acknowledged guess is stored once, at its number, and nothing
	// else is.
	byGame := map[string][]sent{}
	for _, a := range acks {
		byGame[a.game] = append(byGame[a.game], a)
	}
	for _, id := range ids {
		g, err := e.store.Game(ctx, id, nil)
		if err != nil {
			t.Fatal(err)
		}
		mine := byGame[id]
		if len(g.Turns) != len(mine) {
			t.Errorf("game %s stores %d guesses; %d were acknowledged", id, len(g.Turns), len(mine))
		}
		seen := make([]bool, len(g.Turns)+1)
		for _, a := range mine {
			switch {
			case a.n < 1 || a.n > len(g.Turns):
				t.Errorf("game %s: acknowledged guess %d is missing", id, a.n)
			case seen[a.n]:
				t.Errorf("game %s: guess number %d acknowledged twice", id, a.n)
			case g.Turns[a.n-1].Guess.String() != a.guess:
				t.Errorf("game %s: guess %d is %s; acknowledged %s", id, a.n, g.Turns[a.n-1].Guess, a.guess)
			}
			if a.n >= 1 && a.n < len(seen) {
				seen[a.n] = true
			}
		}
	}

	lat := make([]time.Duration, len(acks))
	for i, a := range acks {
		lat[i] = a.took
	}
	slices.Sort(lat)
	pct := func(p float64) time.Duration { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
	txs, reqs := txs1-txs0, reqs1-reqs0
	t.Logf("%d guesses from %d clients on %d games in %.2f s: %.0f durable guesses/s; latency p50 %v, p99 %v, max %v; %d transactions, %.1f requests each",
		len(acks), clients, games, elapsed.Seconds(), float64(len(acks))/elapsed.Seconds(),
		pct(0.50).Round(10*time.Microsecond), pct(0.99).Round(10*time.Microsecond), lat[len(lat)-1].Round(10*time.Microsecond),
		txs, float64(reqs)/float64(max(txs, 1)))
}
