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
	if o.Pairs {
		return PairsOpening(st.Rules()), nil
	}
	if o.Text != "" {
		c, err := st.Rules().ParseCode(o.Text)
		if err != nil {
			return mm.Code{}, fmt.Errorf("opening: %w", err)
		}
		return c, nil
	}
	if err := st.Rules().Check(o.First); err != nil {
		return mm.Code{}, fmt.Errorf("opening: %w", err)
	}
	return o.First, nil
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
