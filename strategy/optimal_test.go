package strategy_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// plainOptimal is a deliberately plain exhaustive search: every code is
// tried as a guess at every node, without bounds, symmetry or tables. It
// returns the least total number of guesses to find every code of set, then
// the least depth, with at most depth guesses (ok false if impossible).
type plainOptimal struct {
	all  []mm.Code
	memo map[string][3]int // total, depth, ok
}

func (p *plainOptimal) solve(set []mm.Code, depth int) (total, d int, ok bool) {
	if len(set) == 0 {
		return 0, 0, true
	}
	if depth == 0 {
		return 0, 0, false
	}
	key := fmt.Sprint(depth, set)
	if v, hit := p.memo[key]; hit {
		return v[0], v[1], v[2] == 1
	}
	bestT, bestD, found := 0, 0, false
	pegs := set[0].Len()
	for _, g := range p.all {
		classes := map[mm.Feedback][]mm.Code{}
		for _, s := range set {
			f := mm.Score(s, g)
			classes[f] = append(classes[f], s)
		}
		if len(classes) == 1 {
			if _, win := classes[mm.Feedback{Black: pegs}]; !win {
				continue // learns nothing
			}
		}
		t, dd, good := len(set), 0, true
		for f, c := range classes {
			if f.Solved(pegs) {
				continue
			}
			ct, cd, cok := p.solve(c, depth-1)
			if !cok {
				good = false
				break
			}
			t += ct
			dd = max(dd, cd)
		}
		dd++
		if good && (!found || t < bestT || (t == bestT && dd < bestD)) {
			bestT, bestD, found = t, dd, true
		}
	}
	v := [3]int{bestT, bestD, 0}
	if found {
		v[2] = 1
	}
	p.memo[key] = v
	return bestT, bestD, found
}

// TestOptimalAgainstPlainSearch checks the optimal strategy's totals and
// worst cases on tiny variants against the plain exhaustive search, with
// and without a depth limit.
func TestOptimalAgainstPlainSearch(t *testing.T) {
	cases := []mm.Rules{
		{Colors: 3, Pegs: 3},
		{Colors: 2, Pegs: 4},
		{Colors: 3, Pegs: 2, Distinct: true},
		{Colors: 4, Pegs: 2},
		{Colors: 2, Pegs: 3},
		{Colors: 4, Pegs: 3, Distinct: true},
	}
	if !testing.Short() {
		cases = append(cases, mm.Rules{Colors: 3, Pegs: 4}) // about 10 s of plain search
	}
	for _, r := range cases {
		sp, err := mm.SpaceOf(r)
		if err != nil {
			t.Fatal(err)
		}
		all := sp.All().Codes()
		p := &plainOptimal{all: all, memo: map[string][3]int{}}
		wantT, wantD, _ := p.solve(all, len(all))
		for _, depth := range []int{0, wantD, wantD - 1} {
			name := fmt.Sprintf("%s/depth%d", r, depth)
			t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
				limit := depth
				if depth == 0 {
					limit = len(all)
				}
				pt, pd, pok := p.solve(all, limit)
				tree, err := strategy.SolveOptimal(r, depth)
				if !pok {
					if err == nil {
						t.Fatalf("SolveOptimal(%s, %d) found a tree; the plain search says none exists", r, depth)
					}
					return
				}
				if err != nil {
					t.Fatalf("SolveOptimal(%s, %d): %v; the plain search finds total %d depth %d", r, depth, err, pt, pd)
				}
				gotT, gotD := tree.Cost()
				if gotT != pt || gotD != pd {
					t.Errorf("SolveOptimal(%s, %d) = total %d, depth %d; want %d, %d", r, depth, gotT, gotD, pt, pd)
				}
				if depth == 0 && (gotT != wantT || gotD != wantD) {
					t.Errorf("SolveOptimal(%s) = %d, %d; want %d, %d", r, gotT, gotD, wantT, wantD)
				}
				replay(t, tree, all)
			})
		}
	}
}

// replay checks that following tree finds every secret, and that its Cost
// agrees with the guesses actually made.
func replay(t *testing.T, tree *mm.Tree, secrets []mm.Code) {
	t.Helper()
	total, depth := 0, 0
	for _, s := range secrets {
		gs, err := tree.Play(s)
		if err != nil {
			t.Fatalf("tree.Play(%v): %v", s, err)
		}
		if gs[len(gs)-1] != s {
			t.Fatalf("tree.Play(%v) ends with %v", s, gs[len(gs)-1])
		}
		total += len(gs)
		depth = max(depth, len(gs))
	}
	ct, cd := tree.Cost()
	if ct != total || cd != depth {
		t.Errorf("tree.Cost() = %d, %d; replaying every secret gives %d, %d", ct, cd, total, depth)
	}
}

