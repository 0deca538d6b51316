package server_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/server"
)

func TestClient(t *testing.T) {
	e := newEnv(t, nil)
	c := &server.Client{URL: e.URL + "/", HTTP: e.Client()}
	ctx := context.Background()
	distinct := true
	for _, req := range []server.NewGame{{}, {Colors: 8, Pegs: 5, MaxGuesses: 35, TimeLimitMs: 60_000}, {Colors: 7, Pegs: 4, Distinct: &distinct}} {
		res, err := c.Play(ctx, req, firstConsistent, nil)
		if err != nil {
			t.Fatalf("Play(%+v): %v", req, err)
		}
		if res.Status != mm.Won || res.Secret != e.secret(t, res.ID) || res.Guesses < 1 {
			t.Errorf("Play(%+v) = %+v; want won with the secret", req, res)
		}
		g, err := c.Game(ctx, res.ID)
		if err != nil || g.Guesses != res.Guesses {
			t.Errorf("Game(%s) = %+v, %v; want %d guesses", res.ID, g, err, res.Guesses)
		}
	}
	// A game lost to the guess limit is a result, not an error.
	res, err := c.Play(ctx, server.NewGame{Colors: 8, Pegs: 5, MaxGuesses: 1}, firstConsistent, nil)
	if err != nil || (res.Status != mm.Lost && res.Guesses != 1) || res.Secret == "" {
		t.Errorf("Play with one guess = %+v, %v; want lost after 1 guess, with the secret", res, err)
	}
	// A game lost to the clock too.
	g, err := c.NewGame(ctx, server.NewGame{TimeLimitMs: 1000})
	if err != nil {
		t.Fatal(err)
	}
	e.clock.Add(2 * time.Second)
	_, err = c.Guess(ctx, g.ID, g.Token, "1234")
	if !errors.Is(err, mm.ErrGameOver) || !strings.Contains(err.Error(), "409 Conflict: time is up") {
		t.Errorf("late Guess: %v; want a 409 that is ErrGameOver", err)
	}
	if _, err := c.Game(ctx, "nope"); !errors.Is(err, mm.ErrUnknownGame) {
		t.Errorf("Game(nope): %v; want ErrUnknownGame", err)
	}
	if _, err := c.Guess(ctx, g.ID, g.Token, "12"); !errors.Is(err, mm.ErrGameOver) {
		t.Errorf("Guess on a game out of time: %v; want ErrGameOver", err)
	}
	if h, err := c.Hint(ctx, "nope", g.Token); err == nil {
		t.Errorf("Hint(nope) = %q; want an error", h)
	}
	if s, err := c.Stats(ctx); err != nil || s.Played != 5 {
		t.Errorf("Stats() = %+v, %v; want 5 played", s, err)
	}
	bad := &server.Client{URL: "http://127.0.0.1:1"}
	if _, err := bad.Stats(ctx); err == nil {
		t.Error("Stats() from a closed port succeeded")
	}
}

// The client waits and retries when the server says 429.
func TestClientRetries(t *testing.T) {
	e := newEnv(t, func(s *server.Server) { s.Rate, s.Burst, s.Now = 1000, 1, nil })
	c := &server.Client{URL: e.URL, HTTP: e.Client()}
	for range 5 {
		if _, err := c.Stats(context.Background()); err != nil {
			t.Fatalf("Stats with retries: %v", err)
		}
	}
}
