package mastermind

import (
	"context"
	"errors"
	"fmt"
)

// A Strategy chooses the next guess from what is known.
//
// # Contract
//
// Guess must return a legal code of st.Rules() and must not modify st. A
// deterministic strategy returns the same guess for the same history, which
// lets a harness compute its whole decision tree once; a randomised one draws
// only on st.Rand() and says so through Randomized. Like maphash.Hasher, a
// Strategy should be logically stateless, so that one value can serve many
// concurrent games; caches of results that depend only on the rules are
// allowed.
type Strategy interface {
	Guess(st *State) (Code, error)
}

// A ContextStrategy is a Strategy whose search can be cancelled: it checks
// ctx in its long loops (not the innermost) and returns ctx.Err(), wrapped or
// not, soon after ctx is done. Callers find it by type assertion, as
// net.Dialer has DialContext beside Dial; GuessContext does that for them.
type ContextStrategy interface {
	Strategy
	GuessContext(ctx context.Context, st *State) (Code, error)
}

// GuessContext asks s for its next guess, passing ctx on when s is a
// ContextStrategy. A strategy that is not one cannot be interrupted, but a
// ctx that is already done is reported before it is asked.
func GuessContext(ctx context.Context, s Strategy, st *State) (Code, error) {
	if err := ctx.Err(); err != nil {
		return Code{}, err
	}
	if cs, ok := s.(ContextStrategy); ok {
		return cs.GuessContext(ctx, st)
	}
	return s.Guess(st)
}

// StrategyFunc adapts an ordinary function to a Strategy.
type StrategyFunc func(st *State) (Code, error)

// Guess returns f(st).
func (f StrategyFunc) Guess(st *State) (Code, error) { return f(st) }

// Randomized is implemented by strategies whose guesses depend on the random
// source of the state. Strategies that do not implement it, or return
// false, are deterministic.
type Randomized interface {
	Randomized() bool
}

// IsRandomized reports whether s declares itself randomised.
func IsRandomized(s Strategy) bool {
	r, ok := s.(Randomized)
	return ok && r.Randomized()
}

// A Step is one move of a solved game: the guess, its feedback and the
// number of candidates left after it (-1 when the variant is too large to
// count them).
type Step struct {
	Guess     Code     `json:"guess"`
	Feedback  Feedback `json:"feedback"`
	Remaining int      `json:"remaining"`
}

// ErrGuessLimit is returned by Solve when the guess limit is reached.
var ErrGuessLimit = errors.New("mastermind: guess limit reached")

// Solve plays strategy s from state st against secret until the secret is
// guessed or maxGuesses guesses have been made (maxGuesses <= 0 means no
// limit but the size of the space, and at most one million guesses). It
// returns the steps played; on error, the steps so far and an error that
// wraps ErrGuessLimit, ErrInvalidCode for an illegal guess, or whatever the
// strategy returned.
func Solve(st *State, s Strategy, secret Code, maxGuesses int) ([]Step, error) {
	return SolveContext(context.Background(), st, s, secret, maxGuesses)
}

// SolveContext is Solve, asking the strategy for each guess through
// GuessContext so that a cancelled ctx stops the game; the error then wraps
// ctx.Err().
func SolveContext(ctx context.Context, st *State, s Strategy, secret Code, maxGuesses int) ([]Step, error) {
	return SolveEach(ctx, st, s, secret, maxGuesses, nil)
}

// SolveEach is SolveContext, calling each, if not nil, with every step as
// soon as it is played: news for a game that takes a while.
func SolveEach(ctx context.Context, st *State, s Strategy, secret Code, maxGuesses int, each func(Step)) ([]Step, error) {
	r := st.Rules()
	if err := r.Check(secret); err != nil {
		return nil, err
	}
	if maxGuesses <= 0 {
		maxGuesses = 1_000_000
		if n := r.Size(); n < uint64(maxGuesses) {
			maxGuesses = int(n)
		}
	}
	var steps []Step
	for len(steps) < maxGuesses {
		g, err := GuessContext(ctx, s, st)
		if err != nil {
			return steps, err
		}
		if err := r.Check(g); err != nil {
			return steps, fmt.Errorf("mastermind: strategy returned an illegal guess: %w", err)
		}
		f := Score(secret, g)
		if st, err = st.Play(g, f); err != nil {
			return steps, err
		}
		steps = append(steps, Step{Guess: g, Feedback: f, Remaining: st.Remaining()})
		if each != nil {
			each(steps[len(steps)-1])
		}
		if f.Solved(r.Pegs) {
			return steps, nil
		}
	}
	return steps, fmt.Errorf("%w: %d guesses without finding %s", ErrGuessLimit, maxGuesses, secret)
}
