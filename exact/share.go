package exact

import (
	"context"
	"errors"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A Part is a unit of a search by first guess (SolveOpenings) before it is
// solved: the Size codes that give Feedback to first guess Guess.
type Part struct {
	Guess    mm.Code
	Feedback mm.Feedback
	Size     int
}

// A Share is the part of a search by first guess that one of several
// processes solves (SolveShare).
type Share struct {
	// Mine reports whether the k-th unit of Parts is this process's.
	Mine func(k int) bool
	// Bound, if not 0, is the total of a strategy known to exist
	// within Options.MaxDepth: a first guess whose units cannot total
	// at most Bound is given up without solving them all. A bound below
	// the least total gives every first guess up.
	Bound int
	// Refresh, if not nil, is called before each unit: the journal may
	// so read what the other processes have kept meanwhile.
	Refresh func() error
	// Solved, if not nil, is called after each unit this process keeps.
	Solved func(u Unit)
}

// Parts lists the units of the search by first guess of st within
// opts.MaxDepth: under each first guess, in the order of Openings, the
// classes of codes it leaves and does not win, in the order of
// st.Branch. Processes that share a search out (SolveShare) number the
// units by this list. Where no guess is left within MaxDepth after the
// first, there are none: SolveOpenings gives every first guess up at once.
func Parts(st *mm.State, opts *Options) ([]Part, error) {
	o := Options{}
	if opts != nil {
		o = *opts
	}
	o.Memory = 64 << 10 // Openings searches nothing: the smallest table
	o.Progress = nil
	sv, err := NewSolver(st, &o)
	if err != nil {
		return nil, err
	}
	defer sv.Close()
	ps, _, err := sv.parts(st)
	return ps, err
}

// parts is Parts, with each part's state.
func (sv *Solver) parts(st *mm.State) ([]Part, []*mm.State, error) {
	if d := sv.opts.MaxDepth; d > 0 && st.Len()+1 >= d {
		return nil, nil, nil
	}
	openings, err := sv.Openings(st)
	if err != nil {
		return nil, nil, err
	}
	pegs := st.Rules().Pegs
	var (
		ps  []Part
		sts []*mm.State
	)
	for _, g := range openings {
		fs, kids, err := st.Branch(g)
		if err != nil {
			return nil, nil, err
		}
		for i, kid := range kids {
			if !fs[i].Solved(pegs) {
				ps = append(ps, Part{Guess: g, Feedback: fs[i], Size: kid.Remaining()})
				sts = append(sts, kid)
			}
		}
	}
	return ps, sts, nil
}

// Missing returns the units of the search by first guess of st within
// opts.MaxDepth that j lacks, under the first guesses j does not list as
// given up. When there are none, SolveOpenings with j solves nothing.
func Missing(st *mm.State, opts *Options, j Journal) ([]Part, error) {
	ps, err := Parts(st, opts)
	if err != nil {
		return nil, err
	}
	var out []Part
	for _, p := range ps {
		if j.Beaten(p.Guess) {
			continue
		}
		if _, ok := j.Unit(p.Guess, p.Feedback); !ok {
			out = append(out, p)
		}
	}
	return out, nil
}

// SolveShare solves the units of the search by first guess of st that
// sh picks and keeps them in j, so that several processes, each with its
// share and a journal that sees the others' units, together do the work
// of SolveOpenings; SolveOpenings with that journal then only adds the
// units up. Each process tries its units in the order of Parts and skips
// those of a first guess that j lists as given up, by this process or
// another. A first guess is given up when some unit of it has no
// strategy within opts.MaxDepth, or, with sh.Bound, cannot cost what the
// bound leaves it: the bound less the first guesses and the least the
// other units can cost (their totals if kept, their floors (Floorer) or
// counting bounds if not). The given-up guesses cost more than a known
// strategy, so the optimum and SolveOpenings' choice among strategies of
// the least total are the same as the search's alone. It returns the
// units this process kept.
func SolveShare(ctx context.Context, st *mm.State, opts *Options, j Journal, sh Share) (int, error) {
	sv, err := NewSolver(st, opts)
	if err != nil {
		return 0, err
	}
	defer sv.Close()
	sv.s.byOpening = true
	if sv.opts.Progress != nil {
		stop := sv.s.report(sv.opts.Progress, sv.opts.ProgressEvery)
		defer stop()
	}
	ps, sts, err := sv.parts(st)
	if err != nil {
		return 0, err
	}
	n := st.Remaining()
	kept := 0
	for k, p := range ps {
		if sh.Mine != nil && !sh.Mine(k) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return kept, err
		}
		if sh.Refresh != nil {
			if err := sh.Refresh(); err != nil {
				return kept, err
			}
		}
		if j.Beaten(p.Guess) {
			continue
		}
		if _, ok := j.Unit(p.Guess, p.Feedback); ok {
			continue
		}
		gi, _ := sv.s.p.sp.Index(p.Guess)
		sv.s.news.set(int32(gi), k+1, len(ps), int32(sh.Bound))
		if sh.Bound > 0 {
			room := sh.Bound - n
			for i, q := range ps {
				if i == k || q.Guess != p.Guess {
					continue
				}
				if u, ok := j.Unit(q.Guess, q.Feedback); ok {
					room -= u.Total
				} else {
					room -= floor(j, q.Guess, q.Feedback, int(sv.s.p.fill[q.Size]))
				}
			}
			below := room >= floor(j, p.Guess, p.Feedback, int(sv.s.p.fill[p.Size]))
			if below {
				if _, below, err = sv.Cost(ctx, sts[k], room+1); err != nil {
					return kept, err
				}
			}
			if !below {
				if err := j.Beat(p.Guess); err != nil {
					return kept, err
				}
				continue
			}
		}
		res, err := sv.Solve(ctx, sts[k])
		if errors.Is(err, ErrDepth) {
			if err := j.Beat(p.Guess); err != nil {
				return kept, err
			}
			continue
		}
		if err != nil {
			return kept, err
		}
		u := Unit{Guess: p.Guess, Feedback: p.Feedback, Total: res.Total, Depth: res.Depth, Tree: res.Tree}
		if err := j.Solved(u); err != nil {
			return kept, err
		}
		kept++
		if sh.Solved != nil {
			sh.Solved(u)
		}
	}
	return kept, nil
}
