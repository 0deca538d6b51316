package strategy

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	mm "github.com/mastermind-toolkit/mastermind"
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
// code. Only one guess of each symmetry class is listed. The variant must be
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
	pool := guessPool(st, s, consistentOnly)
	sp := s.Space()
	counts := make([]uint32, sp.Keys())
	picks := make([]pick, len(pool))
	for i, g := range pool {
		clear(counts)
		s.Count(g, counts)
		picks[i] = pick{ok: true, cons: counts[sp.SolvedKey()] != 0, score: obj.score(counts), index: g}
	}
	order := func(a, b pick) int {
		if a.better(b, obj.tol) {
			return -1
		}
		if b.better(a, obj.tol) {
			return 1
		}
		return cmp.Compare(a.index, b.index)
	}
	if k >= 1 && k < len(picks)/8 {
		// A few of many: keep the best k in order as the picks go by.
		top := make([]pick, 0, k+1)
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
	out := make([]Scored, 0, min(k, len(picks)))
	for _, p := range picks[:min(k, len(picks))] {
		clear(counts)
		s.Count(p.index, counts)
		out = append(out, describe(sp.Code(p.index), counts, s.Len(), p.cons))
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