// TestOptimalPublished checks the published optimal totals (Koyama and Lai
// 1993 for 6 × 4; Ville 2013 for the others).
func TestOptimalPublished(t *testing.T) {
	cases := []struct {
		r            mm.Rules
		depth        int
		total, worst int
	}{
		{mm.Rules{Colors: 4, Pegs: 4}, 0, 905, 0},
		{mm.Rules{Colors: 6, Pegs: 3}, 0, 854, 0},
		{mm.Rules{Colors: 5, Pegs: 4}, 0, 2463, 0},
		{mm.Rules{Colors: 6, Pegs: 4}, 0, 5625, 6},
		{mm.Rules{Colors: 6, Pegs: 4}, 5, 5626, 5},
	}
	for _, c := range cases {
		if testing.Short() && c.r.Size() > 1000 {
			continue
		}
		tree, err := strategy.SolveOptimal(c.r, c.depth)
		if err != nil {
			t.Fatalf("SolveOptimal(%s, %d): %v", c.r, c.depth, err)
		}
		total, worst := tree.Cost()
		if total != c.total || (c.worst != 0 && worst != c.worst) {
			t.Errorf("SolveOptimal(%s, %d) = %d guesses, worst %d; want %d, worst %d", c.r, c.depth, total, worst, c.total, c.worst)
		}
		sp, _ := mm.SpaceOf(c.r)
		replay(t, tree, sp.All().Codes())
	}
	if _, err := strategy.SolveOptimal(mm.Classic, 4); err == nil {
		t.Errorf("SolveOptimal(6x4, 4) = nil error; no strategy finds every code in 4 guesses")
	}
}

// TestOptimalOffTree checks that the strategy still plays well once the
// history leaves its tree, as in assist mode when a person plays their own
// guess: the guess it returns is optimal for what is left.
func TestOptimalOffTree(t *testing.T) {
	r := mm.Rules{Colors: 4, Pegs: 3}
	st, _ := mm.NewState(r, nil)
	g, _ := r.ParseCode("123") // not the tree's opening
	next, err := st.Play(g, mm.Feedback{Black: 1, White: 0})
	if err != nil {
		t.Fatal(err)
	}
	guess, err := strategy.Optimal{}.Guess(next)
	if err != nil {
		t.Fatal(err)
	}
	cands, _ := next.Candidates()
	sp, _ := mm.SpaceOf(r)
	p := &plainOptimal{all: sp.All().Codes(), memo: map[string][3]int{}}
	want, _, _ := p.solve(cands.Codes(), cands.Len())
	// The cost of playing guess, then optimally.
	classes := map[mm.Feedback][]mm.Code{}
	for _, c := range cands.Codes() {
		classes[mm.Score(c, guess)] = append(classes[mm.Score(c, guess)], c)
	}
	got := cands.Len()
	for f, c := range classes {
		if !f.Solved(r.Pegs) {
			ct, _, _ := p.solve(c, len(c))
			got += ct
		}
	}
	if got != want {
		t.Errorf("Optimal.Guess off the tree = %v costing %d; the best costs %d", guess, got, want)
	}
}

// TestOptimalThroughHarness checks that bench's harness, asking the strategy
// one guess at a time, reproduces the tree's totals.
func TestOptimalThroughHarness(t *testing.T) {
	r := mm.Rules{Colors: 4, Pegs: 4}
	rep, err := eval.Run(t.Context(), r, "optimal", strategy.Optimal{}, &eval.Options{All: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Total != 905 {
		t.Errorf("bench optimal on 4x4 = %d; want 905", rep.Total)
	}
}

// TestOptimalDeterministic checks that the tree does not depend on the
// number of workers, though the search splits work between them.
func TestOptimalDeterministic(t *testing.T) {
	r := mm.Rules{Colors: 5, Pegs: 4}
	var trees []string
	for _, procs := range []int{1, 2, 4} {
		old := runtime.GOMAXPROCS(procs)
		tree, err := strategy.Optimal{}.Solve(r)
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		trees = append(trees, dump(tree))
	}
	for i := 1; i < len(trees); i++ {
		if trees[i] != trees[0] {
			t.Errorf("the optimal tree differs between worker counts")
		}
	}
}

func dump(t *mm.Tree) string {
	var b strings.Builder
	var walk func(t *mm.Tree)
	walk = func(t *mm.Tree) {
		fmt.Fprintf(&b, "%v(", t.Guess)
		for _, br := range t.Branches {
			fmt.Fprintf(&b, "%s:", br.Feedback)
			walk(br.Next)
		}
		b.WriteString(")")
	}
	walk(t)
	return b.String()
}
