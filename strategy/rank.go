package strategy

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/engine"
)

// A Scored is a guess with the figures the scoring strategies judge it by:
// how it would split the candidates.
type Scored struct {
	Guess      mm.Code
	Consistent bool    // the guess could be the secret
	Parts      int     // classes the candidates fall into
	Largest    int     // size of the largest class
	Expected   float64 // expected size of the class the secret falls in, Σ n²/N
	Entropy    float64 // entropy of the partition, in bits
}

// Rank returns the k best guesses for st under the named scoring strategy
// (knuth, expected-size, entropy or most-parts), best first, by the same
// rule the strategy plays: its score, then a consistent code, then the lowest
// code. Only one guess of each symmetry class is listed (codes that differ
// only in colours no candidate holds are one class). The variant must be
// enumerable.
func Rank(st *mm.State, name string, k int, consistentOnly bool) ([]Scored, error) {
	var obj objective
	switch name {
	case "knuth":
		obj = minimax
	case "expected-size":
		obj = expectedSize
	case "entropy":
		obj = entropy
	case "most-parts":
		obj = mostParts
	default:
		return nil, fmt.Errorf("mastermind: %q does not score guesses; use knuth, expected-size, entropy or most-parts", name)
	}
	s, err := candidates(st, name, MaxHeuristicSpace)
	if err != nil {
		return nil, err
	}
	sp := s.Space()
	ch := chooser(sp, obj, consistentOnly)
	in := members(s)
	picks, err := ch.ScoreAll(context.Background(), in, ch.Pool(in, history(st)))
	if err != nil {
		return nil, err
	}
	tol := obj.obj.Tol()
	order := func(a, b engine.Pick) int {
		if a.Better(b, tol) {
			return -1
		}
		if b.Better(a, tol) {
			return 1
		}
		return cmp.Compare(a.Index, b.Index)
	}
	if k >= 1 && k < len(picks)/8 {
		// A few of many: keep the best k in order as the picks go by.
		top := make([]engine.Pick, 0, k+1)
		for _, p := range picks {
			if len(top) == k && order(p, top[k-1]) >= 0 {
				continue
			}
			i, _ := slices.BinarySearchFunc(top, p, order)
			top = slices.Insert(top, i, p)
			if len(top) > k {
				top = top[:k]
			}
		}
		picks = top
	} else {
		slices.SortStableFunc(picks, order)
	}
	counts := make([]uint32, ch.V.Keys())
	out := make([]Scored, 0, min(k, len(picks)))
	for _, p := range picks[:min(k, len(picks))] {
		clear(counts)
		ch.V.Counts(p.Index, in, counts)
		out = append(out, describe(sp.Code(p.Index), counts, s.Len(), p.Cons))
	}
	return out, nil
}

func describe(g mm.Code, counts []uint32, n int, cons bool) Scored {
	sc := Scored{Guess: g, Consistent: cons}
	sq, ent := 0.0, 0.0
	for _, c := range counts {
		if c == 0 {
			continue
		}
		sc.Parts++
		sc.Largest = max(sc.Largest, int(c))
		f := float64(c)
		sq += f * f
		p := f / float64(n)
		ent -= p * math.Log2(p)
	}
	sc.Expected = sq / float64(n)
	sc.Entropy = ent
	return sc
}
