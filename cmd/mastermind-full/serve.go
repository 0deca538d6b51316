package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/cli"
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

// serve runs the game server until ctx is cancelled.
func serve(ctx context.Context, e *cli.Env, o *cli.ServeOptions) error {
	st, err := store.Open(o.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	logger := log.New(e.Stderr, "", log.LstdFlags)
	srv := &server.Server{Store: st, Hint: hintSolver(), Rate: o.Rate, Burst: o.Burst, Logf: logger.Printf}
	ln, err := net.Listen("tcp", o.Addr)
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
	fmt.Fprintf(e.Stdout, "serving on http://%s with games in %s\n", ln.Addr(), o.DB)
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return cli.Failure(err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return cli.Failure(err)
	}
	return st.Close()
}
