//go:build slow

package large

import (
	"context"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/race"
)

// TestDrawDeadSample draws a sample on the history of a seeded 30 × 30
// game (testdata/dead-sample-30x30.txt, game 0 of BenchmarkGames up to its
// 32nd turn) where the sampler had lost every consistent code and its
// constraint search found none in 524 288 nodes: annealing finds one, and
// the walks from it more (6 on this history), all consistent. The budget is counted
// in work, not read from the clock, so the draw is the same on any
// machine. Eight times the default budget, 2.6 s of CPU: it is in the slow
// tier (go test -tags slow, which CI runs).
func TestDrawDeadSample(t *testing.T) {
	t.Parallel()
	if race.Enabled {
		// About a minute under the race detector, in one goroutine,
		// which has no race to find; the slow tier draws it.
		t.Skip("one goroutine's search: go test -tags slow runs it without -race")
	}
	r := mm.Rules{Colors: 30, Pegs: 30}
	st := readHistory(t, r, "testdata/dead-sample-30x30.txt")
	c := ConstraintsOf(st)
	// Eight times the default budget: two seconds' annealing, which finds
	// a code on this history from most random starts (anneal).
	s := Sampler{Budget: 2 * time.Second}
	m := &meter{budget: s.budget(r)}
	codes, listed, err := s.draw(context.Background(), st, poolSize(r, m), m)
	if err != nil {
		t.Fatal(err)
	}
	if listed {
		t.Fatalf("the candidates were listed; want a sample")
	}
	// Annealing gives one code; the walks from it, more.
	if n := len(codes) / r.Pegs; n < 2 {
		t.Fatalf("drew %d codes; want more than annealing's one", n)
	}
	for i := 0; i < len(codes); i += r.Pegs {
		if x := codes[i : i+r.Pegs]; !c.fits(x) {
			t.Fatalf("drew %v, which does not fit the turns", x)
		}
	}
	if m.spent > s.budget(r)*searchShare*1.05 {
		t.Errorf("spent %.0f of a budget of %.0f; want at most searchShare (%v) of it", m.spent, s.budget(r), searchShare)
	}
}
