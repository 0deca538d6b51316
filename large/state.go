package large

import (
	"context"
	"errors"
	"fmt"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/consist"
)

// What the package keeps on a game's states (mm.State.Attach): the turns as
// Constraints, built once per state; the candidates once listed, which Play
// filters from turn to turn; and, on states that Check watches, a code that
// fits every answer.
type (
	consKey  struct{}
	listKey  struct{}
	watchKey struct{}
)

// consMemo holds a state's constraints; they describe that state only.
type consMemo struct{ c *Constraints }

func (*consMemo) Follow(*mm.State) (mm.Follower, error) { return nil, nil }

// ConstraintsOf returns the turns of st as constraints on the secret, built
// on first use and kept on st.
func ConstraintsOf(st *mm.State) *Constraints {
	if m, ok := st.Attached(consKey{}).(*consMemo); ok {
		return m.c
	}
	c, err := NewConstraints(st.Rules(), st.Turns())
	if err != nil {
		// Play admits only legal guesses and possible feedbacks.
		panic("large: " + err.Error())
	}
	return st.Attach(consKey{}, &consMemo{c}).(*consMemo).c
}

// A list is the candidates of a variant too large to enumerate, listed once
// and filtered by each turn that follows.
type list struct {
	pegs  int
	codes []uint8 // flat, in lexicographic order
}

// Follow keeps the listed codes that give the new turn's feedback, and
// fails with mm.ErrInconsistent when none does.
func (l *list) Follow(next *mm.State) (mm.Follower, error) {
	t := next.Turn(next.Len() - 1)
	var g [mm.MaxPegs]uint8
	gb := appendCode(g[:0], t.Guess)
	kept := filter(l.codes, l.pegs, gb, t.Feedback)
	if len(kept) == 0 {
		return nil, errNoCodeFits(t.Guess, t.Feedback, next.Len())
	}
	return &list{pegs: l.pegs, codes: kept}, nil
}

// Remaining returns the number of codes listed.
func (l *list) Remaining() int { return len(l.codes) / l.pegs }

// filter returns the codes of flat that give feedback f to guess g.
func filter(flat []uint8, pegs int, g []uint8, f mm.Feedback) []uint8 {
	var gn [mm.MaxColors]int16
	for _, k := range g {
		gn[k]++
	}
	var out []uint8
	for i := 0; i+pegs <= len(flat); i += pegs {
		if score(flat[i:i+pegs], g, &gn) == f {
			out = append(out, flat[i:i+pegs]...)
		}
	}
	return out
}

// score returns the feedback between codes x and g, given g's colour counts.
func score(x, g []uint8, gn *[mm.MaxColors]int16) mm.Feedback {
	var xn [mm.MaxColors]int16
	b := 0
	for j, k := range x {
		xn[k]++
		if g[j] == k {
			b++
		}
	}
	tot := 0
	for _, k := range x {
		if xn[k] > 0 {
			tot += int(min(xn[k], gn[k]))
			xn[k] = 0
		}
	}
	return mm.Feedback{Black: b, White: tot - b}
}

// Listed returns the candidates of a variant too large to enumerate, in
// lexicographic order, if they have been listed: by ListCandidates on st or
// an earlier state of the game, whose list Play filters from turn to turn.
func Listed(st *mm.State) ([]mm.Code, bool) {
	if l, ok := st.Attached(listKey{}).(*list); ok {
		return toCodes(l.codes, l.pegs), true
	}
	return nil, false
}

// listed is Listed, flat.
func listed(st *mm.State) ([]uint8, bool) {
	if l, ok := st.Attached(listKey{}).(*list); ok {
		return l.codes, true
	}
	return nil, false
}

