//go:build diag && linux

// Diagnostics of the sampler's play, not tests: they print what they
// measure and fail only on errors. Run one at a time, as
//
//	go test -tags diag -v -run TestDiagSample ./large/ -diag.n 15 -diag.games 3 -diag.most 150000
//	go test -tags diag -v -run TestDiagTurns ./large/ -diag.n 20 -diag.games 6
//	go test -tags diag -v -run TestDiagEarly ./large/ -diag.n 15 -diag.games 2
//
// with -large.budget (BenchmarkGames's flag) for another budget than the
// default. BENCHMARKS.md ("Spaces too large to enumerate") quotes them.

package large

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

var (
	diagN     = flag.Int("diag.n", 12, "diagnostics: pegs and colours")
	diagGames = flag.Int("diag.games", 2, "diagnostics: seeded games played")
	diagMost  = flag.Int("diag.most", 1<<20, "diagnostics: most candidates listed")
)

// entropyBits returns the entropy, in bits, of g's split of the flat codes.
func entropyBits(codes []uint8, p int, g []uint8) float64 {
	var gn [mm.MaxColors]int16
	for _, k := range g {
		gn[k]++
	}
	cnt := map[mm.Feedback]int{}
	n := len(codes) / p
	for i := range n {
		cnt[score(codes[i*p:(i+1)*p], g, &gn)]++
	}
	h := 0.0
	for _, c := range cnt {
		q := float64(c) / float64(n)
		h -= q * math.Log2(q)
	}
	return h
}

// posTV returns the total variation distance between the colour
// frequencies of a and b at each position, averaged over the positions.
func posTV(a, b []uint8, p, k int) float64 {
	fa, fb := make([]float64, p*k), make([]float64, p*k)
	for i, x := range a {
		fa[(i%p)*k+int(x)] += float64(p) / float64(len(a))
	}
	for i, x := range b {
		fb[(i%p)*k+int(x)] += float64(p) / float64(len(b))
	}
	s := 0.0
	for i := range fa {
		s += math.Abs(fa[i] - fb[i])
	}
	return s / 2 / float64(p)
}

// subsample returns n of the flat codes drawn without replacement, or all.
func subsample(all []uint8, p, n int, rng *rand.Rand) []uint8 {
	var out []uint8
	for _, i := range rng.Perm(len(all) / p)[:min(n, len(all)/p)] {
		out = append(out, all[i*p:(i+1)*p]...)
	}
	return out
}

