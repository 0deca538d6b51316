package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/server"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// BenchmarkLoad measures durable guesses a second, and their latency, from
// 50 clients guessing on 10 × 8 games of their own over loopback, each
// from an address of its own, under serve's default rate limit (200
// requests a second, bursts of 400), while other clients do what issue 31
// found to stall the guesses:
//
//   - quiet: nothing else, the rate to compare with;
//   - hints: 8 clients each asking for hints on a 10 × 8 game of its own
//     and playing them, so that every hint is a new state for the solver
//     (auto, 200 ms a hint, as serve's on that size);
//   - adversary: one client guessing 1111 over and over on a 16 × 4
//     adversary game of up to 1000 guesses, as fast as its rate lets it;
//   - assist: 10 clients sending /api/assist 1000 answers over 2²⁰ codes
//     (14 s of work) and hanging up after 100 ms, every 2 s;
//   - stats: 16 clients reading /api/stats as fast as they are answered,
//     429s included (issue 46);
//   - hints-retry: 8 clients hinting as in hints, that send again at once
//     when refused (429 or 503) instead of waiting for Retry-After (issue
//     46).
//
// One op is one durable guess. The figures of issue 31:
//
//	go test ./internal/server -run '^$' -bench BenchmarkLoad -benchtime 10000x -count 3
func BenchmarkLoad(b *testing.B) {
	for _, tt := range []struct {
		name string
		load func(ctx context.Context, e *env, client func(addr string) *server.Client, helped *atomic.Int64)
	}{
		{"quiet", nil},
		{"hints", loadHinters},
		{"adversary", loadAdversary},
		{"assist", loadAssist},
		{"stats", loadStatsReaders},
		{"hints-retry", loadHintersRetrying},
	} {
		b.Run(tt.name, func(b *testing.B) { benchLoad(b, tt.load) })
	}
}

// benchLoad sends b.N guesses from 50 clients while load, if not nil,
// loads the server, and reports their rate and latency.
func benchLoad(b *testing.B, load func(ctx context.Context, e *env, client func(addr string) *server.Client, helped *atomic.Int64)) {
	const clients = 50
	e := newEnv(b, func(s *server.Server) {
		s.Now, s.Hint, s.Rate, s.Burst, s.Logf = nil, strategy.Auto{Budget: 200 * time.Millisecond}, 200, 400, func(string, ...any) {}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	client := func(addr string) *server.Client {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(addr)}}
		return &server.Client{URL: e.URL, HTTP: &http.Client{Timeout: time.Minute,
			Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 1}}}
	}
	var background sync.WaitGroup
	bg, stopBg := context.WithCancel(ctx)
	var helped atomic.Int64 // the load's requests answered
	if load != nil {
		background.Go(func() { load(bg, e, client, &helped) })
		time.Sleep(time.Second) // the load under way
	}
	var (
		left = atomic.Int64{}
		mu   sync.Mutex
		lat  []time.Duration
		wg   sync.WaitGroup
	)
	left.Store(int64(b.N))
	helped0, unavailable0, refused0 := helped.Load(), loadUnavailable.Load(), loadRefused.Load()
	b.ResetTimer()
	start := time.Now()
	for i := range clients {
		c := client(fmt.Sprintf("127.1.0.%d", i+1))
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i), 9))
			var g *server.Game
			var mine []time.Duration
			for left.Add(-1) >= 0 {
				if g == nil {
					var err error
					if g, err = c.NewGame(ctx, server.NewGame{Colors: 10, Pegs: 8, MaxGuesses: 1000}); err != nil {
						b.Error(err)
						return
					}
				}
				guess := make([]byte, 8)
				for j := range guess {
					guess[j] = mm.DefaultSymbols[rng.IntN(10)]
				}
				t0 := time.Now()
				f, err := c.Guess(ctx, g.ID, g.Token, string(guess))
				if err != nil {
					b.Error(err)
					return
				}
				mine = append(mine, time.Since(t0))
				if f.State != "playing" {
					g = nil
				}
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	n, n503, refused := helped.Load()-helped0, loadUnavailable.Load()-unavailable0, loadRefused.Load()-refused0
	stopBg()
	background.Wait()
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "guesses/s")
	b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(n)/elapsed.Seconds(), "load-answers/s")
	b.ReportMetric(float64(n503)/elapsed.Seconds(), "load-503/s")
	if refused > 0 {
		b.ReportMetric(float64(refused)/elapsed.Seconds(), "load-refused/s")
	}
}

// loadUnavailable counts the 503s that the load's clients were answered:
// for hints, those the solver gave up as too long or busy.
var loadUnavailable atomic.Int64

// loadRefused counts the requests of the load's clients refused, of those
// that count them: what asking again at once costs the server.
var loadRefused atomic.Int64

// tolerated says whether err is one that a loaded server may give the
// load's clients: 429, 503 (counted in loadUnavailable), or the end of the
// benchmark; it sleeps a little after the first two.
func tolerated(ctx context.Context, err error) bool {
	var ae *server.APIError
	if errors.As(err, &ae) && (ae.Status == http.StatusTooManyRequests || ae.Status == http.StatusServiceUnavailable) {
		if ae.Status == http.StatusServiceUnavailable {
			loadUnavailable.Add(1)
		}
		time.Sleep(50 * time.Millisecond)
		return true
	}
	return ctx.Err() != nil
}

