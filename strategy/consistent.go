package strategy

import (
	mm "github.com/mastermind-toolkit/mastermind"
)

// MaxConsistentSpace is the largest space FirstConsistent and
// RandomConsistent enumerate.
const MaxConsistentSpace = mm.MaxSpace

// FirstConsistent guesses the lowest code consistent with the history.
type FirstConsistent struct{}

// RandomConsistent guesses a code drawn uniformly from those consistent with
// the history (Shapiro 1983; the "Knuth's elimination" of seeds/001).
type RandomConsistent struct{}

var (
	_ mm.Strategy   = FirstConsistent{}
	_ mm.Strategy   = RandomConsistent{}
	_ mm.Randomized = RandomConsistent{}
)

// Guess returns the lowest candidate.
func (FirstConsistent) Guess(st *mm.State) (mm.Code, error) {
	s, err := candidates(st, "first-consistent", MaxConsistentSpace)
	if err != nil {
		return mm.Code{}, err
	}
	return s.Code(0), nil
}

// Guess returns a candidate drawn with st.Rand().
func (RandomConsistent) Guess(st *mm.State) (mm.Code, error) {
	s, err := candidates(st, "random-consistent", MaxConsistentSpace)
	if err != nil {
		return mm.Code{}, err
	}
	return s.Code(st.Rand().IntN(s.Len())), nil
}

// Randomized reports true: the guess depends on the state's random source.
func (RandomConsistent) Randomized() bool { return true }

func (FirstConsistent) String() string  { return "first-consistent" }
func (RandomConsistent) String() string { return "random-consistent" }
