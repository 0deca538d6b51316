package strategy_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/race"
	"github.com/mastermind-toolkit/mastermind/internal/slow"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// A bruteObjective scores a partition from the sizes of its non-empty
// classes; lower is better, and scores within tol tie.
type bruteObjective struct {
	name  string
	score func(sizes []int) float64
	tol   float64
}

// bruteObjectives are the four scoring strategies, written out plainly.
var bruteObjectives = []bruteObjective{
	{"knuth", func(sizes []int) float64 { return float64(slices.Max(sizes)) }, 0},
	{"expected-size", func(sizes []int) float64 {
		s := 0
		for _, n := range sizes {
			s += n * n
		}
		return float64(s)
	}, 0},
	{"entropy", func(sizes []int) float64 {
		s := 0.0
		for _, n := range sizes {
			s += float64(n) * math.Log(float64(n))
		}
		return s
	}, 1e-9},
	{"most-parts", func(sizes []int) float64 { return -float64(len(sizes)) }, 0},
}

// bruteGuesses returns, for each objective of bruteObjectives and for
// consistentOnly false then true, the guess a scoring strategy must make
// after st's history: every code of the space (or every candidate) is
// scored against the candidates, with no symmetry and no shortcut; ties go
// to a candidate, then to the lowest code.
func bruteGuesses(t *testing.T, st *mm.State) [][2]mm.Code {
	t.Helper()
	cands, err := st.Candidates()
	if err != nil {
		t.Fatalf("Candidates(): %v", err)
	}
	sp := cands.Space()
	type scored struct {
		index  int
		cons   bool
		scores [4]float64 // one per bruteObjectives
	}
	all := make([]scored, sp.Len())
	counts := make([]uint32, sp.Keys())
	sizes := make([]int, 0, sp.Keys())
	for g := range all {
		clear(counts)
		cands.Count(g, counts)
		sizes = sizes[:0]
		for _, n := range counts {
			if n > 0 {
				sizes = append(sizes, int(n))
			}
		}
		sc := scored{index: g, cons: counts[sp.SolvedKey()] > 0}
		for k, o := range bruteObjectives {
			sc.scores[k] = o.score(sizes)
		}
		all[g] = sc
	}
	out := make([][2]mm.Code, len(bruteObjectives))
	for k, o := range bruteObjectives {
		for mode, consistentOnly := range []bool{false, true} {
			best := math.Inf(1)
			for _, sc := range all {
				if !consistentOnly || sc.cons {
					best = min(best, sc.scores[k])
				}
			}
			pick := -1
			for _, sc := range all {
				if (consistentOnly && !sc.cons) || sc.scores[k] > best+o.tol {
					continue
				}
				if pick < 0 || (sc.cons && !all[pick].cons) {
					pick = sc.index // indices ascend, so the first is lowest
				}
			}
			out[k][mode] = sp.Code(pick)
		}
	}
	return out
}

// describe writes a history for failure messages.
func describe(st *mm.State) string {
	var parts []string
	for _, t := range st.Turns() {
		parts = append(parts, fmt.Sprintf("%v→%v", t.Guess, t.Feedback))
	}
	if len(parts) == 0 {
		return "(start)"
	}
	return strings.Join(parts, ", ")
}

// checkAgainstBrute compares the four scoring strategies, in both modes,
// with the brute-force chooser at st.
func checkAgainstBrute(t *testing.T, st *mm.State) {
	t.Helper()
	want := bruteGuesses(t, st)
	for k, o := range bruteObjectives {
		for mode, consistentOnly := range []bool{false, true} {
			s, err := strategy.New(o.name, strategy.Options{ConsistentOnly: consistentOnly})
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Guess(st)
			if err != nil {
				t.Fatalf("%s (consistent-only %v) on %v after %s: %v", o.name, consistentOnly, st.Rules(), describe(st), err)
			}
			if got != want[k][mode] {
				t.Errorf("%s (consistent-only %v).Guess on %v after %s = %v (%s); want %v (%s)",
					o.name, consistentOnly, st.Rules(), describe(st),
					got, explain(t, st, o, got), want[k][mode], explain(t, st, o, want[k][mode]))
			}
		}
	}
}

// explain describes a guess's score and consistency, for failure messages.
func explain(t *testing.T, st *mm.State, o bruteObjective, g mm.Code) string {
	cands, _ := st.Candidates()
	parts, err := cands.Partition(g)
	if err != nil {
		return err.Error()
	}
	var sizes []int
	for _, p := range parts {
		sizes = append(sizes, p.Count)
	}
	return fmt.Sprintf("score %.12g, candidate %v, sizes %v", o.score(sizes), cands.Contains(g), sizes)
}

