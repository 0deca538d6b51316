package mastermind

import (
	"errors"
	"fmt"
	"time"
)

// Errors of a Game held by a codemaker, tested for with errors.Is. They
// sit here rather than in errors.go because only the codemaker's side
// (the game server) uses them.
var (
	ErrTimeUp      = errors.New("mastermind: time is up")
	ErrUnknownGame = errors.New("mastermind: no such game")
	// ErrNotPlayer is returned to a request that does not prove it comes
	// from the game's player, such as a guess with another game's token.
	ErrNotPlayer = errors.New("mastermind: not this game's player")
)

// GameStatus is where a Game stands. The zero GameStatus is Playing.
type GameStatus int

// The statuses of a game.
const (
	Playing GameStatus = iota // the secret has not been found and guesses remain
	Won                       // the last guess was the secret
	Lost                      // the guess limit or the time limit was reached first
)

var statusNames = [...]string{Playing: "playing", Won: "won", Lost: "lost"}

// String returns "playing", "won" or "lost".
func (s GameStatus) String() string {
	if s < 0 || int(s) >= len(statusNames) {
		return fmt.Sprintf("GameStatus(%d)", int(s))
	}
	return statusNames[s]
}

// MarshalText writes the status as String does.
func (s GameStatus) MarshalText() ([]byte, error) {
	if s < 0 || int(s) >= len(statusNames) {
		return nil, fmt.Errorf("mastermind: unknown game status %d", int(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads "playing", "won" or "lost".
func (s *GameStatus) UnmarshalText(text []byte) error {
	for i, n := range statusNames {
		if string(text) == n {
			*s = GameStatus(i)
			return nil
		}
	}
	return fmt.Errorf("mastermind: unknown game status %q", text)
}

// A Game is a game as the codemaker holds it: the secret, the limits, and
// the turns played so far. It is the record a game server keeps; the
// codebreaker's view is a State, which never holds the secret.
//
// Guess is the only step: it scores a guess against the secret under the
// limits and records the turn. A Game is not safe for concurrent use; a
// server serialises the guesses of each game.
//
// Turns only ever grows by appending, so a plain struct copy of a Game
// keeps seeing the turns it had while the original plays on; Clone gives a
// copy that may play on too.
type Game struct {
	ID         string
	Rules      Rules
	Secret     Code
	MaxGuesses int           // guesses allowed; 0 for no limit
	TimeLimit  time.Duration // time from Created to the last allowed guess; 0 for none
	Created    time.Time
	Status     GameStatus
	Ended      time.Time // when the game was won or lost; zero while playing
	Turns      []Turn
	// Adversary makes the codemaker hold no code, as Absurdle and
	// cheatermind do: Guess answers with the feedback that keeps the most
	// codes consistent with the turns (Set.Evade), and Secret is not
	// used. Revealed says what the code was once the game is over. Each
	// guess costs O(codes × turns), or O(codes) with GuessAnswer; the
	// codes must be enumerable.
	Adversary bool
}

// Revealed returns the code to show once the game is over: the secret;
// or, for an adversary, the last guess if it won, else the first code
// (in the space's order) consistent with every answer.
func (g *Game) Revealed() (Code, error) {
	switch {
	case !g.Adversary:
		return g.Secret, nil
	case g.Status == Won:
		return g.Turns[len(g.Turns)-1].Guess, nil
	}
	left, err := g.Possible()
	if err != nil {
		return Code{}, err
	}
	if left.Len() == 0 {
		return Code{}, fmt.Errorf("%w: no code fits the answers of game %s", ErrInconsistent, g.ID)
	}
	return left.Code(0), nil
}

// Possible returns the codes consistent with every turn of g: for an
// Adversary, the codes it may still claim to hold. It costs O(codes ×
// distinct guesses): a guess played again filters nothing more.
func (g *Game) Possible() (*Set, error) {
	sp, err := SpaceOf(g.Rules)
	if err != nil {
		return nil, err
	}
	left := sp.All()
	seen := make(map[Turn]bool)
	for _, t := range g.Turns {
		if seen[t] {
			continue
		}
		seen[t] = true
		if left, err = left.Filter(t.Guess, t.Feedback); err != nil {
			return nil, err
		}
	}
	return left, nil
}

// Clone returns a copy of g that can play on independently of g. It costs
// O(1): the copy shares the turns played so far, which never change.
func (g *Game) Clone() *Game {
	c := *g
	c.Turns = g.Turns[:len(g.Turns):len(g.Turns)]
	return &c
}

// Deadline returns the time after which no guess is accepted, or the zero
// time if the game has no time limit.
func (g *Game) Deadline() time.Time {
	if g.TimeLimit <= 0 {
		return time.Time{}
	}
	return g.Created.Add(g.TimeLimit)
}

// StatusAt returns the status of the game at time now: Lost once the
// deadline has passed, even if no guess has come since to record it.
func (g *Game) StatusAt(now time.Time) GameStatus {
	if g.Status == Playing && g.expired(now) {
		return Lost
	}
	return g.Status
}

func (g *Game) expired(now time.Time) bool {
	d := g.Deadline()
	return !d.IsZero() && now.After(d)
}

// Guess scores guess c, made at time now, against the secret and records
// the turn; the game is then Won if c is the secret and Lost if it was the
// last guess allowed.
//
// A guess that is not a legal code of the rules fails with an error
// wrapping ErrInvalidCode and changes nothing. A guess after the game has
// ended fails with ErrGameOver. A guess after the deadline fails with
// ErrTimeUp and ends the game: its status becomes Lost, ended at the
// deadline. Guess costs O(pegs), or O(codes × turns) for an Adversary
// (GuessAnswer spares that).
func (g *Game) Guess(c Code, now time.Time) (Feedback, error) {
	return g.GuessAnswer(c, now, func() (Feedback, error) {
		left, err := g.Possible()
		if err != nil {
			return Feedback{}, err
		}
		return left.Evade(c)
	})
}

// GuessAnswer is Guess, but an Adversary's answer is answer(), called
// only once c is a legal code and the game in play. It lets a caller that
// keeps the codes consistent with the turns from one guess to the next
// (Possible, then Set.Filter after each answer) answer with Set.Evade of
// them, in O(codes) whatever the number of turns, and compute it where it
// likes. answer must give what Evade of Possible would; an error from it
// fails the guess and changes nothing. For a game that is not an
// Adversary, answer is not called.
func (g *Game) GuessAnswer(c Code, now time.Time, answer func() (Feedback, error)) (Feedback, error) {
	switch {
	case g.Status == Won:
		return Feedback{}, fmt.Errorf("%w: the code was found in %d guesses", ErrGameOver, len(g.Turns))
	case g.Status == Lost:
		return Feedback{}, fmt.Errorf("%w: the game was lost after %d guesses", ErrGameOver, len(g.Turns))
	case g.expired(now):
		g.Status, g.Ended = Lost, g.Deadline()
		return Feedback{}, fmt.Errorf("%w: the limit was %v and the guess came %v late",
			ErrTimeUp, g.TimeLimit, now.Sub(g.Deadline()).Round(time.Millisecond))
	}
	if err := g.Rules.Check(c); err != nil {
		return Feedback{}, err
	}
	var f Feedback
	if g.Adversary {
		var err error
		if f, err = answer(); err != nil {
			return Feedback{}, err
		}
	} else {
		f = Score(g.Secret, c)
	}
	g.Turns = append(g.Turns, Turn{Guess: c, Feedback: f})
	switch {
	case f.Solved(g.Rules.WithDefaults().Pegs):
		g.Status, g.Ended = Won, now
	case g.MaxGuesses > 0 && len(g.Turns) >= g.MaxGuesses:
		g.Status, g.Ended = Lost, now
	}
	return f, nil
}

// GameStats counts a codemaker's games of one variant.
type GameStats struct {
	Rules      Rules
	Played     int // games started
	Won        int
	Lost       int // by the guess limit or the clock
	WonGuesses int // guesses of the won games, in total
}

// MeanGuesses returns the mean number of guesses of the won games, or 0 if
// none was won.
func (s GameStats) MeanGuesses() float64 {
	if s.Won == 0 {
		return 0
	}
	return float64(s.WonGuesses) / float64(s.Won)
}
