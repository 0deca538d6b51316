package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mastermind-toolkit/mastermind/internal/server"
)

// One address may have MaxAdversary adversary games in play at once, and
// is refused another with 429, saying what to do; a game stops counting
// when a guess ends it, when its time is up, and once it has gone
// AdversaryIdle without a guess. Issue 46: one address held hundreds of
// adversary games, played in turn.
func TestMaxAdversary(t *testing.T) {
	e := newEnv(t, func(s *server.Server) { s.MaxAdversary = 3 })
	ctx := context.Background()
	a, b := fromAddr(e, "127.8.0.1"), fromAddr(e, "127.8.0.2")
	// create asks for a game from c and returns it, or the status,
	// Retry-After and error of its refusal.
	create := func(c *server.Client, body string) (g *server.Game, status int, retry, msg string) {
		t.Helper()
		resp, err := c.HTTP.Post(e.URL+"/api/games", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode == http.StatusCreated {
			g = new(server.Game)
			if err := json.NewDecoder(resp.Body).Decode(g); err != nil {
				t.Fatal(err)
			}
			return g, resp.StatusCode, "", ""
		}
		var out server.Error
		json.NewDecoder(resp.Body).Decode(&out)
		return nil, resp.StatusCode, resp.Header.Get("Retry-After"), out.Error
	}
	mustCreate := func(c *server.Client, body, why string) *server.Game {
		t.Helper()
		g, status, _, msg := create(c, body)
		if g == nil {
			t.Fatalf("%s: %d %s; want 201", why, status, msg)
		}
		return g
	}
	refused := func(c *server.Client, why string, wantRetry time.Duration) {
		t.Helper()
		g, status, retry, msg := create(c, `{"adversary":true}`)
		if g != nil {
			t.Fatalf("%s: a new adversary game was created; want 429", why)
		}
		if want := fmt.Sprint(int(math.Ceil(wantRetry.Seconds()))); status != http.StatusTooManyRequests || retry != want ||
			!strings.Contains(msg, "3 adversary games in play") || !strings.Contains(msg, "finish one") {
			t.Errorf("%s: %d, Retry-After %q, %q; want 429, Retry-After %s, naming the 3 games and what to do", why, status, retry, msg, want)
		}
	}

	short := mustCreate(a, `{"adversary":true,"maxGuesses":1}`, "first game")
	timed := mustCreate(a, `{"adversary":true,"timeLimitMs":60000}`, "second game")
	long := mustCreate(a, `{"adversary":true}`, "third game")
	refused(a, "a fourth game", time.Minute) // when the timed game's time is up
	mustCreate(a, `{}`, "a game that is not an adversary")
	other := mustCreate(b, `{"adversary":true}`, "another address's game")

	// A guess that ends a game frees its place.
	if f, err := a.Guess(ctx, short.ID, short.Token, "1234"); err != nil || f.State != "lost" {
		t.Fatalf("the one guess of a game of 1: %+v, %v; want lost", f, err)
	}
	mustCreate(a, `{"adversary":true}`, "a game after one ended")
	refused(a, "another", time.Minute)

	// So does the time limit, without a guess to record it.
	e.clock.Add(time.Minute + time.Millisecond)
	mustCreate(a, `{"adversary":true}`, "a game after one ran out of time")
	if _, err := a.Guess(ctx, timed.ID, timed.Token, "1234"); err == nil {
		t.Fatal("a guess after the time limit was taken")
	}

	// And an idle game: long and the game after short go idle together,
	// AdversaryIdle after they were created.
	e.clock.Add(server.AdversaryIdle - time.Minute - time.Millisecond - time.Second)
	refused(a, "another a second before two go idle", time.Second)
	e.clock.Add(time.Second)
	mustCreate(a, `{"adversary":true}`, "a game after two went idle")
	mustCreate(a, `{"adversary":true}`, "a second game after two went idle")
	refused(a, "another", time.Minute+time.Millisecond) // when the game after the timed one idles
	// An idle game may still be played, but no longer counts.
	if _, err := a.Guess(ctx, long.ID, long.Token, "1234"); err != nil {
		t.Fatalf("a guess on an idle game: %v", err)
	}
	if _, err := b.Guess(ctx, other.ID, other.Token, "1234"); err != nil {
		t.Fatal(err)
	}
}

// Without MaxAdversary, an address may have any number of adversary games
// in play.
func TestMaxAdversaryNone(t *testing.T) {
	e := newEnv(t, nil)
	for range 10 {
		e.newGame(t, `{"adversary":true}`)
	}
}