// randomGuess returns a random code of r: half the time uniform, half the
// time drawn from few colours so that histories keep many symmetries.
func randomGuess(rng *rand.Rand, r mm.Rules) mm.Code {
	r = r.WithDefaults()
	colors := make([]int, r.Pegs)
	switch {
	case r.Distinct:
		perm := rng.Perm(r.Colors)
		if rng.IntN(2) == 0 {
			// Low colours, shuffled only a little: 1234, 2134, ...
			perm = rng.Perm(r.Pegs + rng.IntN(r.Colors-r.Pegs+1))
		}
		copy(colors, perm)
	case rng.IntN(2) == 0:
		for i := range colors {
			colors[i] = rng.IntN(r.Colors)
		}
	default:
		k := 1 + rng.IntN(3)
		for i := range colors {
			colors[i] = rng.IntN(min(k, r.Colors))
		}
		slices.Sort(colors) // 1122, 1112, 1123, ...
		if rng.IntN(2) == 0 {
			rng.Shuffle(len(colors), func(i, j int) { colors[i], colors[j] = colors[j], colors[i] })
		}
	}
	c, err := mm.NewCode(colors...)
	if err != nil {
		panic(err)
	}
	return c
}

// randomHistory plays 1 to 3 random guesses against a random secret.
func randomHistory(t *testing.T, rng *rand.Rand, r mm.Rules) *mm.State {
	t.Helper()
	st, err := mm.NewState(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := mm.SpaceOf(r)
	if err != nil {
		t.Fatal(err)
	}
	secret := sp.Code(rng.IntN(sp.Len()))
	for n := 1 + rng.IntN(3); n > 0; n-- {
		g := randomGuess(rng, r)
		f := mm.Score(secret, g)
		if f.Solved(sp.Rules().Pegs) {
			break
		}
		if st, err = st.Play(g, f); err != nil {
			t.Fatalf("Play(%v, %v): %v", g, f, err)
		}
	}
	return st
}

var bruteRules = []mm.Rules{
	{Colors: 6, Pegs: 4},
	{Colors: 5, Pegs: 4},
	{Colors: 4, Pegs: 5},
	{Colors: 7, Pegs: 3},
	{Colors: 6, Pegs: 4, Distinct: true},
	{Colors: 3, Pegs: 6},
	{Colors: 8, Pegs: 4},
	{Colors: 10, Pegs: 4, Distinct: true},
	{Colors: 6, Pegs: 5},
	{Colors: 2, Pegs: 8}, // 8! position permutations: more than the cap
	{Colors: 3, Pegs: 7},
	{Colors: 12, Pegs: 3}, // many free colours
	{Colors: 9, Pegs: 3, Distinct: true},
}

// TestAgainstBruteForce is the guard on every shortcut of the scoring
// strategies (symmetry classes, early stops, sparse counting, parallel
// scans): on random histories their guess must be the one an exhaustive
// scan of every code finds.
func TestAgainstBruteForce(t *testing.T) {
	t.Parallel()
	for i, r := range bruteRules {
		t.Run(r.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 11))
			histories := 300
			switch {
			case testing.Short():
				histories = 5
			case race.Enabled:
				// The scans go parallel on every variant here (at
				// 2¹⁸ guess × candidate pairs) at the root and after
				// most histories; the plain run checks 100, the slow
				// tier 300.
				histories = 10
			case !slow.Enabled:
				// 4.6 s of CPU at 300 and 60: the slow tier (go
				// test -tags slow, which CI runs) checks those.
				histories = 100
				if r.Size() > 2000 {
					histories = 20
				}
			case r.Size() > 2000:
				histories = 60
			}
			st, _ := mm.NewState(r, nil)
			checkAgainstBrute(t, st)
			for range histories {
				checkAgainstBrute(t, randomHistory(t, rng, r))
			}
		})
	}
}

// TestTreesAgainstBruteForce walks the whole decision tree of each scoring
// strategy on small variants and compares every node with brute force.
func TestTreesAgainstBruteForce(t *testing.T) {
	t.Parallel()
	rules := []mm.Rules{
		{Colors: 4, Pegs: 4}, {Colors: 3, Pegs: 5}, {Colors: 6, Pegs: 3, Distinct: true}, {Colors: 5, Pegs: 4},
		{Colors: 6, Pegs: 4, Distinct: true}, {Colors: 4, Pegs: 5}, {Colors: 6, Pegs: 4},
	}
	switch {
	case testing.Short():
		rules = rules[:3]
	case race.Enabled:
		// 5 × 4 is the least whose scans go parallel (625 × 625 pairs
		// at the root, more than 2¹⁸); the slow tier walks the larger.
		rules = rules[:4]
	case !slow.Enabled:
		// 4 × 5 and 6 × 4, the largest trees, took most of the
		// test's 3.5 s of CPU: the slow tier (go test -tags slow,
		// which CI runs) walks them.
		rules = rules[:5]
	}
	for _, r := range rules {
		// The brute-force answers at each history, shared by the eight
		// walks of r: they all start at the root, and the trees share
		// many of their nodes.
		brute := map[string][][2]mm.Code{}
		for _, name := range []string{"knuth", "expected-size", "entropy", "most-parts"} {
			for _, co := range []bool{false, true} {
				t.Run(fmt.Sprintf("%v/%s/consistent-only=%v", r, name, co), func(t *testing.T) {
					s, err := strategy.New(name, strategy.Options{ConsistentOnly: co})
					if err != nil {
						t.Fatal(err)
					}
					k := slices.IndexFunc(bruteObjectives, func(o bruteObjective) bool { return o.name == name })
					mode := 0
					if co {
						mode = 1
					}
					root, _ := mm.NewState(r, nil)
					nodes := 0
					var walk func(st *mm.State)
					walk = func(st *mm.State) {
						nodes++
						g, err := s.Guess(st)
						if err != nil {
							t.Fatalf("Guess after %s: %v", describe(st), err)
						}
						h := describe(st)
						if _, ok := brute[h]; !ok {
							brute[h] = bruteGuesses(t, st)
						}
						if want := brute[h][k][mode]; g != want {
							o := bruteObjectives[k]
							t.Errorf("Guess after %s = %v (%s); want %v (%s)", describe(st), g, explain(t, st, o, g), want, explain(t, st, o, want))
							return
						}
						fs, kids, err := st.Branch(g)
						if err != nil {
							t.Fatal(err)
						}
						for i, kid := range kids {
							if !fs[i].Solved(r.WithDefaults().Pegs) {
								walk(kid)
							}
						}
					}
					walk(root)
					if nodes < 2 {
						t.Errorf("tree has %d nodes", nodes)
					}
				})
			}
		}
	}
}

