package mastermind

import (
	"errors"
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

	cons atomic.Pointer[Constraints] // the turns as constraints, once asked for
	list atomic.Pointer[[]Code]      // the candidates of a large variant, once listed
	// witness is a code consistent with every turn, found when Play checked
	// a variant too large to enumerate; the zero Code if none is known.
	witness Code
}

// autoEnumerate is the largest space whose candidates Play keeps up to date
// unasked, so that it can report an inconsistent history at once.
const autoEnumerate = 1 << 20

// PlayEffort is the most search nodes Play spends looking for a code
// consistent with the turns of a variant too large to enumerate (see
// Constraints). Histories a strategy builds need a few dozen nodes; when
// the search gives up, Play accepts the turn unchecked.
const PlayEffort = 1 << 13

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
		s := sp.All()
		for _, t := range st.turns {
			if s, err = s.Filter(t.Guess, t.Feedback); err != nil {
				st.err = err
				return
			}
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
// 2²⁰ codes), nobody has called Candidates and they have not been listed
// (see Listed).
func (st *State) Remaining() int {
	if s := st.cands.Load(); s != nil {
		return s.Len()
	}
	if l := st.list.Load(); l != nil {
		return len(*l)
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
// g is a legal code, that f is a possible feedback and that some code is
// still consistent with every turn: the errors wrap ErrInvalidCode,
// ErrInvalidFeedback and ErrInconsistent, and ErrGameOver once the code has
// been found.
//
// Where the candidates are known (see Known: computed already, or a space
// of at most 2²⁰ codes), or have been listed (see ListCandidates), the
// check is exact. Otherwise Play searches the constraints of the turns (see
// Constraints) for a consistent code, with at most PlayEffort nodes; if
// that search neither finds one nor proves there is none, the turn is
// accepted unchecked. The search usually costs well under a millisecond:
// the code found last time is tried first, and histories a strategy plays
// are easy to search.
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
	if l := st.list.Load(); l != nil {
		var kept []Code
		for _, x := range *l {
			if Score(x, g) == f {
				kept = append(kept, x)
			}
		}
		if len(kept) == 0 {
			return nil, errNoCodeFits(g, f, len(next.turns))
		}
		next.list.Store(&kept)
		return next, nil
	}
	if !st.Known() {
		if err := next.check(st.witness); err != nil {
			return nil, err
		}
		return next, nil
	}
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
	return next, nil
}

// Constraints returns the turns as constraints on the secret, for
// searching variants too large to enumerate. They are built on first use.
func (st *State) Constraints() *Constraints {
	if c := st.cons.Load(); c != nil {
		return c
	}
	c, err := NewConstraints(st.rules, st.turns)
	if err != nil {
		// Play admits only legal guesses and possible feedbacks.
		panic("mastermind: " + err.Error())
	}
	st.cons.CompareAndSwap(nil, c)
	return st.cons.Load()
}

// Listed returns the candidates of a variant too large to enumerate, in
// lexicographic order, if they have been listed: by ListCandidates on this
// state or an earlier one of the game, whose list Play filters from turn to
// turn. The caller must not modify the slice.
func (st *State) Listed() ([]Code, bool) {
	if l := st.list.Load(); l != nil {
		return *l, true
	}
	return nil, false
}

// ListCandidates returns every code consistent with the turns, in
// lexicographic order, if there are at most most of them. Where the
// candidates are known (see Known: computed already, or a space of at most
// 2²⁰ codes) it reads them from Candidates; otherwise it returns the list
// already known (see Listed), or lists them with
// Constraints().Enumerate(most, effort) and keeps the list, so that Play
// keeps it up to date for the states that follow and later turns cost only
// a filter. The caller must not modify the slice.
//
// It fails with an error wrapping ErrTooLarge when there are more than most
// candidates, ErrSearchLimit when the search ran out of effort, and
// ErrInconsistent when no code fits; with the first two, a search returns
// the codes it found (not kept: they are not all the candidates).
func (st *State) ListCandidates(most, effort int) ([]Code, error) {
	if l, ok := st.Listed(); ok {
		if len(l) > most {
			return nil, fmt.Errorf("%w: %d candidates, more than %d", ErrTooLarge, len(l), most)
		}
		return l, nil
	}
	if st.Known() {
		s, err := st.Candidates()
		if err != nil {
			return nil, err
		}
		if s.Len() > most {
			return nil, fmt.Errorf("%w: %d candidates, more than %d", ErrTooLarge, s.Len(), most)
		}
		return s.Codes(), nil
	}
	l, err := st.Constraints().Enumerate(most, effort)
	if err != nil {
		return l, err
	}
	st.list.CompareAndSwap(nil, &l)
	return *st.list.Load(), nil
}

// check looks, with at most PlayEffort search nodes, for a code consistent
// with st's turns, starting from w, a code consistent with all turns but the
// last (or the zero Code). It records the code found as st's witness and
// fails with ErrInconsistent if the search proves that none exists.
func (st *State) check(w Code) error {
	t := st.turns[len(st.turns)-1]
	if w.Len() > 0 && Score(w, t.Guess) == t.Feedback {
		st.witness = w
		return nil
	}
	x, err := st.Constraints().Find(PlayEffort)
	switch {
	case err == nil:
		st.witness = x
	case errors.Is(err, ErrInconsistent):
		return err
	}
	return nil
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