// diagGame plays seeded game i of the sampler on n × n at the benchmark's
// budget, calling each with the state before every guess and the guess.
func diagGame(t *testing.T, n, i int, each func(st *mm.State, g mm.Code)) int {
	r := mm.Rules{Colors: n, Pegs: n}
	secret := mm.RandomCode(r, rand.New(rand.NewPCG(uint64(i), 1)))
	st, err := mm.NewState(r, rand.New(rand.NewPCG(uint64(i), 2)))
	if err != nil {
		t.Fatal(err)
	}
	for turn := 1; ; turn++ {
		g, err := Sampler{Budget: *budget}.Guess(st)
		if err != nil {
			t.Fatal(err)
		}
		each(st, g)
		f := mm.Score(secret, g)
		if f.Solved(n) {
			return turn
		}
		if st, err = st.Play(g, f); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDiagSample plays seeded games and, on every turn whose candidates
// can be listed, compares the sample the sampler played against with the
// exact list: the colour frequencies at each position (total variation
// distance, against that of a uniform sample of the same size, the noise
// of sampling), and the entropy of the guess played, on the sample (what
// the climb saw), on a fresh uniform sample of the same size (the winner's
// curse is the difference) and on the list (the truth), against the true
// entropy of the guess the climb finds on a uniform sample of the same
// size, and on every candidate (or eight times the codes, past 20000) with
// four times the budget.
func TestDiagSample(t *testing.T) {
	n := *diagN
	r := mm.Rules{Colors: n, Pegs: n}
	ctx := context.Background()
	for game := range *diagGames {
		aux := rand.New(rand.NewPCG(uint64(game), 99))
		var all []uint8
		guesses := diagGame(t, n, game, func(st *mm.State, g mm.Code) {
			if st.Len() == 0 {
				return
			}
			// The sampler attached to st what the guess was chosen against.
			c := ConstraintsOf(st)
			var err error
			if all, _, err = c.enumerate(ctx, *diagMost, 1<<26); err != nil {
				t.Logf("game %d turn %d: not listed (%v)", game, st.Len()+1, err)
				return
			}
			kind, smp := "sample", []uint8(nil)
			if l, ok := listed(st); ok {
				kind, smp = "listed", l
			} else if pl, ok := st.Attached(poolKey{}).(*pool); ok {
				smp = pl.codes
			}
			if len(smp) == 0 {
				return
			}
			gb := appendCode(nil, g)
			N, m := len(all)/n, len(smp)/n
			uni := subsample(all, n, m, aux)
			fresh := subsample(all, n, m, aux)
			fits := func(x []uint8) bool { return c.fits(x) }
			b := float64(DefaultBudgetFor(r))
			if *budget > 0 {
				b = float64(*budget)
			}
			g2, _ := climb(ctx, newTargets(n, n, uni, false), r, &meter{budget: b * (1 - sampleShare)}, aux, fits)
			big, bigAll := subsample(all, n, 8*m, aux), false
			if N <= 20000 {
				big, bigAll = all, true
			}
			g3, _ := climb(ctx, newTargets(n, n, big, bigAll), r, &meter{budget: 4 * b}, aux, fits)
			t.Logf("game %d turn %d: %d candidates (%.1f bits), %s of %d: TV %.3f (uniform %.3f); "+
				"guess (consistent %v): %.3f bits on the sample, %.3f fresh, %.3f true; climb on uniform %.3f, on more %.3f",
				game, st.Len()+1, N, math.Log2(float64(N)), kind, m, posTV(smp, all, n, n), posTV(uni, all, n, n),
				c.fits(gb), entropyBits(smp, n, gb), entropyBits(fresh, n, gb), entropyBits(all, n, gb),
				entropyBits(all, n, g2), entropyBits(all, n, g3))
		})
		t.Logf("game %d: %d guesses", game, guesses)
	}
}

// TestDiagTurns prints, per turn of seeded games, log₂ of the candidates
// that the sample estimates and the sample's size (L and the count where
// the candidates were listed, X where no consistent code was found and a
// near miss played; c marks a guess that could be the secret).
func TestDiagTurns(t *testing.T) {
	n := *diagN
	sum := 0
	for game := range *diagGames {
		line := ""
		guesses := diagGame(t, n, game, func(st *mm.State, g mm.Code) {
			pl, _ := st.Attached(poolKey{}).(*pool)
			switch l, ok := listed(st); {
			case ok:
				line += fmt.Sprintf(" L%d", len(l)/n)
			case pl != nil && pl.closest != nil:
				line += " X"
			case pl != nil:
				est := math.Log2(pl.frac) + float64(n)*math.Log2(float64(n))
				line += fmt.Sprintf(" %.1f/%d", est, len(pl.codes)/n)
			}
			if st.Len() > 0 && ConstraintsOf(st).fits(appendCode(nil, g)) {
				line += "c"
			}
		})
		sum += guesses
		t.Logf("game %d, %d guesses:%s", game, guesses, line)
	}
	t.Logf("mean %.2f guesses", float64(sum)/float64(*diagGames))
}

// TestDiagEarly compares, on the first turns of seeded games, the entropy
// of the guess played with the best of four longer searches, climbs with
// sixteen times the budget over 8000 codes drawn by rejection (uniform),
// all scored on 20000 other codes drawn alike.
func TestDiagEarly(t *testing.T) {
	n := *diagN
	r := mm.Rules{Colors: n, Pegs: n}
	ctx := context.Background()
	for game := range *diagGames {
		aux := rand.New(rand.NewPCG(uint64(game), 98))
		diagGame(t, n, game, func(st *mm.State, g mm.Code) {
			if st.Len() == 0 || st.Len() > 3 {
				return
			}
			c := ConstraintsOf(st)
			w := newWalker(c, aux, &meter{budget: 1e18})
			judge, drawn := w.random(nil, 20000, 1<<28)
			if len(judge)/n < 20000 {
				t.Logf("game %d turn %d: %d of %d random codes fit", game, st.Len()+1, len(judge)/n, drawn)
				return
			}
			train, _ := w.random(nil, 8000, 1<<28)
			b := float64(DefaultBudgetFor(r))
			if *budget > 0 {
				b = float64(*budget)
			}
			fits := func(x []uint8) bool { return c.fits(x) }
			best := 0.0
			for range 4 {
				g2, _ := climb(ctx, newTargets(n, n, train, false), r, &meter{budget: 16 * b}, aux, fits)
				best = math.Max(best, entropyBits(judge, n, g2))
			}
			t.Logf("game %d turn %d: 1 in %.0f codes fit; played %.3f bits, longer climbs %.3f",
				game, st.Len()+1, float64(drawn)/20000, entropyBits(judge, n, appendCode(nil, g)), best)
		})
	}
}
