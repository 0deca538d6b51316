package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"sync"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/cli"
	"github.com/mastermind-toolkit/mastermind/internal/server"
)

// playGames plays o.Games games, o.Workers at a time, and returns their
// outcomes in the order the games were numbered. The first error stops
// the run. A server that cannot be reached, or answers the first request
// with 404 or refuses the rules, is bad input (exit status 2); errors once
// games are under way are failures (status 1).
func playGames(ctx context.Context, o *cli.ClientOptions, s mm.Strategy, done func()) ([]cli.ClientGame, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = max(tr.MaxIdleConnsPerHost, o.Workers)
	c := &server.Client{URL: o.Server, HTTP: &http.Client{Timeout: time.Minute, Transport: tr}}
	req := server.NewGame{Colors: o.Rules.Colors, Pegs: o.Rules.Pegs, Distinct: &o.Rules.Distinct,
		MaxGuesses: o.MaxGuesses, TimeLimitMs: o.TimeLimit.Milliseconds()}
	// One game first: it tells a server that is not there, or not this
	// API, from a failure during play.
	first, err := c.Play(ctx, req, s, rand.New(rand.NewPCG(o.Seed, 0)))
	if err != nil {
		return nil, startError(o.Server, err)
	}
	done()
	results := make([]cli.ClientGame, o.Games)
	results[0] = outcome(first)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan int)
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	for range min(o.Workers, o.Games-1) {
		wg.Go(func() {
			for i := range next {
				res, err := c.Play(ctx, req, s, rand.New(rand.NewPCG(o.Seed, uint64(i))))
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("game %d: %w", i+1, err)
					cancel()
				}
				if err == nil {
					results[i] = outcome(res)
					done()
				}
				mu.Unlock()
			}
		})
	}
feed:
	for i := 1; i < o.Games; i++ {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if firstErr == nil && ctx.Err() != nil {
		firstErr = ctx.Err()
	}
	if firstErr != nil {
		return nil, cli.Failure(firstErr)
	}
	return results, nil
}

// outcome converts a game's result.
func outcome(r *server.Result) cli.ClientGame {
	return cli.ClientGame{ID: r.ID, Won: r.Status == mm.Won, Guesses: r.Guesses, Elapsed: r.Elapsed,
		MaxGuesses: r.MaxGuesses, TimeLimit: r.TimeLimit,
		OutOfTime: r.Status != mm.Won && (r.MaxGuesses == 0 || r.Guesses < r.MaxGuesses)}
}

// startError says why the first game could not be played: bad input
// (status 2) when the server is not there or does not take the request,
// a failure otherwise.
func startError(url string, err error) error {
	var api *server.APIError
	var dns *net.DNSError
	var op *net.OpError
	switch {
	case errors.Is(err, context.Canceled):
		return cli.Failure(err)
	case errors.As(err, &dns):
		return fmt.Errorf("--server %s: unknown host %s", url, dns.Name)
	case errors.As(err, &op):
		return fmt.Errorf("--server %s: cannot connect: %v", url, op.Err)
	case errors.As(err, &api) && api.Status == http.StatusNotFound:
		return fmt.Errorf("--server %s: no mastermind API there (404 for %s/api/games)", url, url)
	case errors.As(err, &api) && api.Status >= 400 && api.Status < 500:
		return fmt.Errorf("--server %s refused the game: %w", url, err)
	}
	return cli.Failure(err)
}
