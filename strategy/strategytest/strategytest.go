// Package strategytest implements support for testing implementations of
// mastermind.Strategy, in the manner of testing/fstest.
package strategytest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	mm "github.com/mastermind-toolkit/mastermind"
)

// MaxSize is the largest variant Check accepts: it plays every secret.
const MaxSize = 1 << 16

// maxProblems is how many misbehaviours Check reports in full.
const maxProblems = 50

// Check plays s against every secret of r and reports every way in which it
// breaks the Strategy contract:
//
//   - Guess returns an error or panics;
//   - a guess is not a legal code of r (r.Check);
//   - a guess repeats an earlier guess of the same game;
//   - a game is not solved within r.Size() guesses;
//   - Guess modifies the state it is given;
//   - a deterministic strategy (mastermind.IsRandomized false) gives two
//     different guesses for the same history, whether asked twice about the
//     same State or about the same history in different games.
//
// Randomised strategies draw on a source seeded from the secret's index, so
// a run is reproducible. r must be small: at most MaxSize codes. Check
// returns nil if s behaves, and otherwise one error whose text lists the
// problems one per line (the first 50 of them, then a count of the rest).
func Check(s mm.Strategy, r mm.Rules) error {
	r = r.WithDefaults()
	if err := r.Validate(); err != nil {
		return fmt.Errorf("strategytest: %w", err)
	}
	if n := r.Size(); n > MaxSize {
		return fmt.Errorf("strategytest: %s has %d codes, more than the %d Check plays", r, n, MaxSize)
	}
	sp, err := mm.SpaceOf(r)
	if err != nil {
		return fmt.Errorf("strategytest: %w", err)
	}
	c := &checker{s: s, r: r, random: mm.IsRandomized(s), seen: map[string]mm.Code{}}
	for i, secret := range sp.All().Codes() {
		c.play(uint64(i), secret)
	}
	return c.err()
}

type checker struct {
	s        mm.Strategy
	r        mm.Rules
	random   bool
	seen     map[string]mm.Code // history → guess, for deterministic strategies
	problems []string
	more     int
}

func (c *checker) errorf(format string, args ...any) {
	if len(c.problems) >= maxProblems {
		c.more++
		return
	}
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

func (c *checker) err() error {
	if len(c.problems) == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "strategytest: %s misbehaves on %s:", name(c.s), c.r)
	for _, p := range c.problems {
		b.WriteString("\n\t")
		b.WriteString(p)
	}
	if c.more > 0 {
		fmt.Fprintf(&b, "\n\t... and %d more", c.more)
	}
	return errors.New(b.String())
}

func name(s mm.Strategy) string {
	if st, ok := s.(fmt.Stringer); ok {
		return st.String()
	}
	return fmt.Sprintf("%T", s)
}

// guess calls s.Guess, turning a panic into an error.
func (c *checker) guess(st *mm.State) (g mm.Code, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return c.s.Guess(st)
}

// history writes the turns of st as a map key.
func history(st *mm.State) string {
	var b strings.Builder
	for _, t := range st.Turns() {
		fmt.Fprintf(&b, "%s:%d,%d;", t.Guess, t.Feedback.Black, t.Feedback.White)
	}
	return b.String()
}

// play plays one game against secret and records what goes wrong.
func (c *checker) play(i uint64, secret mm.Code) {
	st, err := mm.NewState(c.r, rand.New(rand.NewPCG(i, 0x5eed)))
	if err != nil {
		c.errorf("secret %s: NewState: %v", secret, err)
		return
	}
	limit := int(c.r.Size())
	guessed := map[mm.Code]int{}
	for n := 1; n <= limit; n++ {
		before := st.Turns()
		g, err := c.guess(st)
		if err != nil {
			c.errorf("secret %s, guess %d (after %s): Guess: %v", secret, n, history(st), err)
			return
		}
		if after := st.Turns(); !slices.Equal(before, after) {
			c.errorf("secret %s, guess %d: Guess modified the state's turns", secret, n)
			return
		}
		if err := c.r.Check(g); err != nil {
			c.errorf("secret %s, guess %d (after %s): illegal guess %s: %v", secret, n, history(st), g, err)
			return
		}
		if prev, ok := guessed[g]; ok {
			c.errorf("secret %s, guess %d (after %s): %s repeats guess %d", secret, n, history(st), g, prev)
			return
		}
		guessed[g] = n
		if !c.random {
			h := history(st)
			if again, err := c.guess(st); err != nil || again != g {
				c.errorf("secret %s, guess %d (after %s): deterministic strategy guessed %s, then %s (error %v) for the same state",
					secret, n, h, g, again, err)
			}
			if old, ok := c.seen[h]; ok && old != g {
				c.errorf("secret %s, guess %d (after %s): deterministic strategy guessed %s, but %s in another game with the same history",
					secret, n, h, g, old)
			}
			c.seen[h] = g
		}
		f := mm.Score(secret, g)
		if f.Solved(c.r.Pegs) {
			return
		}
		if st, err = st.Play(g, f); err != nil {
			c.errorf("secret %s, guess %d: Play(%s, %s): %v", secret, n, g, f, err)
			return
		}
	}
	c.errorf("secret %s: not solved in %d guesses (%s)", secret, limit, history(st))
}
