package consist

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// pick returns the turns of turns at the indices set.
func pick(turns []mm.Turn, set []int) []mm.Turn {
	out := make([]mm.Turn, len(set))
	for i, k := range set {
		out[i] = turns[k]
	}
	return out
}

// checkCore checks what Check said of turns against enumeration: a code
// that fits, or a conflict whose turns no code fits together, by the
// solver and by enumeration, each of them needed if it says so.
func checkCore(r mm.Rules, turns []mm.Turn, seed uint64) (conflict bool, err error) {
	c, err := Check(context.Background(), r, turns, 0, rand.New(rand.NewPCG(seed, 3)))
	var ce *ConflictError
	switch {
	case err == nil:
		if i := misfit(c, turns); i >= 0 {
			return false, fmt.Errorf("code %s does not fit turn %d", c, i+1)
		}
		return false, r.Check(c)
	case !errors.As(err, &ce):
		return false, err
	}
	if !errors.Is(err, mm.ErrInconsistent) {
		return true, fmt.Errorf("%v does not wrap ErrInconsistent", err)
	}
	if all := enumerate(r, turns, 1); len(all) > 0 {
		return true, fmt.Errorf("conflict %v, but %s fits every turn", ce.Turns, all[0])
	}
	if len(ce.Turns) == 0 || !slices.IsSorted(ce.Turns) || ce.Turns[0] < 0 || ce.Turns[len(ce.Turns)-1] >= len(turns) {
		return true, fmt.Errorf("conflict %v: want turns in ascending order, of %d", ce.Turns, len(turns))
	}
	if len(slices.Compact(slices.Clone(ce.Turns))) != len(ce.Turns) {
		return true, fmt.Errorf("conflict %v: a turn twice", ce.Turns)
	}
	core := pick(turns, ce.Turns)
	if fit := enumerate(r, core, 1); len(fit) > 0 {
		return true, fmt.Errorf("conflict %v, but %s fits those turns", ce.Turns, fit[0])
	}
	if _, err := Find(context.Background(), r, core, 0, nil); !errors.Is(err, mm.ErrInconsistent) {
		return true, fmt.Errorf("conflict %v, but the solver on those turns says %v", ce.Turns, err)
	}
	if ce.Irreducible {
		for i := range ce.Turns {
			rest := pick(turns, slices.Delete(slices.Clone(ce.Turns), i, i+1))
			if len(enumerate(r, rest, 1)) == 0 {
				return true, fmt.Errorf("conflict %v said irreducible, but the turns conflict without turn %d", ce.Turns, ce.Turns[i]+1)
			}
		}
	}
	return true, nil
}

// TestCheckSmall checks Check on many small histories, some with wrong
// answers, against enumeration.
func TestCheckSmall(t *testing.T) {
	n := 6000
	if testing.Short() {
		n = 800
	}
	rng := rand.New(rand.NewPCG(42, 43))
	conflicts := 0
	for i := range n {
		r := randomSmallRules(rng)
		turns := randomHistory(r, rng)
		conflict, err := checkCore(r, turns, uint64(i))
		if err != nil {
			t.Fatalf("history %d, %s: %v", i, formatHistory(r, turns), err)
		}
		if conflict {
			conflicts++
		}
	}
	if conflicts < n/20 {
		t.Fatalf("%d histories, only %d with no code: the test says little", n, conflicts)
	}
	t.Logf("%d histories, %d with no code", n, conflicts)
}

// corrupt returns f changed to another answer the rules allow: a black
// for a white or back, else a peg more or less.
func corrupt(r mm.Rules, f mm.Feedback) mm.Feedback {
	for _, d := range [][2]int{{1, -1}, {-1, 1}, {0, 1}, {0, -1}, {-1, 0}, {1, 0}} {
		g := mm.Feedback{Black: f.Black + d[0], White: f.White + d[1]}
		if g.Black >= 0 && g.White >= 0 && r.CheckFeedback(g) == nil {
			return g
		}
	}
	panic("corrupt: " + f.String())
}

