package engine

import (
	"context"
	"math"
	"slices"
	"sync"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/symmetry"
)

// A Sample bounds the guesses a Chooser scores at a node, for spaces too
// large to score every code at every node (8 × 8 has 16 777 216). It
// scores the candidates, one per class of the history's symmetries, evenly
// thinned to max(16, Work/n) of them at a node of n candidates; then, where
// a code that cannot be the secret most often splits best, the codes one
// peg away from the best Top of them — from every one at nodes of at most
// Mutate candidates, and at nodes of at most Near of those, the codes one
// peg away from these in turn — keeping one per class; then, up to Climb
// times, the codes one peg away from the best so far, while that improves.
// With distinct colours, or a ConsistentOnly chooser, it scores the
// candidates alone.
type Sample struct {
	Work   int64
	Top    int
	Mutate int
	Near   int
	Climb  int
}

// On reports whether the sample rule is in force.
func (s Sample) On() bool { return s.Work > 0 }

// chooseSampled is choose under ch.Sample.
func (ch *Chooser) chooseSampled(ctx context.Context, wk *worker, members []uint32, history []mm.Code, workers int) (int, error) {
	v := ch.V
	n := len(members)
	sm := ch.Sample
	grp := symmetry.New(v.rules, history).Exclude(^v.held(members))
	if cap(wk.x) < v.P {
		wk.x = make([]uint8, v.P)
	}
	x := wk.x[:v.P]
	if words := (v.sp.Len() + 63) / 64; len(wk.cons) < words {
		wk.cons = make([]uint64, words)
	}
	guesses := wk.guesses[:0]
	for i, c := range members {
		if i%(1<<20) == 0 && i > 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
		v.digits(int(c), x)
		if grp.Canonical(x) {
			guesses = append(guesses, int32(c))
		}
	}
	// Thin the candidates evenly: the i-th kept is the (i·m/limit)-th.
	if m, limit := len(guesses), int(max(16, sm.Work/int64(n))); m > limit {
		for i := range limit {
			guesses[i] = guesses[i*m/limit]
		}
		guesses = guesses[:limit]
	}
	wk.set.load(v, members)
	if v.rules.Distinct || ch.ConsistentOnly {
		wk.guesses = guesses
		best, err := ch.scoreKept(ctx, wk, guesses, workers)
		return best.Index, err
	}
	var best Pick
	var err error
	if k := len(guesses); n <= sm.Mutate {
		guesses = ch.mutants(wk, grp, guesses, x, 0)
		if n <= sm.Near {
			guesses = ch.mutants(wk, grp, guesses, x, k)
		}
		wk.guesses = guesses
		best, err = ch.scoreKept(ctx, wk, guesses, workers)
	} else if sm.Top <= 0 {
		wk.guesses = guesses
		best, err = ch.scoreKept(ctx, wk, guesses, workers)
	} else {
		// Rank the candidates, then add the codes near the best.
		picks := wk.picks[:0]
		best, err = ch.scoreList(ctx, wk, guesses, workers, &picks)
		wk.picks = picks
		if wk.ranking {
			wk.ranked = append(wk.ranked, picks...)
		}
		if t := min(sm.Top, len(picks)); err == nil && t > 0 {
			slices.SortFunc(picks, func(a, b Pick) int {
				switch {
				case a.Index == b.Index:
					return 0
				case a.Better(b, 0):
					return -1
				}
				return 1
			})
			for _, g := range guesses {
				wk.cons[g>>6] |= 1 << (g & 63)
			}
			for _, p := range picks[:t] {
				guesses = append(guesses, int32(p.Index))
			}
			guesses = ch.mutants(wk, grp, guesses, x, k)
			wk.guesses = guesses
			var b Pick
			b, err = ch.scoreKept(ctx, wk, guesses[k+t:], workers)
			if b.Better(best, ch.Obj.Tol()) {
				best = b
			}
		}
	}
	for r := 0; r < sm.Climb && err == nil; r++ {
		from := len(guesses)
		guesses = append(guesses, int32(best.Index))
		guesses = ch.mutants(wk, grp, guesses, x, from)
		wk.guesses = guesses
		if len(guesses) == from+1 {
			break
		}
		var b Pick
		b, err = ch.scoreKept(ctx, wk, guesses[from+1:], workers)
		if !b.Better(best, ch.Obj.Tol()) {
			break
		}
		best = b
	}
	for _, g := range guesses {
		wk.cons[g>>6] = 0
	}
	return best.Index, err
}

