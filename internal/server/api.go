package server

import (
	"sync"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// The JSON documents of the API. Field names are a contract: fields may be
// added, none renamed.

// NewGame is the body of POST /api/games. Fields left out take the
// server's defaults (GET /api/config): the variant of Server.Defaults
// (classic 6 colours × 4 pegs, repeats allowed, unless the server says
// otherwise), Limits.DefaultMaxGuesses guesses and no time limit; so do
// maxGuesses and timeLimitMs given as 0, but colors or pegs given as 0
// are refused, as -1 is.
type NewGame struct {
	Colors      int   `json:"colors,omitempty"`
	Pegs        int   `json:"pegs,omitempty"`
	Distinct    *bool `json:"distinct,omitempty"`
	MaxGuesses  int   `json:"maxGuesses,omitempty"`
	TimeLimitMs int64 `json:"timeLimitMs,omitempty"`
	// Adversary asks for a codemaker that holds no code and answers each
	// guess with the feedback that keeps the most codes possible, up to
	// MaxAdversaryCodes codes.
	Adversary bool `json:"adversary,omitempty"`
}

// MaxAdversaryCodes is the largest variant, in codes, of an adversary
// game: each of its guesses weighs every code still possible, so the
// variant is kept small.
const MaxAdversaryCodes = 1 << 16

// Game is a game as the API shows it: the answer to POST /api/games and
// GET /api/games/{id}. Secret is set only once the game is over; Token
// only in the answer to POST /api/games.
type Game struct {
	ID string `json:"id"`
	// Token is the player's proof of ownership, to send with each guess
	// and hint as "Authorization: Bearer TOKEN". The server shows it once.
	Token       string `json:"token,omitempty"`
	Colors      int    `json:"colors"`
	Pegs        int    `json:"pegs"`
	Distinct    bool   `json:"distinct"`
	MaxGuesses  int    `json:"maxGuesses"`  // 0: no limit
	TimeLimitMs int64  `json:"timeLimitMs"` // 0: no limit
	State       string `json:"state"`       // "playing", "won" or "lost"
	Guesses     int    `json:"guesses"`     // guesses made so far
	History     []Turn `json:"history"`
	// RemainingMs is the time left to guess, by the server's clock, when
	// there is a time limit and the game is in play.
	RemainingMs *int64 `json:"remainingMs,omitempty"`
	Secret      string `json:"secret,omitempty"`
	// Adversary: the codemaker holds no code; Secret, at the end, is the
	// last guess if it won, else a code consistent with every answer.
	Adversary bool `json:"adversary,omitempty"`
}

// Turn is one guess of a game's history.
type Turn struct {
	Guess string `json:"guess"`
	Black int    `json:"black"`
	White int    `json:"white"`
}

// Guess is the body of POST /api/games/{id}/guesses: a code in the symbols
// 123456789ABC…, colour 1 first, with optional spaces or commas between
// pegs.
type Guess struct {
	Guess string `json:"guess"`
}

// Feedback is the answer to a guess. Secret is set only once the game is
// over.
type Feedback struct {
	Black   int    `json:"black"`
	White   int    `json:"white"`
	Guesses int    `json:"guesses"` // guesses made so far, this one included
	State   string `json:"state"`
	Secret  string `json:"secret,omitempty"`
}

// Hint is the answer to GET /api/games/{id}/hint: the guess the server's
// solver would play next.
type Hint struct {
	Guess string `json:"guess"`
	// Unfit, on variants too large to count the codes left, says that
	// the guess cannot be the code: it does not fit every answer.
	Unfit bool `json:"unfit,omitempty"`
}

// Stats is the answer to GET /api/stats: the games the server has held, in
// all and for each variant.
type Stats struct {
	Played      int          `json:"played"`
	Won         int          `json:"won"`
	Lost        int          `json:"lost"`
	MeanGuesses float64      `json:"meanGuesses"` // of the won games
	Rules       []RulesStats `json:"rules"`
}

// RulesStats are the statistics of one variant.
type RulesStats struct {
	Colors      int     `json:"colors"`
	Pegs        int     `json:"pegs"`
	Distinct    bool    `json:"distinct"`
	Played      int     `json:"played"`
	Won         int     `json:"won"`
	Lost        int     `json:"lost"`
	MeanGuesses float64 `json:"meanGuesses"`
}

// Config is the answer to GET /api/config: what a new game gets for the
// fields its request leaves out, the largest values it may ask for,
// whether the server gives hints, and the strategies of its assistant.
type Config struct {
	Defaults GameDefaults `json:"defaults"`
	Limits   GameLimits   `json:"limits"`
	Hints    bool         `json:"hints"`
	// Strategies are the names POST /api/assist takes as its strategy,
	// besides none for the server's hint solver; empty without hints.
	Strategies []string `json:"strategies"`
}

// GameDefaults are the values of a new game's fields left out.
type GameDefaults struct {
	Colors      int   `json:"colors"`
	Pegs        int   `json:"pegs"`
	Distinct    bool  `json:"distinct"`
	MaxGuesses  int   `json:"maxGuesses"`
	TimeLimitMs int64 `json:"timeLimitMs"` // 0: no limit
}

// GameLimits are the largest values a new game may ask for; the fewest
// are 2 colours, 1 peg, and 0 for the limits (the default guess limit, and
// no time limit).
type GameLimits struct {
	MaxColors      int   `json:"maxColors"`
	MaxPegs        int   `json:"maxPegs"`
	MaxGuesses     int   `json:"maxGuesses"`
	MaxTimeLimitMs int64 `json:"maxTimeLimitMs"`
}

// Error is the body of every error response.
type Error struct {
	Error string `json:"error"`
}

// gameJSON returns the API's view of g at time now: the secret only if the
// game is over.
func gameJSON(g *mm.Game, now time.Time) *Game {
	status := g.StatusAt(now)
	out := &Game{ID: g.ID, Colors: g.Rules.Colors, Pegs: g.Rules.Pegs, Distinct: g.Rules.Distinct,
		MaxGuesses: g.MaxGuesses, TimeLimitMs: g.TimeLimit.Milliseconds(), State: status.String(),
		Guesses: len(g.Turns), History: make([]Turn, len(g.Turns)), Adversary: g.Adversary}
	for i, t := range g.Turns {
		out.History[i] = Turn{Guess: t.Guess.String(), Black: t.Feedback.Black, White: t.Feedback.White}
	}
	if status != mm.Playing {
		out.Secret = revealed(g)
	} else if d := g.Deadline(); !d.IsZero() {
		ms := max(0, d.Sub(now).Milliseconds())
		out.RemainingMs = &ms
	}
	return out
}

// revealed returns the code to show once g is over; for an adversary
// whose answers cannot be replayed, which a sound store never holds,
// nothing. An adversary's code is worked out from every turn, so it is
// worked out once for each game (reveals), not at each request for it.
func revealed(g *mm.Game) string {
	if !g.Adversary {
		return g.Secret.String()
	}
	k := revealKey{g.ID, len(g.Turns)}
	reveals.mu.Lock()
	s, ok := reveals.m[k]
	reveals.mu.Unlock()
	if ok {
		return s
	}
	c, err := g.Revealed()
	if err == nil {
		s = c.String()
	}
	reveals.mu.Lock()
	if len(reveals.m) >= maxReveals {
		clear(reveals.m)
	}
	reveals.m[k] = s
	reveals.mu.Unlock()
	return s
}

// maxReveals bounds the codes that reveals remembers, a few hundred
// kilobytes; past it, it forgets them all.
const maxReveals = 4096

// revealKey names an adversary game that is over: its ID and its turns.
type revealKey struct {
	id    string
	turns int
}

// reveals remembers the codes revealed of adversary games over.
var reveals = struct {
	mu sync.Mutex
	m  map[revealKey]string
}{m: make(map[revealKey]string)}

// statsJSON sums the statistics of every variant.
func statsJSON(stats []mm.GameStats) *Stats {
	out := &Stats{Rules: []RulesStats{}}
	var total mm.GameStats
	for _, s := range stats {
		out.Rules = append(out.Rules, RulesStats{Colors: s.Rules.Colors, Pegs: s.Rules.Pegs, Distinct: s.Rules.Distinct,
			Played: s.Played, Won: s.Won, Lost: s.Lost, MeanGuesses: round3(s.MeanGuesses())})
		total.Played += s.Played
		total.Won += s.Won
		total.Lost += s.Lost
		total.WonGuesses += s.WonGuesses
	}
	out.Played, out.Won, out.Lost, out.MeanGuesses = total.Played, total.Won, total.Lost, round3(total.MeanGuesses())
	return out
}

func round3(x float64) float64 { return float64(int64(x*1000+0.5)) / 1000 }