// TestCheckBig corrupts one answer of the fixed games (testdata), whose
// secret is known, and adds the secret's own turn, so that no code fits:
// the conflict Check finds must name the corrupted answer, since every
// other answer is the secret's.
func TestCheckBig(t *testing.T) {
	for _, v := range fixedGames {
		r, turns, err := readHistory(filepath.Join("testdata", "game-"+v.name+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		secret := mm.RandomCode(r, rand.New(rand.NewPCG(1, 7)))
		if i := misfit(secret, turns); i >= 0 {
			t.Fatalf("%s: the secret does not fit turn %d", v.name, i+1)
		}
		if last := turns[len(turns)-1]; last.Guess != secret {
			turns = append(turns, mm.Turn{Guess: secret, Feedback: mm.Score(secret, secret)})
		}
		for _, at := range []int{2, len(turns) / 2, len(turns) - 2} {
			bad := slices.Clone(turns)
			bad[at].Feedback = corrupt(r, bad[at].Feedback)
			c, err := Check(context.Background(), r, bad, 50000, nil)
			var ce *ConflictError
			if !errors.As(err, &ce) {
				t.Errorf("%s, turn %d corrupted: %s, %v", v.name, at+1, c, err)
				continue
			}
			if !slices.Contains(ce.Turns, at) {
				t.Errorf("%s, turn %d corrupted: conflict %v leaves it out", v.name, at+1, ce.Turns)
			}
		}
	}
}

// TestCheckPlanted plays big variants by consistent play against a planted
// secret, one answer corrupted, and checks the history at every turn: a
// conflict must name the corrupted answer (every other is the secret's),
// and its turns, without the others, must conflict for the solver too.
func TestCheckPlanted(t *testing.T) {
	cases := []struct {
		r         mm.Rules
		seed      uint64
		bad, most int
	}{
		{mm.Rules{Pegs: 20, Colors: 20}, 1, 2, 30},
		{mm.Rules{Pegs: 20, Colors: 20}, 2, 6, 30},
		{mm.Rules{Pegs: 12, Colors: 12}, 1, 2, 30},
		{mm.Rules{Pegs: 15, Colors: 15}, 3, 4, 30},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/seed%d", c.r, c.seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(c.seed, 11))
			secret := mm.RandomCode(c.r, rng)
			var hist []mm.Turn
			for len(hist) < c.most {
				g, err := Check(context.Background(), c.r, hist, 20000, rng)
				var ce *ConflictError
				switch {
				case errors.As(err, &ce):
					if !slices.Contains(ce.Turns, c.bad) {
						t.Fatalf("turn %d: conflict %v leaves out the corrupted turn %d", len(hist), ce.Turns, c.bad+1)
					}
					if _, err := Find(context.Background(), c.r, pick(hist, ce.Turns), 20000, nil); !errors.Is(err, mm.ErrInconsistent) {
						t.Fatalf("turn %d: conflict %v, but the solver on those turns says %v", len(hist), ce.Turns, err)
					}
					if ce.Irreducible {
						for i := range ce.Turns {
							rest := pick(hist, slices.Delete(slices.Clone(ce.Turns), i, i+1))
							g, err := Find(context.Background(), c.r, rest, 0, nil)
							if err != nil || misfit(g, rest) >= 0 {
								t.Fatalf("turn %d: conflict %v said irreducible, but without turn %d: %s, %v", len(hist), ce.Turns, ce.Turns[i]+1, g, err)
							}
						}
					}
					t.Logf("after %d turns: conflict %v (irreducible %v)", len(hist), ce.Turns, ce.Irreducible)
					return
				case errors.Is(err, ErrLimit):
					g = mm.RandomCode(c.r, rng)
				case err != nil:
					t.Fatal(err)
				default:
					if i := misfit(g, hist); i >= 0 {
						t.Fatalf("turn %d: %s does not fit turn %d", len(hist)+1, g, i+1)
					}
				}
				f := mm.Score(secret, g)
				if len(hist) == c.bad {
					f = corrupt(c.r, f)
				}
				hist = append(hist, mm.Turn{Guess: g, Feedback: f})
			}
			t.Fatalf("no conflict found in %d turns", c.most)
		})
	}
}
