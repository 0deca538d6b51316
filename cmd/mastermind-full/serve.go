package main

import (
	"context"
	"fmt"
	"log"
	"net"
	"strings"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/cli"
	"github.com/mastermind-toolkit/mastermind/internal/server"
	"github.com/mastermind-toolkit/mastermind/internal/store"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// The hint solver plays knuth on spaces it scores in well under a second
// whatever the history, the first consistent code on spaces it can still
// enumerate quickly, and auto, which samples, on every larger game the
// server takes.
const (
	hintKnuthMax = 1 << 15 // 8 colours × 5 pegs
	hintFirstMax = 1 << 20
	// hintAutoBudget is auto's time per hint, well under the server's
	// hint timeout.
	hintAutoBudget = time.Second
)

// hintSolver is the strategy behind the web page's hint button. It is an
// mm.ContextStrategy, so that the server's timeout reaches the strategies
// that can stop.
type hintSolver struct{ knuth, first, auto mm.Strategy }

var _ mm.ContextStrategy = hintSolver{}

// newHintSolver returns the strategy behind the web page's hint button.
func newHintSolver() hintSolver {
	knuth, err := strategy.New("knuth", strategy.Options{})
	if err != nil {
		panic(err)
	}
	first, err := strategy.New("first-consistent", strategy.Options{})
	if err != nil {
		panic(err)
	}
	return hintSolver{knuth, first, strategy.Auto{Budget: hintAutoBudget}}
}

// Guess returns the hint for st.
func (h hintSolver) Guess(st *mm.State) (mm.Code, error) {
	return h.GuessContext(context.Background(), st)
}

// GuessContext returns the hint for st, giving up when ctx is done if the
// strategy it plays can.
func (h hintSolver) GuessContext(ctx context.Context, st *mm.State) (mm.Code, error) {
	r := st.Rules()
	switch n := r.Size(); {
	case n <= hintKnuthMax:
		return mm.GuessContext(ctx, h.knuth, st)
	case n <= hintFirstMax:
		return mm.GuessContext(ctx, h.first, st)
	}
	return mm.GuessContext(ctx, h.auto, st)
}

// serve runs the game server until ctx is cancelled, then answers the
// requests under way and returns nil. It listens before it opens the
// database, so that a bad or busy address leaves no database behind.
func serve(ctx context.Context, e *cli.Env, o *cli.ServeOptions) error {
	logger := log.New(e.Stderr, "", log.LstdFlags)
	conns, err := server.ConnLimit(o.MaxConns)
	if err != nil {
		return fmt.Errorf("--max-conns %d: %s", o.MaxConns, strings.TrimPrefix(err.Error(), "mastermind: "))
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	st, err := store.Open(o.DB, &store.Options{Retention: o.Retention, Logf: logger.Printf})
	if err != nil {
		return err
	}
	defer st.Close()
	srv := &server.Server{Store: st, Defaults: o.Defaults, Hint: newHintSolver(), Rate: o.Rate, Burst: o.Burst, Logf: logger.Printf,
		Limits: server.Limits{MaxColors: o.MaxColors, MaxPegs: o.MaxPegs}}
	e.CatchSignals()
	fmt.Fprintf(e.Stdout, "serving on http://%s with games in %s\n", ln.Addr(), o.DB)
	if err := server.Serve(ctx, ln, srv.Handler(), &server.ServeOptions{MaxConns: conns, Logger: logger}); err != nil {
		return cli.Failure(err)
	}
	return st.Close()
}
