package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/server"
	"github.com/mastermind-toolkit/mastermind/internal/store"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// The hint solver plays knuth on spaces it scores in well under a second
// whatever the history, and the first consistent code on spaces it can
// still enumerate quickly.
const (
	hintKnuthMax = 1 << 15 // 8 colours × 5 pegs
	hintMax      = 1 << 20
)

// hintSolver returns the strategy behind the web page's hint button.
func hintSolver() mm.Strategy {
	knuth, err := strategy.New("knuth", strategy.Options{})
	if err != nil {
		panic(err)
	}
	first, err := strategy.New("first-consistent", strategy.Options{})
	if err != nil {
		panic(err)
	}
	return mm.StrategyFunc(func(st *mm.State) (mm.Code, error) {
		r := st.Rules()
		switch n := r.Size(); {
		case n <= hintKnuthMax:
			return knuth.Guess(st)
		case n <= hintMax:
			return first.Guess(st)
		}
		return mm.Code{}, fmt.Errorf("%w: hints cover games of up to %d codes, and %s has %.3g",
			mm.ErrTooLarge, hintMax, r, float64(r.Size()))
	})
}

func newServe(e *env) *cobra.Command {
	var (
		addr, db string
		rate     float64
		burst    int
	)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the game server: a JSON API and a web page to play on",
		Long: `serve runs a Mastermind game server: it holds the secrets and answers
guesses over an HTTP JSON API, and serves a web page to play on at /.
Games are kept in an SQLite file (--db), created on first run; every
acknowledged guess survives a crash. The API is in the README:

  POST /api/games               {"colors":8,"pegs":5,"maxGuesses":35,"timeLimitMs":2000}
  POST /api/games/{id}/guesses  {"guess":"11223"}
  GET  /api/games/{id}          rules, state, history; the secret once over
  GET  /api/games/{id}/hint     the server's solver's next guess
  GET  /api/stats               games played and won, per rules

It stops on an interrupt (Ctrl-C), finishing the requests under way.`,
		Example: `  mastermind serve
  mastermind serve --addr :8080 --db /var/lib/mastermind/games.db
  mastermind client --server http://127.0.0.1:8080 --games 100 --colors 8 --pegs 5 --max-guesses 35 --time-limit 2s`,
		Args: argsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if rate < 0 || burst < 0 {
				return fmt.Errorf("--rate and --burst must not be negative")
			}
			st, err := store.Open(db)
			if err != nil {
				return err
			}
			defer st.Close()
			logger := log.New(e.stderr, "", log.LstdFlags)
			srv := &server.Server{Store: st, Hint: hintSolver(), Rate: rate, Burst: burst, Logf: logger.Printf}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			hs := &http.Server{
				Handler:           srv.Handler(),
				ReadHeaderTimeout: 5 * time.Second,
				ReadTimeout:       10 * time.Second,
				WriteTimeout:      30 * time.Second,
				IdleTimeout:       2 * time.Minute,
				MaxHeaderBytes:    server.MaxBody,
				ErrorLog:          logger,
			}
			fmt.Fprintf(e.stdout, "serving on http://%s with games in %s\n", ln.Addr(), db)
			done := make(chan error, 1)
			go func() { done <- hs.Serve(ln) }()
			select {
			case err := <-done:
				return &failure{err}
			case <-cmd.Context().Done():
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := hs.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
				return &failure{err}
			}
			return st.Close()
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on (:8080 for every interface, port 0 for any free port)")
	f.StringVar(&db, "db", "mastermind.db", "SQLite file that keeps the games; created if missing")
	f.Float64Var(&rate, "rate", 200, "requests per second allowed to one client address (0: no limit)")
	f.IntVar(&burst, "burst", 400, "requests one client may send at once beyond --rate")
	return cmd
}
