package mastermind

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
)

// A Turn is one guess and the feedback it received.
type Turn struct {
	Guess    Code     `json:"guess"`
	Feedback Feedback `json:"feedback"`
}

// A State is what the codebreaker knows: the rules, the turns played so far
// and, where the variant can be enumerated, the set of codes still
// consistent with them. Strategies read a State to choose a guess.
//
// States are immutable: Play and Branch return new states. A State is safe
// for concurrent use; its candidate set is computed once, on first use.
type State struct {
	rules Rules
	turns []Turn
	rng   *rand.Rand
	// extended is set once a child shares turns' backing array: only the
	// first child appends in place, later ones copy.
	extended atomic.Bool

	cands atomic.Pointer[Set] // the candidates, once known
	once  sync.Once           // computes cands on first use
	err   error               // why cands could not be computed

	// att holds what other packages attached (see Attach), carried from
	// state to state by Play.
	att atomic.Pointer[[]attachment]
}

// autoEnumerate is the largest space whose candidates Play keeps up to date
// unasked, so that it can report an inconsistent history at once.
const autoEnumerate = 1 << 20

// NewState returns the state at the start of a game under r. rng is the
// random source of randomised strategies; nil means a source seeded with 0,
// so that a game stays reproducible.
func NewState(r Rules, rng *rand.Rand) (*State, error) {
	r = r.WithDefaults()
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if rng == nil {
		rng = rand.New(rand.NewPCG(0, 0))
	}
	return &State{rules: r, rng: rng}, nil
}

// Rules returns the variant, with defaults applied.
func (st *State) Rules() Rules { return st.rules }

// Turns returns a copy of the turns played so far.
func (st *State) Turns() []Turn { return append([]Turn(nil), st.turns...) }

// Len returns the number of turns played.
func (st *State) Len() int { return len(st.turns) }

// Turn returns turn i, counting from 0.
func (st *State) Turn(i int) Turn { return st.turns[i] }

// Guessed reports whether c has been guessed already. It costs O(Len).
func (st *State) Guessed(c Code) bool {
	for i := range st.turns {
		if st.turns[i].Guess == c {
			return true
		}
	}
	return false
}

// withTurn returns the turns so far followed by t. The first call on a
// state appends in place, sharing the backing array, since nobody else
// writes past the end of st.turns; later calls copy. A game of k turns thus
// costs O(k) in all, not O(k²).
func (st *State) withTurn(t Turn) []Turn {
	if st.extended.CompareAndSwap(false, true) {
		return append(st.turns, t)
	}
	out := make([]Turn, len(st.turns)+1)
	copy(out, st.turns)
	out[len(st.turns)] = t
	return out
}

// Rand returns the game's random source. Only randomised strategies use it;
// it is not safe for concurrent use, so a game's guesses must be chosen one
// at a time.
func (st *State) Rand() *rand.Rand { return st.rng }

// Space returns the space of the variant, or an error wrapping ErrTooLarge
// if it cannot be enumerated.
func (st *State) Space() (*Space, error) { return SpaceOf(st.rules) }

// Candidates returns the codes consistent with every turn so far. It fails
// with ErrTooLarge when the variant cannot be enumerated, and with
// ErrInconsistent when no code fits the turns.
func (st *State) Candidates() (*Set, error) {
	if s := st.cands.Load(); s != nil {
		return s, nil
	}
	st.once.Do(func() {
		sp, err := st.Space()
		if err != nil {
			st.err = err
			return
		}
		s, err := sp.All().filterTurns(st.turns)
		if err != nil {
			st.err = err
			return
		}
		if st.err = inconsistent(s, st.turns); st.err == nil {
			st.cands.Store(s)
		}
	})
	if st.err != nil {
		return nil, st.err
	}
	return st.cands.Load(), nil
}

func inconsistent(s *Set, turns []Turn) error {
	if s.Len() > 0 {
		return nil
	}
	t := turns[len(turns)-1]
	return errNoCodeFits(t.Guess, t.Feedback, len(turns))
}

