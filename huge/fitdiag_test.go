//go:build diag

package huge

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

func envFloat(k string, d float64) float64 {
	if v, err := strconv.ParseFloat(os.Getenv(k), 64); err == nil {
		return v
	}
	return d
}

// TestFitDiag plays one game of Fit and logs each turn: how many codes
// that fit its search found, the least energy it met, its steps and their
// time. C and P set the variant (20 × 100), SEED the secret, MS the budget
// in milliseconds (50); BETA, AIM, BUMP, CHAIN and GAP set the walk's
// tunables; with STOP, the game ends at the first turn whose search finds
// no code that fits. Run with go test -tags diag -run TestFitDiag -v.
func TestFitDiag(t *testing.T) {
	betaWalk = envFloat("BETA", betaWalk)
	aimShare = envFloat("AIM", aimShare)
	bumpEvery = envInt("BUMP", bumpEvery)
	maxChain = envInt("CHAIN", maxChain)
	gap = envInt("GAP", gap)
	seed := uint64(envInt("SEED", 1))
	r := mm.Rules{Colors: envInt("C", 20), Pegs: envInt("P", 100)}
	rng := rand.New(rand.NewPCG(seed, 2))
	st, _ := mm.NewState(r, rand.New(rand.NewPCG(3, 4)))
	sec := make([]uint8, r.Pegs)
	for i := range sec {
		sec[i] = uint8(rng.IntN(r.Colors))
	}
	secret := codeOf(sec)
	f := Fit{}
	for n := 1; n <= 300; n++ {
		start := time.Now()
		count, err := counts(st)
		if err != nil {
			t.Fatal(err)
		}
		var g mm.Code
		if u := unknown(count); u >= 0 {
			g = codeOf(countGuess(r.Pegs, count, u, st.Rand()))
			t.Logf("%3d count %d", n, u)
		} else {
			p, err := newProblem(st, count)
			if err != nil {
				t.Fatal(err)
			}
			steps := int(float64(time.Duration(envInt("MS", 50))*time.Millisecond) / p.stepCost())
			x, err := p.guess(context.Background(), st.Rand(), steps)
			if err != nil {
				t.Fatal(err)
			}
			g = codeOf(x)
			fb := mm.Score(secret, g)
			if p.found == 0 && os.Getenv("MISSED") != "" {
				var missed []string
				for t0 := range st.Len() {
					turn := st.Turn(t0)
					if h := mm.Score(turn.Guess, g).Black; h != turn.Feedback.Black {
						missed = append(missed, fmt.Sprintf("%d:%+d", t0+1, h-turn.Feedback.Black))
					}
				}
				t.Logf("missed %v", missed)
			}
			if p.found == 0 && os.Getenv("STOP") != "" {
				t.Logf("FAIL at %d", n)
				return
			}
			t.Logf("%3d found %d least %d took %d/%d %v %.0fns/step black %d", n, p.found, p.least, p.took, steps, time.Since(start).Round(time.Millisecond), float64(time.Since(start))/float64(p.took+1), fb.Black)
		}
		_ = f
		fb := mm.Score(secret, g)
		if fb.Black == r.Pegs {
			t.Logf("solved in %d", n)
			return
		}
		st, _ = st.Play(g, fb)
	}
}

func envInt(k string, d int) int {
	if v, err := strconv.Atoi(os.Getenv(k)); err == nil {
		return v
	}
	return d
}
