package server

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// AdversaryIdle is how long an adversary game goes without a guess before
// it stops counting against its client's MaxAdversary: a game left alone
// is taken for abandoned, though it may still be played.
const AdversaryIdle = 15 * time.Minute

// DefaultMaxAdversary is the adversary games in play that mastermind serve
// lets one client hold at once unless told otherwise (--max-adversary).
const DefaultMaxAdversary = 64

// openGames counts the adversary games in play of each client
// (clientKey), up to a most: each costs the store its codes (8 KiB at
// most, rewritten at each guess), and many played in turn were what made
// guesses costly (issue 46). A game stops counting when a guess ends it,
// when its deadline passes, and when it has gone AdversaryIdle without a
// guess. It lives in memory: a restart forgets the games counted, which
// at worst lets each client open its most again. Its methods are safe for
// concurrent use.
type openGames struct {
	most int
	idle time.Duration

	mu       sync.Mutex
	byClient map[string][]openGame
	clientOf map[string]string // a counted game's ID → its client
	swept    time.Time
}

// An openGame is an adversary game counted against its client.
type openGame struct {
	id       string
	deadline time.Time // zero without a time limit
	active   time.Time // its creation or its last guess
}

// until returns when g stops counting unless a guess comes first.
func (g openGame) until(idle time.Duration) time.Time {
	t := g.active.Add(idle)
	if !g.deadline.IsZero() && g.deadline.Before(t) {
		return g.deadline
	}
	return t
}

func newOpenGames(most int, idle time.Duration, now time.Time) *openGames {
	return &openGames{most: most, idle: idle, byClient: make(map[string][]openGame),
		clientOf: make(map[string]string), swept: now}
}

// add counts adversary game g for client at time now, or fails, with 429
// and Retry-After, if the client holds its most already.
func (o *openGames) add(client string, g *mm.Game, now time.Time) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if now.Sub(o.swept) > o.idle {
		o.sweep(now)
	}
	games := o.prune(client, now)
	if len(games) >= o.most {
		first := games[0].until(o.idle)
		for _, h := range games[1:] {
			if t := h.until(o.idle); t.Before(first) {
				first = t
			}
		}
		return &retryError{&statusError{http.StatusTooManyRequests, fmt.Errorf(
			"mastermind: your address has %d adversary games in play, the most this server allows at once; "+
				"finish one, or leave one without a guess for %v (it then stops counting), and try again",
			len(games), o.idle)}, first.Sub(now)}
	}
	o.byClient[client] = append(games, openGame{id: g.ID, deadline: g.Deadline(), active: now})
	o.clientOf[g.ID] = client
	return nil
}

// prune drops the games of client that no longer count at time now, and
// returns those left. o.mu must be held.
func (o *openGames) prune(client string, now time.Time) []openGame {
	games := o.byClient[client]
	kept := games[:0]
	for _, g := range games {
		if now.Before(g.until(o.idle)) {
			kept = append(kept, g)
		} else {
			delete(o.clientOf, g.id)
		}
	}
	clear(games[len(kept):])
	if len(kept) == 0 {
		delete(o.byClient, client)
		return nil
	}
	o.byClient[client] = kept
	return kept
}

// sweep prunes every client, so that those gone do not stay in memory.
// o.mu must be held.
func (o *openGames) sweep(now time.Time) {
	for client := range o.byClient {
		o.prune(client, now)
	}
	o.swept = now
}

// played notes a guess on game id at time now after which the game is
// playing or not; over also for a guess refused because the game is over
// or unknown.
func (o *openGames) played(id string, playing bool, now time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	client, ok := o.clientOf[id]
	if !ok {
		return
	}
	games := o.byClient[client]
	for i := range games {
		if games[i].id != id {
			continue
		}
		if playing {
			games[i].active = now
			return
		}
		o.byClient[client] = append(games[:i], games[i+1:]...)
		clear(games[len(games)-1:])
		break
	}
	delete(o.clientOf, id)
	if len(o.byClient[client]) == 0 {
		delete(o.byClient, client)
	}
}

// remove stops counting game id, which was not created after all.
func (o *openGames) remove(id string) { o.played(id, false, time.Time{}) }
