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
	// hintAutoBudget is auto's time per hint: at 200 ms a hint on 10 × 8
	// to 35 × 20 took 0.15-0.8 s of solver on the 2-core machine under
	// load, where 1 s took 0.4-2.6 s (2.3 s on 10 × 8 in issue 46), more
	// than a person's share of the solver (server.DefaultHintShare)
	// covers. A hint is a suggestion, not a record: a sample a fifth the
	// size plays about as well.
	hintAutoBudget = 200 * time.Millisecond
)

// assistStrategies are the strategies that the assistant (POST
// /api/assist) offers besides the hint solver: those that bound their
// cost and stop at the server's timeout, not optimal or deep, whose
// searches take minutes and gigabytes on boards the server takes.
var assistStrategies = []string{"knuth", "expected-size", "entropy", "most-parts", "first-consistent",
	"random-consistent", "sampler", "split", "fit", "auto"}

// newStrategy returns the named strategy as the server plays it, with
// hintAutoBudget a guess where it samples.
func newStrategy(name string) (mm.Strategy, error) {
	return strategy.New(name, strategy.Options{Budget: hintAutoBudget})
}

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
	srv := &server.Server{Store: st, Defaults: o.Defaults, Rate: o.Rate, Burst: o.Burst, Logf: logger.Printf,
		Limits:    server.Limits{MaxColors: o.MaxColors, MaxPegs: o.MaxPegs},
		HintShare: o.HintShare, HintBurst: o.HintBurst, MaxAdversary: o.MaxAdversary}
	if err := serveHints(srv, o.HintStrategy); err != nil {
		return err
	}
	e.CatchSignals()
	fmt.Fprintf(e.Stdout, "serving on http://%s with games in %s\n", ln.Addr(), o.DB)
	if err := server.Serve(ctx, ln, srv.Handler(), &server.ServeOptions{MaxConns: conns, Logger: logger}); err != nil {
		return cli.Failure(err)
	}
	return st.Close()
}

// serveHints sets the hint solver of srv, named as --hint-strategy names
// it, and the assistant's strategies; "none" leaves the server without.
func serveHints(srv *server.Server, name string) error {
	switch name {
	case "none":
		return nil
	case "tiered", "":
		srv.Hint = newHintSolver()
	default:
		s, err := newStrategy(name)
		if err != nil {
			return err
		}
		srv.Hint = s
	}
	srv.Strategies = make(map[string]mm.Strategy)
	for _, n := range assistStrategies {
		s, err := newStrategy(n)
		if err != nil {
			return err
		}
		srv.Strategies[n] = s
	}
	return nil
}