// TestFirstGuessAgainstBruteForce checks the opening on larger spaces,
// where a scan of every code against every code is slow: 10 × 4 in the
// plain run, and 8 × 5 too in the slow tier (go test -tags slow).
func TestFirstGuessAgainstBruteForce(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("scans every code against every code of 10x4")
	}
	if race.Enabled {
		// A hundred seconds under the race detector, nearly all in the
		// brute force, which runs no goroutines; the strategies' parallel
		// scans meet the detector at the roots of TestAgainstBruteForce.
		t.Skip("a long brute force: the plain go test ./... runs it, and go test -tags slow on 8x5 too")
	}
	rules := []mm.Rules{{Colors: 10, Pegs: 4}}
	if slow.Enabled {
		// 32 768² pairs, nine tenths of the test's 2 s of CPU.
		rules = append(rules, mm.Rules{Colors: 8, Pegs: 5})
	}
	for _, r := range rules {
		st, _ := mm.NewState(r, nil)
		checkAgainstBrute(t, st)
	}
}

// TestFirstGuesses records the openings: Knuth's 1122 on classic
// Mastermind, as published, and what the strategies open with elsewhere.
func TestFirstGuesses(t *testing.T) {
	tests := []struct {
		r    mm.Rules
		name string
		want string
	}{
		{mm.Classic, "knuth", "1122"},
		{mm.Rules{}, "knuth", "1122"},
		{mm.Classic, "expected-size", "1123"},
		{mm.Classic, "entropy", "1234"},
		{mm.Classic, "most-parts", "1123"},
		{mm.Rules{Colors: 8, Pegs: 5}, "knuth", "11234"},
		{mm.Rules{Colors: 8, Pegs: 5}, "most-parts", "11223"},
		{mm.Rules{Colors: 6, Pegs: 5}, "knuth", "11234"},
		{mm.Rules{Colors: 10, Pegs: 4, Distinct: true}, "knuth", "1234"},
		{mm.Classic, "first-consistent", "1111"},
	}
	for _, tt := range tests {
		s, err := strategy.New(tt.name, strategy.Options{})
		if err != nil {
			t.Fatal(err)
		}
		st, _ := mm.NewState(tt.r, nil)
		g, err := s.Guess(st)
		if err != nil || g.String() != tt.want {
			t.Errorf("%s.Guess(start of %v) = %v, %v; want %s", tt.name, tt.r, g, err, tt.want)
		}
	}
}

// TestEntropyEqualSumsTie checks the spec's tie rule for entropy: scores
// within 1e-9 are equal. After 4521 scored 0 2 and 2464 scored 0 1 on 6x4,
// 1233 splits the 56 candidates into classes {9 6 2 1 6 9 4 1 7 4 2 3 1} and
// 3156 into {1 12 3 3 3 9 3 4 7 3 3 3 1}: different sizes, but both give
// Σ n·ln n = ln(2³²·3⁵¹·7⁷) exactly. Both are candidates, so the lower code,
// 1233, must win.
func TestEntropyEqualSumsTie(t *testing.T) {
	r := mm.Classic
	st, _ := mm.NewState(r, nil)
	for _, turn := range []struct {
		g    string
		b, w int
	}{{"4521", 0, 2}, {"2464", 0, 1}} {
		g, _ := r.ParseCode(turn.g)
		var err error
		if st, err = st.Play(g, mm.Feedback{Black: turn.b, White: turn.w}); err != nil {
			t.Fatal(err)
		}
	}
	for _, co := range []bool{false, true} {
		got, err := strategy.Entropy{ConsistentOnly: co}.Guess(st)
		if err != nil || got.String() != "1233" {
			t.Errorf("Entropy{ConsistentOnly: %v}.Guess after %s = %v, %v; want 1233 (ties with 3156, and is lower)",
				co, describe(st), got, err)
		}
	}
}