// ListCandidates returns every code consistent with the turns of st, in
// lexicographic order, if there are at most most of them. Where the
// candidates are known (mm.State.Known) it reads them from Candidates;
// otherwise it returns the list already kept (see Listed), or lists them
// with ConstraintsOf(st).Enumerate(most, effort) and keeps the list on st,
// so that Play keeps it up to date for the states that follow and later
// turns cost only a filter.
//
// It fails with an error wrapping mm.ErrTooLarge when there are more than
// most candidates, ErrSearchLimit when the search ran out of effort, and
// mm.ErrInconsistent when no code fits; with the first two, a search
// returns the codes it found (not kept: they are not all the candidates).
func ListCandidates(st *mm.State, most, effort int) ([]mm.Code, error) {
	flat, _, err := listCandidates(context.Background(), st, most, effort)
	return toCodes(flat, st.Rules().Pegs), err
}

// listCandidates is ListCandidates, flat; it also returns the search nodes
// spent, and stops with ctx.Err() soon after ctx is done.
func listCandidates(ctx context.Context, st *mm.State, most, effort int) ([]uint8, int, error) {
	pegs := st.Rules().Pegs
	tooMany := func(n int) error {
		return fmt.Errorf("%w: %d candidates, more than %d", mm.ErrTooLarge, n, most)
	}
	if l, ok := listed(st); ok {
		if n := len(l) / pegs; n > most {
			return nil, 0, tooMany(n)
		}
		return l, 0, nil
	}
	if st.Known() {
		s, err := st.Candidates()
		if err != nil {
			return nil, 0, err
		}
		if s.Len() > most {
			return nil, 0, tooMany(s.Len())
		}
		return flatten(s.Codes(), pegs), 0, nil
	}
	l, nodes, err := ConstraintsOf(st).enumerate(ctx, most, effort)
	if err != nil {
		return l, nodes, err
	}
	kept := st.Attach(listKey{}, &list{pegs: pegs, codes: l}).(*list)
	return kept.codes, nodes, nil
}

// PlayEffort is the most search nodes a watched state's Play spends looking
// for a code consistent with the turns (see Watch). Histories a strategy
// builds need a few dozen nodes.
const PlayEffort = 1 << 13

// A witness is a code known to fit every turn of the state it is attached
// to, or none.
type witness struct {
	code mm.Code
	ok   bool
}

// Watch returns st with a check attached: from then on, on a variant too
// large to enumerate, Play looks for a code that fits every answer so far,
// with at most PlayEffort search nodes, then, if that search gives up,
// with the complete solver (consist.Witness, kept on the game) within
// about WatchTime of work, and fails with an error wrapping
// mm.ErrInconsistent when either proves that none does. A check that
// gives up accepts the turn. It usually costs well under a millisecond:
// the code found last time is tried first, and histories a strategy plays
// are easy to search. Variants that can be enumerated need no watch: Play
// checks them exactly.
func Watch(st *mm.State) *mm.State {
	if !st.Known() {
		st.Attach(watchKey{}, &witness{})
	}
	return st
}

// Follow checks next's turns: the witness if it still fits, else a search.
func (w *witness) Follow(next *mm.State) (mm.Follower, error) {
	t := next.Turn(next.Len() - 1)
	if w.ok && mm.Score(w.code, t.Guess) == t.Feedback {
		return w, nil
	}
	x, err := ConstraintsOf(next).Find(PlayEffort)
	if errors.Is(err, ErrSearchLimit) {
		x, err = consist.Witness(context.Background(), next, WatchConflicts(next.Rules()))
	}
	switch {
	case err == nil:
		return &witness{code: x, ok: true}, nil
	case errors.Is(err, mm.ErrInconsistent):
		return nil, err
	}
	return &witness{}, nil
}

// WatchTime is about the most time a watched state's Play gives the
// complete solver, turned into conflicts by WatchConflicts.
const WatchTime = time.Second

// WatchConflicts returns the conflicts the complete solver may spend on
// checking a turn of r: about WatchTime's worth (consist.ConflictNanos),
// so that a game stays reproducible.
func WatchConflicts(r mm.Rules) int64 {
	return int64(float64(WatchTime) / consist.ConflictNanos(r))
}
