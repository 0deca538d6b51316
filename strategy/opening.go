package strategy

import (
	"context"
	"fmt"

	mm "github.com/mastermind-toolkit/mastermind"
)

// Opening plays a fixed first guess, then lets Then choose. It is how any
// strategy takes a fixed opening: First, or with Pairs seeds/004's two pegs
// of each colour for whatever rules the game has (PairsOpening).
type Opening struct {
	First mm.Code
	Pairs bool   // open with PairsOpening(rules) instead of First
	Text  string // open with this code, in the default alphabet, instead of First
	Then  mm.Strategy
}

var _ mm.ContextStrategy = Opening{}

// Guess returns the opening at the start of a game and Then's guess
// afterwards.
func (o Opening) Guess(st *mm.State) (mm.Code, error) {
	return o.GuessContext(context.Background(), st)
}

// GuessContext is Guess, passing ctx on to Then.
func (o Opening) GuessContext(ctx context.Context, st *mm.State) (mm.Code, error) {
	if st.Len() > 0 {
		return mm.GuessContext(ctx, o.Then, st)
	}
	return o.first(st.Rules())
}

// first returns the opening under r.
func (o Opening) first(r mm.Rules) (mm.Code, error) {
	switch {
	case o.Pairs:
		return PairsOpening(r), nil
	case o.Text != "":
		c, err := r.ParseCode(o.Text)
		if err != nil {
			return mm.Code{}, fmt.Errorf("opening: %w", err)
		}
		return c, nil
	}
	if err := r.Check(o.First); err != nil {
		return mm.Code{}, fmt.Errorf("opening: %w", err)
	}
	return o.First, nil
}

// Walks reports whether Walk takes r: where Then is a scoring strategy
// that walks r (see eval.Walker).
func (o Opening) Walks(r mm.Rules) bool {
	w, ok := o.Then.(fromWalker)
	return ok && w.Walks(r)
}

// Walk plays every secret of r that want accepts depth first, as Then's
// Walk does but opening every game with the opening, and returns the
// guesses of each game by space index (see eval.Walker): a run over
// every secret, or one shard of it, needs no decision tree in memory.
func (o Opening) Walk(ctx context.Context, r mm.Rules, want func(int) bool, progress func(int), workers int) ([]uint8, error) {
	w, ok := o.Then.(fromWalker)
	if !ok {
		return nil, fmt.Errorf("%w: %v does not walk every secret", mm.ErrUnsupported, o.Then)
	}
	g, err := o.first(r.WithDefaults())
	if err != nil {
		return nil, err
	}
	return w.walkFrom(ctx, r, &g, want, progress, workers)
}

// Randomized reports whether Then is randomised.
func (o Opening) Randomized() bool { return mm.IsRandomized(o.Then) }

func (o Opening) String() string {
	if o.Pairs {
		return fmt.Sprintf("%v from pairs", o.Then)
	}
	if o.Text != "" {
		return fmt.Sprintf("%v from %s", o.Then, o.Text)
	}
	return fmt.Sprintf("%v from %v", o.Then, o.First)
}

// PairsOpening returns seeds/004's general opening: two pegs of each colour
// in turn, 1122 on 6 × 4 and 11223 on 8 × 5; when the colours run out the
// last one fills the rest. With distinct colours, where pairs are not
// allowed, it is 1234….
func PairsOpening(r mm.Rules) mm.Code {
	r = r.WithDefaults()
	colors := make([]int, r.Pegs)
	for i := range colors {
		if r.Distinct {
			colors[i] = i
		} else {
			colors[i] = min(i/2, r.Colors-1)
		}
	}
	c, _ := mm.NewCode(colors...)
	return c
}
