package huge

import (
	"context"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/gametest"
)

// TestFallbacks plays seeded games of Fit as BenchFitGames does (game i:
// secret seeded (i, 1), state (i, 2)) and logs each game's guesses, the
// guesses that fell back to a code that does not fit for want of one that
// does, those where the complete solver found the code, and the CPU time
// of a guess over the budget. HUGE_FALLBACKS=30x10:0-2 sets the variant
// and games; HUGE_SOLVER=0 plays without the solver.
func TestFallbacks(t *testing.T) {
	spec := os.Getenv("HUGE_FALLBACKS")
	if spec == "" {
		t.Skip("set HUGE_FALLBACKS=30x10:0-2")
	}
	if os.Getenv("HUGE_SOLVER") == "0" {
		useSolver = false
		defer func() { useSolver = true }()
	}
	runtime.LockOSThread() // for ThreadCPU
	defer runtime.UnlockOSThread()
	name, games, _ := strings.Cut(spec, ":")
	ps, cs, _ := strings.Cut(name, "x")
	pegs, _ := strconv.Atoi(ps)
	colors, _ := strconv.Atoi(cs)
	r := mm.Rules{Pegs: pegs, Colors: colors}
	a, b, _ := strings.Cut(games, "-")
	from, _ := strconv.Atoi(a)
	to, _ := strconv.Atoi(b)
	budget := DefaultFitBudget(r)
	var sumG, sumF, sumS int
	var worst float64
	for i := from; i <= to; i++ {
		secret := mm.RandomCode(r, rand.New(rand.NewPCG(uint64(i), 1)))
		st, err := mm.NewState(r, rand.New(rand.NewPCG(uint64(i), 2)))
		if err != nil {
			t.Fatal(err)
		}
		guesses, fallbacks, solved := 0, 0, 0
		mx := 0.0
		start := time.Now()
		for {
			t0 := gametest.ThreadCPU()
			// Fit.GuessContext, with a look at the problem.
			count, err := counts(st)
			if err != nil {
				t.Fatal(err)
			}
			var g mm.Code
			if u := unknown(count); u >= 0 {
				g = codeOf(countGuess(r.Pegs, count, u, st.Rand()))
			} else {
				p, err := newProblem(st, count)
				if err != nil {
					t.Fatal(err)
				}
				steps := int(float64(budget) / p.stepCost())
				x, err := p.guess(context.Background(), st.Rand(), max(steps, minSteps))
				if err != nil {
					t.Fatal(err)
				}
				g = codeOf(x)
				if p.found == 0 {
					if p.solved > 0 {
						solved++
					} else {
						fallbacks++
					}
				}
			}
			mx = max(mx, float64(gametest.ThreadCPU()-t0)/float64(budget))
			guesses++
			f := mm.Score(secret, g)
			if f.Solved(r.Pegs) {
				break
			}
			if st, err = st.Play(g, f); err != nil {
				t.Fatal(err)
			}
		}
		worst = max(worst, mx)
		t.Logf("%s game %d: %d guesses, %d fallbacks, %d solver's, worst guess %.2f budgets, %.1f s", r, i, guesses, fallbacks, solved, mx, time.Since(start).Seconds())
		sumG += guesses
		sumF += fallbacks
		sumS += solved
	}
	n := float64(to - from + 1)
	t.Logf("%s games %d-%d: %.2f guesses, %.2f fallbacks, %.2f solver's a game, worst guess %.2f budgets (budget %v)",
		r, from, to, float64(sumG)/n, float64(sumF)/n, float64(sumS)/n, worst, budget)
}
