package large

import (
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

// TestFallbacks plays seeded games of the sampler, as BenchGames does
// (game i: secret seeded (i, 1), state (i, 2)), and logs each game's
// guesses, the guesses that fell back to a code that does not fit for
// want of one that does, and the CPU time of a guess over the budget.
// LARGE_FALLBACKS=20x20:0-2 sets the variant and games; LARGE_SOLVER=0
// plays without the complete solver.
func TestFallbacks(t *testing.T) {
	spec := os.Getenv("LARGE_FALLBACKS")
	if spec == "" {
		t.Skip("set LARGE_FALLBACKS=20x20:0-2")
	}
	if os.Getenv("LARGE_SOLVER") == "0" {
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
	s := Sampler{}
	budget := DefaultBudgetFor(r)
	var sumG, sumF int
	var worst float64
	for i := from; i <= to; i++ {
		secret := mm.RandomCode(r, rand.New(rand.NewPCG(uint64(i), 1)))
		st, err := mm.NewState(r, rand.New(rand.NewPCG(uint64(i), 2)))
		if err != nil {
			t.Fatal(err)
		}
		guesses, fallbacks := 0, 0
		var cpus []float64
		for {
			t0 := gametest.ThreadCPU()
			g, err := s.Guess(st)
			cpu := float64(gametest.ThreadCPU()-t0) / float64(budget)
			cpus = append(cpus, cpu)
			worst = max(worst, cpu)
			if err != nil {
				t.Fatal(err)
			}
			guesses++
			if pl, ok := st.Attached(poolKey{}).(*pool); ok && pl.closest != nil {
				fallbacks++
			}
			f := mm.Score(secret, g)
			if f.Solved(r.Pegs) {
				break
			}
			if st, err = st.Play(g, f); err != nil {
				t.Fatal(err)
			}
		}
		mx := 0.0
		for _, c := range cpus {
			mx = max(mx, c)
		}
		t.Logf("%s game %d: %d guesses, %d fallbacks, worst guess %.2f budgets", r, i, guesses, fallbacks, mx)
		sumG += guesses
		sumF += fallbacks
	}
	n := float64(to - from + 1)
	t.Logf("%s games %d-%d: %.2f guesses, %.2f fallbacks a game, worst guess %.2f budgets (budget %v)", r, from, to, float64(sumG)/n, float64(sumF)/n, worst, budget)
	_ = time.Second
}
