package huge

import (
	"math/rand/v2"
	"strconv"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// TestWalkerKeepsScore checks, after every step of walks on random
// histories, that a walker's code keeps the counts and that its blacks
// and energy are what scoring it afresh gives.
func TestWalkerKeepsScore(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, r := range []mm.Rules{{Colors: 3, Pegs: 7}, {Colors: 10, Pegs: 30}, {Colors: 20, Pegs: 100}} {
		p, secret := randomProblem(t, r, 25, rng)
		count := p.count
		w := p.newWalker(rng)
		w.setBeta(1)
		for s := range 5000 {
			w.step()
			if s%97 == 0 {
				w.bump()
			}
			h, e := append([]int32(nil), w.h...), w.e
			w.score()
			if e != w.e {
				t.Fatalf("%v, step %d: energy %d; scored afresh %d", r, s, e, w.e)
			}
			for t0 := range h {
				if h[t0] != w.h[t0] {
					t.Fatalf("%v, step %d: turn %d: %d blacks; scored afresh %d", r, s, t0, h[t0], w.h[t0])
				}
			}
		}
		n := make([]int, r.Colors)
		for _, k := range w.x {
			n[k]++
		}
		for k := range n {
			if n[k] != count[k] {
				t.Fatalf("%v: colour %d has %d pegs; want %d", r, k, n[k], count[k])
			}
		}
		// the secret itself fits: its energy is 0
		w.set(secret)
		if w.e != 0 {
			t.Errorf("%v: the secret's energy is %d; want 0", r, w.e)
		}
	}
}

// TestCounts checks the counts proven by histories.
func TestCounts(t *testing.T) {
	r := mm.Rules{Colors: 4, Pegs: 6}
	secret := codeOf([]uint8{0, 0, 1, 2, 2, 2})
	tests := []struct {
		guesses [][]uint8
		want    []int
	}{
		{nil, []int{-1, -1, -1, -1}},
		{[][]uint8{{0, 0, 0, 0, 0, 0}}, []int{2, -1, -1, -1}},
		// colour 1 on the 4 pegs not of colour 0, colour 0 on two: 2 + 1
		{[][]uint8{{0, 0, 0, 0, 0, 0}, {0, 1, 1, 1, 0, 1}}, []int{2, 1, -1, -1}},
		// the pegs left after three counts are the fourth colour's
		{[][]uint8{{0, 0, 0, 0, 0, 0}, {1, 1, 1, 1, 1, 1}, {3, 3, 3, 3, 3, 3}}, []int{2, 1, 3, 0}},
		// colour 2 fills the 3 pegs left: its 3 cannot be more
		{[][]uint8{{0, 0, 0, 0, 0, 0}, {1, 1, 1, 1, 1, 1}, {2, 2, 2, 0, 0, 0}}, []int{2, 1, 3, 0}},
		// two colours in one guess, neither counted: nothing
		{[][]uint8{{1, 1, 1, 2, 2, 2}}, []int{-1, -1, -1, -1}},
	}
	for _, tt := range tests {
		st, err := mm.NewState(r, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range tt.guesses {
			c := codeOf(g)
			if st, err = st.Play(c, mm.Score(secret, c)); err != nil {
				t.Fatal(err)
			}
		}
		got, err := counts(st)
		if err != nil {
			t.Fatal(err)
		}
		for k := range got {
			if got[k] != tt.want[k] {
				t.Errorf("%v: counts %v; want %v", tt.guesses, got, tt.want)
				break
			}
		}
	}
}

// BenchmarkFitStep times a step of Fit's walk on histories of random
// guesses of 30 × 10 and 100 × 20 (the costs behind stepNanos and
// stepTurnNanos): ns/op is a step.
func BenchmarkFitStep(b *testing.B) {
	for _, tc := range []struct {
		r     mm.Rules
		turns int
	}{
		{mm.Rules{Colors: 10, Pegs: 30}, 30},
		{mm.Rules{Colors: 20, Pegs: 100}, 50},
		{mm.Rules{Colors: 20, Pegs: 100}, 200},
	} {
		b.Run(tc.r.String()+"/"+strconv.Itoa(tc.turns), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			p, _ := randomProblem(b, tc.r, tc.turns, rng)
			w := p.newWalker(rng)
			w.setBeta(betaWalk)
			for s := 0; b.Loop(); s++ {
				w.step()
				if s%bumpEvery == 0 {
					w.bump()
				}
			}
		})
	}
}

// randomProblem plays up to turns random guesses of r against a random
// secret and returns Fit's problem of the history, with the secret's
// counts, and the secret.
func randomProblem(tb testing.TB, r mm.Rules, turns int, rng *rand.Rand) (*problem, []uint8) {
	tb.Helper()
	random := func() []uint8 {
		c := make([]uint8, r.Pegs)
		for i := range c {
			c[i] = uint8(rng.IntN(r.Colors))
		}
		return c
	}
	secret := random()
	st, err := mm.NewState(r, nil)
	if err != nil {
		tb.Fatal(err)
	}
	for range turns {
		c := codeOf(random())
		if st.Guessed(c) {
			continue
		}
		if st, err = st.Play(c, mm.Score(codeOf(secret), c)); err != nil {
			tb.Fatal(err)
		}
	}
	count := make([]int, r.Colors)
	for _, k := range secret {
		count[k]++
	}
	p, err := newProblem(st, count)
	if err != nil {
		tb.Fatal(err)
	}
	return p, secret
}
