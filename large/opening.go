package large

import (
	"context"
	"math/rand/v2"
	"sync"

	mm "github.com/mastermind-toolkit/mastermind"
)

// Limits of the first guess's search.
const (
	// maxOpenings is the most openings, one per class, scored; beyond
	// that the first guess is climbed to from random codes.
	maxOpenings = 2000
	// openingTargets bounds the random codes the openings are scored
	// against; minOpeningTargets is the fewest, whatever the budget.
	openingTargets    = 20000
	minOpeningTargets = 1000
)

// An opening is the first guess of a variant under a budget, and the
// uniformly random codes it was chosen against.
type opening struct {
	guess   []uint8
	targets []uint8
}

type openingKey struct {
	rules  mm.Rules
	budget float64
}

// openings caches the first guesses: they depend only on the variant and
// the budget, since they are drawn with a source seeded by the variant.
var openings struct {
	sync.Mutex
	m map[openingKey]*opening
}

// openingOf returns the first guess for r under a budget of budget units:
// of the openings (Rules.Openings, one code per class of codes that renaming
// colours and permuting positions map onto each other), the one that best
// splits a uniform sample of every code; where there are too many openings,
// the best code climbed to from a few random ones. It is computed once per
// variant and budget, with a random source seeded by the variant, so every
// game of the variant opens alike.
func openingOf(ctx context.Context, r mm.Rules, budget float64) (*opening, error) {
	key := openingKey{r, budget}
	openings.Lock()
	o := openings.m[key]
	openings.Unlock()
	if o != nil {
		return o, nil
	}
	rng := rand.New(rand.NewPCG(uint64(r.Colors)<<32|uint64(r.Pegs), 0x09e2))
	if r.Distinct {
		rng = rand.New(rand.NewPCG(uint64(r.Colors)<<32|uint64(r.Pegs), 0xd15))
	}
	m := &meter{budget: budget}
	var pool []mm.Code
	if r.Distinct || partitions(r.Pegs, r.Colors, maxOpenings) <= maxOpenings {
		pool = r.Openings()
	}
	p := r.Pegs
	perTarget := costScore * float64(p+r.Colors) * float64(max(len(pool), 4*p))
	n := max(minOpeningTargets, min(openingTargets, int(m.budget/2/perTarget)))
	c, _ := NewConstraints(r, nil)
	w := newWalker(c, rng, m)
	codes, _ := w.random(nil, n, n)
	t := newTargets(p, r.Colors, codes, false)
	var best *guessState
	if pool != nil {
		var buf []uint8
		for _, g := range pool {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			s := &guessState{}
			t.score(s, appendCode(buf[:0], g), false)
			if best == nil || s.better(best) {
				best = s
			}
		}
	} else {
		// Climb from a few random codes; the classes of openings are too
		// many to score one by one.
		starts, _ := w.random(nil, maxStarts, maxStarts)
		for i := 0; i < maxStarts; i++ {
			s := &guessState{}
			t.score(s, starts[i*p:(i+1)*p], false)
			for {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				mv, cost, ok := t.bestMove(s, r.Distinct, m, rng)
				if !ok || m.left() <= 0 {
					break
				}
				t.apply(s, mv, cost)
			}
			if best == nil || s.better(best) {
				best = s
			}
		}
	}
	n = min(n, maxPool)
	o = &opening{guess: best.g, targets: codes[: n*p : n*p]}
	openings.Lock()
	if openings.m == nil {
		openings.m = make(map[openingKey]*opening)
	}
	if old := openings.m[key]; old != nil {
		o = old
	}
	openings.m[key] = o
	openings.Unlock()
	return o, nil
}

// partitions returns the number of ways to write n as a sum of at most k
// parts, in decreasing order — the number of Rules.Openings — or more than
// most if it exceeds most.
func partitions(n, k, most int) int {
	// q[j] counts the partitions of j into parts of at most i, for i up
	// to k (conjugation: at most k parts is parts of at most k).
	q := make([]int, n+1)
	q[0] = 1
	for i := 1; i <= k && i <= n; i++ {
		for j := i; j <= n; j++ {
			q[j] = min(q[j]+q[j-i], most+1)
		}
	}
	return q[n]
}