// loadHinters runs 8 clients that each ask for a hint on a 10 × 8 game of
// its own and play it, until ctx is done; they wait as server.Client does
// when refused 429 (up to 5 times, 50 ms doubling), and 50 ms on 503.
func loadHinters(ctx context.Context, e *env, client func(string) *server.Client, helped *atomic.Int64) {
	hinters(ctx, client, helped, false)
}

// loadHintersRetrying is loadHinters with clients that ask again at once
// when refused, 429 or 503.
func loadHintersRetrying(ctx context.Context, e *env, client func(string) *server.Client, helped *atomic.Int64) {
	hinters(ctx, client, helped, true)
}

// hinters runs 8 clients that each ask for a hint on a 10 × 8 game of its
// own and play it, until ctx is done, asking again at once when refused if
// atOnce.
func hinters(ctx context.Context, client func(string) *server.Client, helped *atomic.Int64, atOnce bool) {
	tolerated := tolerated
	hint := func(c *server.Client, g *server.Game) (string, error) { return c.Hint(ctx, g.ID, g.Token) }
	if atOnce {
		tolerated = func(ctx context.Context, err error) bool {
			var ae *server.APIError
			if errors.As(err, &ae) && ae.Status == http.StatusServiceUnavailable {
				loadUnavailable.Add(1)
			}
			loadRefused.Add(1)
			return true
		}
		hint = func(c *server.Client, g *server.Game) (string, error) {
			var h server.Hint
			err := getOnce(ctx, c, "/api/games/"+g.ID+"/hint", g.Token, &h)
			return h.Guess, err
		}
	}
	var wg sync.WaitGroup
	for i := range 8 {
		c := client(fmt.Sprintf("127.3.0.%d", i+1))
		wg.Go(func() {
			var g *server.Game
			for ctx.Err() == nil {
				if g == nil {
					var err error
					if g, err = c.NewGame(ctx, server.NewGame{Colors: 10, Pegs: 8, MaxGuesses: 100}); err != nil {
						g = nil
						tolerated(ctx, err)
						continue
					}
				}
				h, err := hint(c, g)
				if err != nil {
					tolerated(ctx, err)
					continue
				}
				helped.Add(1)
				if f, err := c.Guess(ctx, g.ID, g.Token, h); err == nil && f.State != "playing" {
					g = nil
				} else if err != nil {
					tolerated(ctx, err)
				}
			}
		})
	}
	wg.Wait()
}

// loadAdversary runs one client that guesses 1111 over and over on 16 × 4
// adversary games of 1000 guesses, until ctx is done.
func loadAdversary(ctx context.Context, e *env, client func(string) *server.Client, helped *atomic.Int64) {
	c := client("127.4.0.1")
	var g *server.Game
	for ctx.Err() == nil {
		if g == nil {
			var err error
			if g, err = c.NewGame(ctx, server.NewGame{Colors: 16, Pegs: 4, MaxGuesses: 1000, Adversary: true}); err != nil {
				g = nil
				tolerated(ctx, err)
				continue
			}
		}
		f, err := c.Guess(ctx, g.ID, g.Token, "1111")
		if err != nil {
			tolerated(ctx, err)
			continue
		}
		helped.Add(1)
		if f.State != "playing" {
			g = nil
		}
	}
}

// loadAssist runs 10 clients that send POST /api/assist 1000 answers over
// 2²⁰ codes and hang up after 100 ms, every 2 s until ctx is done.
func loadAssist(ctx context.Context, e *env, client func(string) *server.Client, helped *atomic.Int64) {
	history := strings.Repeat(`{"guess":"11111111111111111111","black":10,"white":0},`, 1000)
	body := `{"colors":2,"pegs":20,"history":[` + history[:len(history)-1] + `]}`
	var wg sync.WaitGroup
	for i := range 10 {
		c := client(fmt.Sprintf("127.5.0.%d", i+1))
		wg.Go(func() {
			for ctx.Err() == nil {
				rctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
				req, err := http.NewRequestWithContext(rctx, "POST", e.URL+"/api/assist", strings.NewReader(body))
				if err != nil {
					cancel()
					return
				}
				req.Header.Set("Content-Type", "application/json")
				if resp, err := c.HTTP.Do(req); err == nil {
					helped.Add(1)
					resp.Body.Close()
				}
				cancel()
				select {
				case <-time.After(2 * time.Second):
				case <-ctx.Done():
				}
			}
		})
	}
	wg.Wait()
}

// getOnce sends one GET request for path, with token if not empty, and
// decodes the answer into out; a refusal is an *server.APIError, never
// sent again.
func getOnce(ctx context.Context, c *server.Client, path, token string, out any) error {
	req, err := http.NewRequestWithContext(ctx, "GET", c.URL+path, nil)
	if err != nil {
		return err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var e server.Error
		json.NewDecoder(resp.Body).Decode(&e)
		return &server.APIError{Status: resp.StatusCode, Message: e.Error}
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// loadStatsReaders runs 16 clients that read /api/stats as fast as they are
// answered, asking again at once when refused, until ctx is done.
func loadStatsReaders(ctx context.Context, e *env, client func(string) *server.Client, helped *atomic.Int64) {
	var wg sync.WaitGroup
	for i := range 16 {
		c := client(fmt.Sprintf("127.2.0.%d", i+1))
		wg.Go(func() {
			var s server.Stats
			for ctx.Err() == nil {
				if err := getOnce(ctx, c, "/api/stats", "", &s); err == nil {
					helped.Add(1)
				} else if ctx.Err() == nil {
					loadRefused.Add(1)
				}
			}
		})
	}
	wg.Wait()
}
