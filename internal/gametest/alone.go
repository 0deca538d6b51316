package gametest

import (
	"context"
	"math"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/consist"
)

// Alone is consistent play by the complete solver alone, for measuring
// what consistent play reaches beside the strategies (issue 42's ladder):
// each turn it draws up to N distinct codes that fit every answer so far
// (consist.DrawFor: the solver kept on the game, random phases at every
// draw), all of them together within Budgets × budget worth of conflicts
// priced by consist.ConflictNanos, so that a game is reproducible from its
// seed; and it plays the drawn code whose answers against the drawn codes
// split them with the most entropy (the sampler's one-step score; ties to
// the first drawn). Where the solver finds no code within its limit, it
// plays Else's guess, or if Else is nil a random code not played yet (a
// fallback). It counts its work in its fields, to pass to PlayGames as
// counts.
type Alone struct {
	N       int           // codes drawn a turn (0: 64)
	Budget  time.Duration // a guess's budget
	Budgets float64       // the solver's limit, in budgets (0: 2)
	// Else, if not nil, guesses where the solver found no code.
	Else func(*mm.State) (mm.Code, error)

	Fallbacks    int // guesses where the solver found no code
	Conflicts    int // the solver's work in all, in conflicts
	MaxConflicts int // the most work a guess
	Short        int // guesses drawn from fewer than N codes (limit or few left)
}

// Limit returns the solver's limit a guess on r, in conflicts.
func (a *Alone) Limit(r mm.Rules) int64 {
	b := a.Budgets
	if b <= 0 {
		b = 2
	}
	return max(1, int64(b*float64(a.Budget)/consist.ConflictNanos(r)))
}

// Counts returns a's counters by name, for PlayGames.
func (a *Alone) Counts() map[string]*int {
	return map[string]*int{
		"fallbacks/game": &a.Fallbacks,
		"conflicts/game": &a.Conflicts,
		"short/game":     &a.Short,
	}
}

// Guess returns the guess of consistent play at st.
func (a *Alone) Guess(st *mm.State) (mm.Code, error) {
	r := st.Rules()
	n := a.N
	if n <= 0 {
		n = 64
	}
	codes, work, err := consist.DrawFor(context.Background(), st, n, a.Limit(r))
	if err != nil {
		return mm.Code{}, err
	}
	a.Conflicts += int(work)
	a.MaxConflicts = max(a.MaxConflicts, int(work))
	if len(codes) < n {
		a.Short++
	}
	if len(codes) == 0 {
		a.Fallbacks++
		if a.Else != nil {
			return a.Else(st)
		}
		rng := st.Rand()
		for {
			if c := mm.RandomCode(r, rng); !st.Guessed(c) {
				return c, nil
			}
		}
	}
	return best(codes, r.Pegs), nil
}

// best returns the code of codes whose answers against all of them split
// them with the most entropy: the least Σ n·ln n over the classes.
func best(codes []mm.Code, pegs int) mm.Code {
	classes := make([]int, (pegs+1)*(pegs+1))
	bi, bv := 0, math.Inf(1)
	for i, g := range codes {
		clear(classes)
		for _, c := range codes {
			f := mm.Score(c, g)
			classes[f.Black*(pegs+1)+f.White]++
		}
		v := 0.0
		for _, k := range classes {
			if k > 1 {
				v += float64(k) * math.Log(float64(k))
			}
		}
		if v < bv {
			bi, bv = i, v
		}
	}
	return codes[bi]
}
