package strategy

import (
	"math/rand/v2"
	"slices"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// play returns the state after the given guesses and feedbacks.
func play(t *testing.T, r mm.Rules, moves ...any) *mm.State {
	t.Helper()
	st, err := mm.NewState(r, rand.New(rand.NewPCG(7, 7)))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(moves); i += 2 {
		g, err := r.ParseCode(moves[i].(string))
		if err != nil {
			t.Fatal(err)
		}
		if st, err = st.Play(g, moves[i+1].(mm.Feedback)); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// TestMERCScores checks MERC's scores on a set small enough to score by
// hand. On 4 colours × 2 pegs, after 12 scored one black, the candidates are
// 11 13 14 22 32 42. Guess 11 splits them {11} {13 14} {22 32 42}: Σ n² =
// 1+4+9 = 14. Guess 13 splits them {13} {11 14} {22 42} {32}: 1+4+4+1 = 10.
// Read literally, 13's score sums, over each candidate m, the size of 13's
// class when m splits the candidates: 2 (m=11: 13 14), 1 (13), 2 (14: 11
// 13), 3 (22: 11 13 14), 1 (32: 13), 2 (42: 11 13) = 11.
func TestMERCScores(t *testing.T) {
	r := mm.Rules{Colors: 4, Pegs: 2}
	st := play(t, r, "12", mm.Feedback{Black: 1})
	s, _ := st.Candidates()
	if got := s.Codes(); len(got) != 6 || got[0].String() != "11" || got[5].String() != "42" {
		t.Fatalf("candidates = %v; want 11 13 14 22 32 42", got)
	}
	// MERC's score is the expected-size objective over the candidates.
	counts := make([]uint32, s.Space().Keys())
	var got []int64
	for i := 0; i < s.Len(); i++ {
		clear(counts)
		s.Count(s.Index(i), counts)
		got = append(got, expectedSize.obj.Score(counts))
	}
	if want := []int64{14, 10, 10, 14, 10, 10}; !slices.Equal(got, want) {
		t.Errorf("MERC scores = %v; want %v", got, want)
	}
	if got, want := literalScores(s), []int64{12, 11, 11, 12, 11, 11}; !slices.Equal(got, want) {
		t.Errorf("literal MERC scores = %v; want %v", got, want)
	}
	for _, m := range []MERC{{}, {Literal: true}} {
		g, err := m.Guess(st)
		if err != nil || g.String() != "13" {
			t.Errorf("%v.Guess = %v, %v; want 13, the lowest of the smallest score", m, g, err)
		}
	}
	// The paper's opening.
	root := play(t, mm.Classic)
	if g, _ := (MERC{}).Guess(root); g.String() != "1122" {
		t.Errorf("MERC opens with %v; want 1122", g)
	}
}

// TestAnnealingRule checks the acceptance rule, the distance from
// consistency, and that a refused code gives way to a candidate.
func TestAnnealingRule(t *testing.T) {
	for _, c := range []struct {
		d     int
		alpha float64
		u     float64
		want  bool
	}{
		{0, 2, 0.99, true},  // 2/1: always
		{1, 2, 0.99, true},  // 2/2: always
		{2, 2, 0.66, true},  // 2/3
		{2, 2, 0.67, false}, // 2/3
		{3, 2, 0.49, true},  // 1/2
		{3, 2, 0.5, false},
		{9, 2, 0.19, true}, // 1/5
		{9, 2, 0.2, false},
	} {
		if got := accept(c.d, c.alpha, c.u); got != c.want {
			t.Errorf("accept(%d, %g, %g) = %v; want %v", c.d, c.alpha, c.u, got, c.want)
		}
	}
	// 1123 scored 1 black 1 white. 1124 against 1123 scores 3 black 0
	// white: distance |3−1| + |0−1| = 3.
	st := play(t, mm.Classic, "1123", mm.Feedback{Black: 1, White: 1})
	c, _ := mm.Classic.ParseCode("1124")
	if d := distance(st, c); d != 3 {
		t.Errorf("distance(1124) = %d; want 3", d)
	}
	// With alpha 0+ every inconsistent code is refused: only candidates
	// are played, whatever the seed.
	s, _ := st.Candidates()
	for seed := range uint64(50) {
		st := play(t, mm.Classic, "1123", mm.Feedback{Black: 1, White: 1})
		st2, _ := mm.NewState(mm.Classic, rand.New(rand.NewPCG(seed, 1)))
		st2, _ = st2.Play(st.Turn(0).Guess, st.Turn(0).Feedback)
		g, err := Annealing{Alpha: 1e-12}.Guess(st2)
		if err != nil || !s.Contains(g) {
			t.Fatalf("Annealing{Alpha: 1e-12} (seed %d) = %v, %v; want a candidate", seed, g, err)
		}
	}
	// With a huge alpha every drawn code is played, and the neighbours of
	// 1123 outnumber no one: over many seeds some inconsistent code shows.
	inconsistent := 0
	for seed := range uint64(200) {
		st2, _ := mm.NewState(mm.Classic, rand.New(rand.NewPCG(seed, 2)))
		st2, _ = st2.Play(st.Turn(0).Guess, st.Turn(0).Feedback)
		g, _ := Annealing{Alpha: 1e9}.Guess(st2)
		if !s.Contains(g) {
			inconsistent++
			if f := mm.Score(g, st.Turn(0).Guess); f.Black+f.White != 4 && f.Black+f.White != 2 && f.Black+f.White != 3 {
				t.Errorf("Annealing drew %v, not one peg from 1123", g)
			}
		}
	}
	if inconsistent == 0 {
		t.Errorf("Annealing{Alpha: 1e9} never played a neighbour in 200 games")
	}
	// Reproducible: the same seed gives the same first guess.
	a, _ := mm.NewState(mm.Classic, rand.New(rand.NewPCG(3, 3)))
	b, _ := mm.NewState(mm.Classic, rand.New(rand.NewPCG(3, 3)))
	ga, _ := Annealing{}.Guess(a)
	gb, _ := Annealing{}.Guess(b)
	if ga != gb {
		t.Errorf("Annealing's first guess differs for the same seed: %v, %v", ga, gb)
	}
}

// TestIncrementalTrace follows seeds/001's incremental brute force by hand
// on secret 2312 (6 × 4):
//
//	1111  1 black       one peg of colour 1 (position 3)
//	2111  2 black       more blacks: 2 belongs at position 1
//	2211  2 black 1 w   as many: not 2 at position 2 (2 is not skipped:
//	                    the white shows another 2 in the secret)
//	2311  3 black       3 belongs at position 2
//	2321  2 black       fewer: colour 1 belonged at position 3
//	2312  4 black       solved
func TestIncrementalTrace(t *testing.T) {
	r := mm.Classic
	secret, _ := r.ParseCode("2312")
	st, _ := mm.NewState(r, nil)
	steps, err := mm.Solve(st, Incremental{}, secret, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range steps {
		got = append(got, s.Guess.String())
	}
	if want := []string{"1111", "2111", "2211", "2311", "2321", "2312"}; !slices.Equal(got, want) {
		t.Errorf("incremental on 2312 = %v; want %v", got, want)
	}
	sp, _ := mm.SpaceOf(r)
	worst := 0
	for _, secret := range sp.All().Codes() {
		st, _ := mm.NewState(r, nil)
		steps, err := mm.Solve(st, Incremental{}, secret, 0)
		if err != nil {
			t.Fatalf("incremental on %v: %v", secret, err)
		}
		worst = max(worst, len(steps))
	}
	// 1 + at most colours−1 tries per position.
	if worst > 1+r.Pegs*(r.Colors-1) {
		t.Errorf("incremental took %d guesses; at most %d", worst, 1+r.Pegs*(r.Colors-1))
	}
}

// TestPermutedCountsFirst checks that permuted first guesses one colour at a
// time until the counts account for every peg, then only arrangements of
// those colours.
func TestPermutedCountsFirst(t *testing.T) {
	r := mm.Classic
	secret, _ := r.ParseCode("4145") // colours 1, 4, 4, 5
	st, _ := mm.NewState(r, rand.New(rand.NewPCG(1, 1)))
	steps, err := mm.Solve(st, Permuted{}, secret, 0)
	if err != nil {
		t.Fatal(err)
	}
	// 1111 2222 3333 4444 5555: counts 1+0+0+2+1 = 4 after colour 5.
	for i, want := range []string{"1111", "2222", "3333", "4444", "5555"} {
		if steps[i].Guess.String() != want {
			t.Fatalf("guess %d = %v; want %v", i+1, steps[i].Guess, want)
		}
	}
	for _, s := range steps[5:] {
		got := s.Guess.Colors()
		slices.Sort(got)
		if !slices.Equal(got, []int{0, 3, 3, 4}) {
			t.Errorf("after counting, permuted guessed %v, not an arrangement of 1445", s.Guess)
		}
	}
	if last := steps[len(steps)-1].Guess; last != secret {
		t.Errorf("permuted ended with %v", last)
	}
}

// TestPairsOpening checks seeds/004's opening rule.
func TestPairsOpening(t *testing.T) {
	for _, c := range []struct {
		r    mm.Rules
		want string
	}{
		{mm.Rules{Colors: 6, Pegs: 4}, "1122"},
		{mm.Rules{Colors: 8, Pegs: 5}, "11223"},
		{mm.Rules{Colors: 6, Pegs: 5}, "11223"},
		{mm.Rules{Colors: 2, Pegs: 6}, "112222"},
		{mm.Rules{Colors: 10, Pegs: 4, Distinct: true}, "1234"},
		{mm.Rules{Colors: 3, Pegs: 1}, "1"},
	} {
		if got := PairsOpening(c.r).String(); got != c.want {
			t.Errorf("PairsOpening(%v) = %s; want %s", c.r, got, c.want)
		}
	}
}
