package large

import (
	"bufio"
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/race"
)

// readHistory reads a game of r from path: one turn a line, the guess's
// colours (from 0) separated by spaces, "|", then black and white.
func readHistory(t *testing.T, r mm.Rules, path string) *mm.State {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := mm.NewState(r, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		guess, answer, ok := strings.Cut(sc.Text(), "|")
		var pegs, bw []int
		for _, w := range append(strings.Fields(guess), strings.Fields(answer)...) {
			n, err := strconv.Atoi(w)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			pegs = append(pegs, n)
		}
		if !ok || len(pegs) != r.Pegs+2 {
			t.Fatalf("%s: %q is not a turn of %v", path, sc.Text(), r)
		}
		pegs, bw = pegs[:r.Pegs], pegs[r.Pegs:]
		g, err := mm.NewCode(pegs...)
		if err != nil {
			t.Fatal(err)
		}
		if st, err = st.Play(g, mm.Feedback{Black: bw[0], White: bw[1]}); err != nil {
			t.Fatal(err)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestDrawDeadSample draws a sample on the history of a seeded 30 × 30
// game (testdata/dead-sample-30x30.txt, game 0 of BenchmarkGames up to its
// 32nd turn) where the sampler had lost every consistent code and its
// constraint search found none in 524 288 nodes: annealing finds one, and
// the walks from it more (6 on this history), all consistent. The budget is counted
// in work, not read from the clock, so the draw is the same on any
// machine.
func TestDrawDeadSample(t *testing.T) {
	t.Parallel()
	if race.Enabled {
		// About a minute under the race detector, in one goroutine,
		// which has no race to find; the plain run draws it.
		t.Skip("one goroutine's search: the plain go test ./... runs it")
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
