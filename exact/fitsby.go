package exact

import (
	"context"
	"fmt"
	"slices"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A FitsJournal keeps what FitsOpenings has proved, so that a search
// stopped midway resumes without proving it again: the parts found to keep
// within the limit, the second guesses found unable to keep a part within
// it, and the first guesses found unable to keep every part. A journal
// belongs to one state and one limit.
type FitsJournal interface {
	// Fits reports whether the codes that give f to first guess g are
	// known to keep within the limit: kept by Fit, or known otherwise
	// (a search of least totals that solved them within it).
	Fits(g mm.Code, f mm.Feedback) bool
	// Fit keeps that they do.
	Fit(g mm.Code, f mm.Feedback) error
	// Refuted reports whether second guess g2, played on the codes that
	// give f to g, was found unable to keep them within the limit.
	Refuted(g mm.Code, f mm.Feedback, g2 mm.Code) bool
	// Refute keeps that it was.
	Refute(g mm.Code, f mm.Feedback, g2 mm.Code) error
	// Beaten reports whether first guess g was found unable to keep
	// every code within the limit.
	Beaten(g mm.Code) bool
	// Beat keeps that it was.
	Beat(g mm.Code) error
}

// FitsSplit is the least number of codes a part must have for
// FitsOpenings to try its second guesses one by one, keeping each one
// refuted in the journal; smaller parts are searched whole (Fits).
const FitsSplit = 1000

// FitsOpenings is Fits, done first guess by first guess, part by part
// (the codes that give one answer to the first guess), and in parts of
// FitsSplit codes or more, second guess by second guess, each step kept
// in j: a search of hours can so be stopped and resumed, losing only the
// step under way. It answers as Fits does. A first guess keeps within
// depth if every part does; a part does if one of its second guesses
// keeps every class it leaves within the guesses left, which Fits' search
// decides. The parts of a first guess are tried largest first, as the
// largest is the likeliest not to fit, and its second guesses in the
// order of Openings.
func FitsOpenings(ctx context.Context, st *mm.State, depth int, opts *Options, j FitsJournal) (bool, error) {
	return fitsOpenings(ctx, st, depth, opts, j, FitsSplit)
}

// fitsOpenings is FitsOpenings, splitting parts of split codes or more by
// second guess.
func fitsOpenings(ctx context.Context, st *mm.State, depth int, opts *Options, j FitsJournal, split int) (bool, error) {
	sv, err := newFitter(st, depth, opts)
	if err != nil {
		return false, err
	}
	defer sv.Close()
	sv.s.byOpening = true
	if p := sv.opts.Progress; p != nil {
		stop := sv.s.report(p, sv.opts.ProgressEvery)
		defer stop()
	}
	if int(sv.s.p.levels[st.Remaining()]) > depth-st.Len() {
		return false, nil // too many codes for the guesses left to tell apart
	}
	openings, err := sv.Openings(st)
	if err != nil {
		return false, err
	}
	pegs := st.Rules().Pegs
	for k, g := range openings {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		if j.Beaten(g) {
			continue
		}
		gi, _ := sv.s.p.sp.Index(g)
		sv.s.news.set(int32(gi), k+1, len(openings), inf)
		fs, kids, err := st.Branch(g)
		if err != nil {
			return false, err
		}
		var parts []int
		for i := range kids {
			if !fs[i].Solved(pegs) {
				parts = append(parts, i)
			}
		}
		slices.SortStableFunc(parts, func(a, b int) int { return kids[b].Remaining() - kids[a].Remaining() })
		fits, done := true, 0
		for _, i := range parts {
			if j.Fits(g, fs[i]) {
				done++
				continue
			}
			sv.s.news.setPart(fs[i], kids[i].Remaining(), done, len(parts))
			ok, err := sv.fitsPart(ctx, kids[i], g, fs[i], j, split)
			if err != nil {
				return false, err
			}
			if !ok {
				fits = false
				break
			}
			if err := j.Fit(g, fs[i]); err != nil {
				return false, err
			}
			done++
		}
		if fits {
			return true, nil
		}
		if err := j.Beat(g); err != nil {
			return false, err
		}
	}
	return false, nil
}

// newFitter returns a solver of st in Fits' mode, within depth guesses in
// all: opts with MaxDepth set to depth, taking at each set the first guess
// that fits.
func newFitter(st *mm.State, depth int, opts *Options) (*Solver, error) {
	if depth <= st.Len() {
		return nil, fmt.Errorf("mastermind: within %d guesses, after %d played: want more", depth, st.Len())
	}
	o := Options{}
	if opts != nil {
		o = *opts
	}
	o.MaxDepth = depth
	sv, err := NewSolver(st, &o)
	if err != nil {
		return nil, err
	}
	sv.s.firstFit = true
	return sv, nil
}

// fitsPart reports whether some strategy keeps the candidates of kid, the
// codes that give f to g, within the solver's MaxDepth, trying its second
// guesses one by one if it has split codes or more.
func (sv *Solver) fitsPart(ctx context.Context, kid *mm.State, g mm.Code, f mm.Feedback, j FitsJournal, split int) (bool, error) {
	hist, set, limit, err := sv.node(kid)
	if err != nil {
		return false, err
	}
	if int(sv.s.p.levels[len(set)]) > limit {
		return false, nil
	}
	if len(set) < split {
		var stop halt
		w := sv.s.getWorker(ctx, &stop, hist)
		r := w.solve(set, key{}, limit, inf, 0)
		w.flush()
		sv.s.putWorker(w)
		return r.guess >= 0, ctx.Err()
	}
	seconds, err := sv.Openings(kid)
	if err != nil {
		return false, err
	}
	for k, g2 := range seconds {
		if j.Refuted(g, f, g2) {
			continue
		}
		gi, _ := sv.s.p.sp.Index(g2)
		sv.s.news.setNext(int32(gi), k+1, len(seconds))
		var stop halt
		w := sv.s.getWorker(ctx, &stop, hist)
		if p := sv.s.p; p.limited(len(set), limit) {
			// A class too large for the guesses left refutes g2 at
			// once, as it does in Fits' scan; not worth keeping. (try
			// would find it too, after hashing and looking up every
			// class: 7 x 4 after 1234 within 5, split at 40 codes,
			// took 0.58 s that way against 0.10 s.)
			if _, deepest := p.classes(set, int32(gi), int32(len(set)), true, false, w.frame(0)); int(deepest)+1 > limit {
				sv.s.putWorker(w)
				continue
			}
		}
		_, _, ok := w.try(set, int32(gi), limit, inf, 0)
		w.flush()
		sv.s.putWorker(w)
		if err := ctx.Err(); err != nil {
			return false, err
		}
		if ok {
			return true, nil
		}
		if err := j.Refute(g, f, g2); err != nil {
			return false, err
		}
	}
	return false, nil
}
