package server_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/server"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

var (
	loadGuesses = flag.Int("load.guesses", 2000, "guesses the load test sends (20000 for the figures in BENCHMARKS.md)")
	loadClients = flag.Int("load.clients", 200, "concurrent clients of the load test that guess")
	loadStats   = flag.Int("load.stats", 16, "clients of the load test that call /api/stats all along")
	loadHints   = flag.Int("load.hints", 8, "clients of the load test that ask for hints on 2 × 20 games all along")
	loadFollow  = flag.Bool("load.follow", false, "hint clients play each hint, so that every hint is a new state for the solver")
	loadRate    = flag.Float64("load.rate", 200, "requests per second allowed to each client (serve's default; 0: no limit)")
)

// loadTimeout bounds the load test, whatever its flags.
const loadTimeout = 3 * time.Minute

// TestLoad sends guesses from many concurrent clients over loopback to a
// server on a real SQLite file, four clients to a game, while other
// clients call /api/stats and ask for hints all along, each client from a
// loopback address of its own (127.1.x.y guess, 127.2.0.x call stats,
// 127.3.0.x ask for hints), under the server's rate limit per client. Each
// hint client asks for hints on a 2 × 20 game of its own (first-consistent
// over 2²⁰ codes): over and over on its first state, as a client that
// hammers the endpoint would, or with -load.follow playing each hint, so
// that every hint is a new state for the solver.
//
// It checks that every acknowledged guess is stored once, at the number it
// was given, and nothing else; that stats and hints are answered, or
// refused for the rate (429) or a busy solver (503), nothing else; and it
// reports the throughput of durable guesses and their latency. The figures of BENCHMARKS.md:
//
//	go test ./internal/server -run TestLoad -count=1 -v -args -load.guesses=20000
//	go test ./internal/server -run TestLoad -count=1 -v -args -load.guesses=20000 -load.follow
//	go test ./internal/server -run TestLoad -count=1 -v -args -load.guesses=20000 -load.stats=0 -load.hints=0
func TestLoad(t *testing.T) {
	guesses, clients := *loadGuesses, *loadClients
	if testing.Short() {
		guesses = min(guesses, 400)
	}
	if clients < 1 || guesses < clients || clients > 250*250 || *loadStats > 250 || *loadHints > 250 || *loadStats < 0 || *loadHints < 0 {
		t.Fatalf("-load.clients %d, -load.guesses %d, -load.stats %d, -load.hints %d: want 1 ≤ clients ≤ guesses, and at most 250 stats and hint clients",
			clients, guesses, *loadStats, *loadHints)
	}
	hint, err := strategy.New("first-consistent", strategy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, func(s *server.Server) {
		s.Now, s.Hint, s.Rate, s.Burst = nil, hint, *loadRate, 2*int(*loadRate)
	})
	ctx, cancel := context.WithTimeout(context.Background(), loadTimeout)
	defer cancel()
	// client returns a client whose connections come from addr.
	client := func(addr string) *server.Client {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(addr)}}
		return &server.Client{URL: e.URL, HTTP: &http.Client{Timeout: 30 * time.Second,
			Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 1}}}
	}

	// 10 colours × 8 pegs: 10⁸ codes, so no random guess wins.
	games := max(1, clients/4)
	perGame := (guesses + games - 1) / games
	if perGame > server.DefaultLimits.MaxGuesses {
		t.Fatalf("%d guesses per game; the server allows %d: use more clients", perGame, server.DefaultLimits.MaxGuesses)
	}
	ids, tokens := make([]string, games), make([]string, games)
	for i := range ids {
		g, err := client("127.0.0.1").NewGame(ctx, server.NewGame{Colors: 10, Pegs: 8, MaxGuesses: server.DefaultLimits.MaxGuesses})
		if err != nil {
			t.Fatal(err)
		}
		ids[i], tokens[i] = g.ID, g.Token
	}

	// The clients that load the server until the guesses are done.
	var (
		background               sync.WaitGroup
		stop                     = make(chan struct{})
		stats, hints, hintsReady atomic.Int64
		refused, unavailable     atomic.Int64
	)
	stopped := func() bool {
		select {
		case <-stop:
			return true
		default:
			return false
		}
	}
	// tolerate says whether err is one a loaded server may give: 429 for
	// the rate, 503 for a solver busy or too slow, or the end of the test.
	tolerate := func(err error) bool {
		var ae *server.APIError
		if errors.As(err, &ae) && (ae.Status == http.StatusTooManyRequests || ae.Status == http.StatusServiceUnavailable) {
			if ae.Status == http.StatusTooManyRequests {
				refused.Add(1)
			} else {
				unavailable.Add(1)
			}
			time.Sleep(50 * time.Millisecond)
			return true
		}
		return stopped() && errors.Is(err, context.Canceled)
	}
	bg, stopBg := context.WithCancel(ctx)
	defer stopBg()
	// get sends GET path with token, if any, as a client that hammers
	// an endpoint: it reads the answer but does not decode it, so that
	// the test spends its cores on the server rather than on itself. It
	// returns whether the answer was 200, or an error that tolerate took.
	get := func(c *server.Client, path, token string) (bool, error) {
		req, err := http.NewRequestWithContext(bg, "GET", e.URL+path, nil)
		if err != nil {
			return false, err
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := c.HTTP.Do(req)
		if err != nil {
			return false, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return true, nil
		}
		return false, &server.APIError{Status: resp.StatusCode}
	}
	for i := range *loadStats {
		c := client(fmt.Sprintf("127.2.0.%d", i+1))
		background.Go(func() {
			for !stopped() {
				if ok, err := get(c, "/api/stats", ""); ok {
					stats.Add(1)
				} else if !tolerate(err) {
					t.Errorf("stats client %d: %v", i, err)
					return
				}
			}
		})
	}
	for i := range *loadHints {
		c := client(fmt.Sprintf("127.3.0.%d", i+1))
		background.Go(func() {
			ready := false
			var g *server.Game
			for !stopped() {
				if g == nil {
					var err error
					if g, err = c.NewGame(bg, server.NewGame{Colors: 2, Pegs: 20, MaxGuesses: 100}); err != nil {
						if !tolerate(err) {
							t.Errorf("hint client %d: %v", i, err)
							return
						}
						g = nil
						continue
					}
				}
				if ready && !*loadFollow {
					// The same state, over and over.
					if ok, err := get(c, "/api/games/"+g.ID+"/hint", g.Token); ok {
						hints.Add(1)
					} else if !tolerate(err) {
						t.Errorf("hint client %d: %v", i, err)
						return
					}
					continue
				}
				h, err := c.Hint(bg, g.ID, g.Token)
				if err != nil {
					if !tolerate(err) {
						t.Errorf("hint client %d: %v", i, err)
						return
					}
					continue
				}
				hints.Add(1)
				if !ready {
					ready = true
					hintsReady.Add(1)
				}
				f, err := c.Guess(bg, g.ID, g.Token, h)
				switch {
				case err == nil && f.State == "playing":
				case err == nil:
					g = nil // won or lost: a new game
				case !tolerate(err):
					t.Errorf("hint client %d: playing hint %s: %v", i, h, err)
					return
				}
			}
		})
	}
	// The guesses start once every hint client has had a first hint.
	for hintsReady.Load() < int64(*loadHints) && !t.Failed() && ctx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
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
	stats0, hints0, refused0, unavailable0 := stats.Load(), hints.Load(), refused.Load(), unavailable.Load()
	txs0, reqs0 := e.store.GroupCommits()
	start := time.Now()
	for i := range clients {
		c := client(fmt.Sprintf("127.1.%d.%d", i/250, i%250+1))
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
	nStats, nHints := stats.Load()-stats0, hints.Load()-hints0
	nRefused, nUnavailable := refused.Load()-refused0, unavailable.Load()-unavailable0
	close(stop)
	stopBg()
	background.Wait()
	if ctx.Err() != nil {
		t.Fatalf("the load test took longer than %v", loadTimeout)
	}
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
	t.Logf("meanwhile %d stats clients had %d answers (%.0f/s) and %d hint clients %d hints (%.1f/s); %d requests refused for the rate, %d hints for a busy solver",
		*loadStats, nStats, float64(nStats)/elapsed.Seconds(), *loadHints, nHints, float64(nHints)/elapsed.Seconds(), nRefused, nUnavailable)
}