// errNoCodeFits returns the error, wrapping ErrInconsistent, for a history
// of n turns, the last g scored f, that no code fits.
func errNoCodeFits(g Code, f Feedback, n int) error {
	return fmt.Errorf("%w: after %s scored %s, no code fits all %d answers", ErrInconsistent, g, f, n)
}

// Known reports whether the candidates are known without further work:
// computed already, or cheap to compute (a space of at most 2²⁰ codes).
func (st *State) Known() bool {
	return st.cands.Load() != nil || st.rules.Size() <= autoEnumerate
}

// Remaining returns the number of candidates, or -1 if they are not known:
// the variant is too large to enumerate without being asked (more than
// 2²⁰ codes), nobody has called Candidates, and nothing attached to st
// counts them (see Counter). Once the code is found it is the one
// candidate, at any size.
func (st *State) Remaining() int {
	if st.Solved() {
		return 1
	}
	if s := st.cands.Load(); s != nil {
		return s.Len()
	}
	for _, a := range st.attached() {
		if c, ok := a.f.(Counter); ok {
			return c.Remaining()
		}
	}
	if st.Known() {
		if s, err := st.Candidates(); err == nil {
			return s.Len()
		}
	}
	return -1
}

// Solved reports whether the last turn found the code.
func (st *State) Solved() bool {
	n := len(st.turns)
	return n > 0 && st.turns[n-1].Feedback.Solved(st.rules.Pegs)
}

// Play returns the state after guess g received feedback f. It checks that
// g is a legal code, that f is a possible feedback and, where the
// candidates are known (see Known: computed already, or a space of at most
// 2²⁰ codes), that some code is still consistent with every turn: the
// errors wrap ErrInvalidCode, ErrInvalidFeedback and ErrInconsistent, and
// ErrGameOver once the code has been found.
//
// On variants too large to enumerate, Play checks consistency only as far
// as what is attached to st does (see Attach): package large's search, for
// one, proves most contradictions. Play carries each attachment to the new
// state through its Follow method, and fails with the error Follow returns.
func (st *State) Play(g Code, f Feedback) (*State, error) {
	if st.Solved() {
		return nil, fmt.Errorf("%w: the code was found in %d guesses", ErrGameOver, len(st.turns))
	}
	if err := st.rules.Check(g); err != nil {
		return nil, err
	}
	if err := st.rules.CheckFeedback(f); err != nil {
		return nil, err
	}
	next := &State{rules: st.rules, rng: st.rng, turns: st.withTurn(Turn{g, f})}
	if st.Known() {
		cands, err := st.Candidates()
		if err != nil {
			return nil, err
		}
		s, err := cands.Filter(g, f)
		if err != nil {
			return nil, err
		}
		if err := inconsistent(s, next.turns); err != nil {
			return nil, err
		}
		next.cands.Store(s)
	}
	if err := st.follow(next); err != nil {
		return nil, err
	}
	return next, nil
}

// Branch plays guess g against every candidate at once: it returns, for each
// feedback that some candidate gives, the state after that feedback, in
// (black, white) order. The variant must be enumerable. Branch is how a
// deterministic strategy's whole decision tree is built.
func (st *State) Branch(g Code) ([]Feedback, []*State, error) {
	cands, err := st.Candidates()
	if err != nil {
		return nil, nil, err
	}
	if err := st.rules.Check(g); err != nil {
		return nil, nil, err
	}
	gi, _ := cands.sp.Index(g)
	bs := cands.Split(gi)
	fs := make([]Feedback, len(bs))
	states := make([]*State, len(bs))
	for i, b := range bs {
		fs[i] = b.Feedback
		states[i] = &State{rules: st.rules, rng: st.rng, turns: st.withTurn(Turn{g, b.Feedback})}
		states[i].cands.Store(b.Set)
	}
	return fs, states, nil
}
