package consist

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/slow"
)

// fits reports the first turn c does not fit, or −1.
func misfit(c mm.Code, turns []mm.Turn) int {
	for i, t := range turns {
		if mm.Score(c, t.Guess) != t.Feedback {
			return i
		}
	}
	return -1
}

// enumerate returns the codes of r that fit turns, stopping after most.
func enumerate(r mm.Rules, turns []mm.Turn, most int) []mm.Code {
	var out []mm.Code
	cs := make([]int, r.Pegs)
	var rec func(p int, used uint64) bool
	rec = func(p int, used uint64) bool {
		if p == r.Pegs {
			c, _ := mm.NewCode(cs...)
			if misfit(c, turns) < 0 {
				out = append(out, c)
				return len(out) < most
			}
			return true
		}
		for k := range r.Colors {
			if r.Distinct && used&(1<<k) != 0 {
				continue
			}
			cs[p] = k
			if !rec(p+1, used|1<<k) {
				return false
			}
		}
		return true
	}
	rec(0, 0)
	return out
}

// randomHistory draws a history of r: guesses at random, answers mostly
// from a planted secret, sometimes any answer the rules allow.
func randomHistory(r mm.Rules, rng *rand.Rand) []mm.Turn {
	secret := mm.RandomCode(r, rng)
	var fbs []mm.Feedback
	for _, f := range r.Feedbacks() {
		if r.CheckFeedback(f) == nil {
			fbs = append(fbs, f)
		}
	}
	n := rng.IntN(7)
	turns := make([]mm.Turn, n)
	lie := rng.IntN(3) == 0
	for i := range turns {
		g := mm.RandomCode(r, rng)
		f := mm.Score(secret, g)
		if lie && rng.IntN(2) == 0 {
			f = fbs[rng.IntN(len(fbs))]
		}
		turns[i] = mm.Turn{Guess: g, Feedback: f}
	}
	return turns
}

func randomSmallRules(rng *rand.Rand) mm.Rules {
	r := mm.Rules{Pegs: 1 + rng.IntN(6), Colors: 2 + rng.IntN(5)}
	if rng.IntN(4) == 0 && r.Pegs <= r.Colors {
		r.Distinct = true
	}
	return r
}

// checkHistory draws up to want codes for turns and checks them against
// scoring and, where fewer came, against enumeration.
func checkHistory(r mm.Rules, turns []mm.Turn, want int, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, 1))
	codes, err := Sample(context.Background(), r, turns, want, 0, rng)
	none := errors.Is(err, mm.ErrInconsistent)
	if err != nil && !none {
		return fmt.Errorf("Sample: %v", err)
	}
	seen := map[mm.Code]bool{}
	for _, c := range codes {
		if err := r.Check(c); err != nil {
			return fmt.Errorf("code %s: %v", c, err)
		}
		if i := misfit(c, turns); i >= 0 {
			return fmt.Errorf("code %s scores %s against turn %d, %s; want %s",
				c, mm.Score(c, turns[i].Guess), i+1, turns[i].Guess, turns[i].Feedback)
		}
		if seen[c] {
			return fmt.Errorf("code %s drawn twice", c)
		}
		seen[c] = true
	}
	if len(codes) < want {
		all := enumerate(r, turns, want+1)
		if len(all) != len(codes) {
			return fmt.Errorf("drew %d codes (none: %v), but %d fit (first %v)", len(codes), none, len(all), all[:min(len(all), 3)])
		}
	}
	return nil
}

func formatHistory(r mm.Rules, turns []mm.Turn) string {
	s := r.String() + ":"
	for _, t := range turns {
		s += fmt.Sprintf(" %s=%s", t.Guess, t.Feedback)
	}
	return s
}

// TestRandomHistories draws many small histories and checks every code
// by scoring and every shortfall by enumeration.
func TestRandomHistories(t *testing.T) {
	n := 12000
	switch {
	case testing.Short():
		n = 1500
	case !slow.Enabled:
		// 2.1 s of CPU at 12 000, a third of the package's: the
		// slow tier (go test -tags slow, which CI runs) checks them.
		n = 4000
	}
	rng := rand.New(rand.NewPCG(42, 42))
	nones := 0
	for i := range n {
		r := randomSmallRules(rng)
		turns := randomHistory(r, rng)
		want := 1 + rng.IntN(6)
		if i%10 == 0 && r.Size() <= 1296 {
			want = int(r.Size()) + 1 // every code
		}
		if err := checkHistory(r, turns, want, uint64(i)); err != nil {
			t.Fatalf("history %d, %s: %v", i, formatHistory(r, turns), err)
		}
		if len(enumerate(r, turns, 1)) == 0 {
			nones++
		}
	}
	t.Logf("%d histories, %d with no code", n, nones)
}

// TestAddTurns grows small histories a turn at a time on one solver and
// checks, after each, what it draws as checkHistory does: every code fits
// the turns so far, none twice since the last Add, and a shortfall means
// that no more codes fit, by enumeration.
func TestAddTurns(t *testing.T) {
	n := 3000
	switch {
	case testing.Short():
		n = 400
	case !slow.Enabled:
		// The slow tier (go test -tags slow, which CI runs) grows
		// the 3000.
		n = 1000
	}
	rng := rand.New(rand.NewPCG(4, 2))
	for i := range n {
		r := randomSmallRules(rng)
		turns := randomHistory(r, rng)
		sv, err := New(r, nil, rand.New(rand.NewPCG(uint64(i), 5)))
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k <= len(turns); k++ {
			if k > 0 {
				if err := sv.Add(turns[k-1]); err != nil {
					t.Fatal(err)
				}
			}
			want := 1 + rng.IntN(6)
			if rng.IntN(8) == 0 && r.Size() <= 1296 {
				want = int(r.Size()) + 1
			}
			seen := map[mm.Code]bool{}
			var err error
			for len(seen) < want {
				var c mm.Code
				c, err = sv.Next(context.Background(), 0)
				if err != nil {
					break
				}
				if j := misfit(c, turns[:k]); j >= 0 {
					t.Fatalf("history %d, %s, after %d turns: %s does not fit turn %d", i, formatHistory(r, turns), k, c, j+1)
				}
				if seen[c] {
					t.Fatalf("history %d, %s, after %d turns: %s drawn twice", i, formatHistory(r, turns), k, c)
				}
				seen[c] = true
			}
			if err != nil && !errors.Is(err, mm.ErrInconsistent) {
				t.Fatal(err)
			}
			if len(seen) < want {
				if all := enumerate(r, turns[:k], want+1); len(all) != len(seen) {
					t.Fatalf("history %d, %s, after %d turns: drew %d codes, but %d fit", i, formatHistory(r, turns), k, len(seen), len(all))
				}
			}
		}
	}
}

// monochromes returns the codes of one colour, for every colour of r but
// the last: the guesses with which Fit counts the colours.
func monochromes(r mm.Rules) []mm.Code {
	codes := make([]mm.Code, r.Colors-1)
	cs := make([]int, r.Pegs)
	for c := range codes {
		for i := range cs {
			cs[i] = c
		}
		codes[c], _ = mm.NewCode(cs...)
	}
	return codes
}