// mutants returns guesses with, after them, every code one peg away from
// one of guesses[from:] that is the lowest of its class under grp and not
// already marked in wk.cons, in the order met; it marks guesses[from:]
// and the codes it adds, for the caller to clear.
func (ch *Chooser) mutants(wk *worker, grp *symmetry.Group, guesses []int32, x []uint8, from int) []int32 {
	v := ch.V
	seen := wk.cons
	for _, g := range guesses[from:] {
		seen[g>>6] |= 1 << (g & 63)
	}
	cands := len(guesses)
	for _, g := range guesses[from:cands] {
		v.digits(int(g), x)
		weight := 1
		for j := v.P - 1; j >= 0; j-- {
			peg := x[j]
			for k := range v.C {
				if k == int(peg) {
					continue
				}
				m := int32(int(g) + (k-int(peg))*weight)
				if seen[m>>6]&(1<<(m&63)) != 0 {
					continue
				}
				x[j] = uint8(k)
				if grp.Canonical(x) {
					seen[m>>6] |= 1 << (m & 63)
					guesses = append(guesses, m)
				}
			}
			x[j] = peg
			weight *= v.C
		}
	}
	return guesses
}

// digits writes the colours of code i, from 0, to x.
func (v *Variant) digits(i int, x []uint8) {
	if v.off != nil {
		// Peg j's position offset is j·C plus its colour.
		off := v.off[i*2*v.P : i*2*v.P+len(x)]
		for j := range x {
			x[j] = off[j] - uint8(j*v.C)
		}
		return
	}
	code := v.sp.Code(i)
	for j := range x {
		x[j] = uint8(code.Peg(j))
	}
}

// scoreKept is scoreList, keeping every guess's Pick in wk.ranked when
// wk.ranking is set.
func (ch *Chooser) scoreKept(ctx context.Context, wk *worker, guesses []int32, workers int) (Pick, error) {
	if !wk.ranking {
		return ch.scoreList(ctx, wk, guesses, workers, nil)
	}
	picks := wk.scored[:0]
	best, err := ch.scoreList(ctx, wk, guesses, workers, &picks)
	wk.scored = picks
	wk.ranked = append(wk.ranked, picks...)
	return best, err
}

// scoreList returns the best of guesses against the set loaded in wk, as
// scan ranks them, and, if all is not nil, every guess's Pick in it, each
// scored in full; a large list is shared among up to workers goroutines,
// in fixed chunks, so that the choice does not depend on their number.
func (ch *Chooser) scoreList(ctx context.Context, wk *worker, guesses []int32, workers int, all *[]Pick) (Pick, error) {
	s := &wk.set
	o, bonus := ch.Obj, ch.Bonus
	tol := o.Tol()
	margin := 4*tol + bonus
	const chunk = 256
	big := len(s.members) >= 1<<16
	chunks := (len(guesses) + chunk - 1) / chunk
	if len(guesses)*len(s.members) < parallelCost {
		workers = 1
	}
	results := make([]Pick, chunks)
	var scored []Pick
	if all != nil {
		// Every guess is scored in full, for a ranking.
		scored = slices.Grow((*all)[:0], len(guesses))[:len(guesses)]
		*all = scored
		margin = math.MaxInt64 / 4
	}
	var mu sync.Mutex
	best := int64(math.MaxInt64)
	next := 0
	work := func(sc *scratch) {
		sc.ready(s)
		sc.mend = true
		for {
			mu.Lock()
			c, low := next, best
			next++
			mu.Unlock()
			if c >= chunks || ctx.Err() != nil {
				return
			}
			var top Pick
			for i, g := range guesses[c*chunk : min(len(guesses), (c+1)*chunk)] {
				// A guess against a large set takes milliseconds: a
				// chunk of them, seconds.
				if big && ctx.Err() != nil {
					return
				}
				limit := int64(math.MaxInt64)
				if low != math.MaxInt64 && scored == nil {
					limit = low + margin
				}
				score, cons, ok := sc.score(s, int(g), o, limit)
				if !ok {
					continue
				}
				p := Pick{OK: true, Cons: cons, Score: score, Index: int(g)}
				if cons {
					p.Score -= bonus
				}
				if scored != nil {
					scored[c*chunk+i] = p
				}
				if p.Better(top, tol) {
					top = p
				}
				low = min(low, p.Score)
			}
			results[c] = top
			mu.Lock()
			best = min(best, low)
			mu.Unlock()
		}
	}
	if workers <= 1 {
		work(&wk.sc)
	} else {
		var wg sync.WaitGroup
		for len(wk.more) < workers-1 {
			wk.more = append(wk.more, &scratch{})
		}
		for _, sc := range wk.more[:workers-1] {
			wg.Go(func() { work(sc) })
		}
		work(&wk.sc)
		wg.Wait()
	}
	if err := ctx.Err(); err != nil {
		return Pick{}, err
	}
	var top Pick
	for _, p := range results {
		if p.Better(top, tol) {
			top = p
		}
	}
	return top, nil
}
