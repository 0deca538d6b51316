package exact_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/exact"
	"github.com/mastermind-toolkit/mastermind/internal/race"
	"github.com/mastermind-toolkit/mastermind/internal/slow"
)

// plainOptimal is a deliberately plain exhaustive search: every code is
// tried as a guess at every node, without bounds, symmetry or tables of
// the solver's. It returns the least total number of guesses to find every
// code of set, then the least depth, with at most depth guesses (ok false
// if impossible). Only its bookkeeping is quick: sets are indices into all,
// memoised by a bitset, and the feedbacks are scored once up front.
type plainOptimal struct {
	all   []mm.Code
	index map[mm.Code]int
	fb    [][]uint8 // fb[g][s]: the feedback of guess all[g] on secret all[s], black·(pegs+1)+white
	win   uint8
	kinds int
	memo  map[string][3]int // total, depth, ok
}

func newPlainOptimal(all []mm.Code) *plainOptimal {
	pegs := all[0].Len()
	p := &plainOptimal{all: all, index: map[mm.Code]int{}, fb: make([][]uint8, len(all)),
		win: uint8(pegs * (pegs + 1)), kinds: (pegs + 1) * (pegs + 1), memo: map[string][3]int{}}
	for i, c := range all {
		p.index[c] = i
	}
	for g, gc := range all {
		p.fb[g] = make([]uint8, len(all))
		for s, sc := range all {
			f := mm.Score(sc, gc)
			p.fb[g][s] = uint8(f.Black*(pegs+1) + f.White)
		}
	}
	return p
}

func (p *plainOptimal) solve(set []mm.Code, depth int) (total, d int, ok bool) {
	idx := make([]int, len(set))
	for i, c := range set {
		idx[i] = p.index[c]
	}
	return p.search(idx, depth)
}

func (p *plainOptimal) search(set []int, depth int) (total, d int, ok bool) {
	if len(set) == 0 {
		return 0, 0, true
	}
	if depth == 0 {
		return 0, 0, false
	}
	key := make([]byte, 2+(len(p.all)+7)/8)
	key[0], key[1] = byte(depth), byte(depth>>8)
	for _, s := range set {
		key[2+s/8] |= 1 << (s % 8)
	}
	if v, hit := p.memo[string(key)]; hit {
		return v[0], v[1], v[2] == 1
	}
	bestT, bestD, found := 0, 0, false
	count := make([]int, p.kinds)
	start := make([]int, p.kinds+1)
	for g := range p.all {
		clear(count)
		n := 0
		for _, s := range set {
			f := p.fb[g][s]
			if count[f] == 0 {
				n++
			}
			count[f]++
		}
		if n == 1 && count[p.win] == 0 {
			continue // learns nothing
		}
		// The classes, each a run of one slice, in the order of their feedbacks.
		for f, c := range count {
			start[f+1] = start[f] + c
		}
		classes := make([]int, len(set))
		next := slices.Clone(start[:p.kinds])
		for _, s := range set {
			f := p.fb[g][s]
			classes[next[f]] = s
			next[f]++
		}
		t, dd, good := len(set), 0, true
		for f := range p.kinds {
			if count[f] == 0 || uint8(f) == p.win {
				continue
			}
			ct, cd, cok := p.search(classes[start[f]:start[f+1]], depth-1)
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
	p.memo[string(key)] = v
	return bestT, bestD, found
}

func solve(t testing.TB, st *mm.State, maxDepth int) (*exact.Result, error) {
	t.Helper()
	return exact.Solve(context.Background(), st, &exact.Options{MaxDepth: maxDepth})
}

func start(t testing.TB, r mm.Rules) *mm.State {
	t.Helper()
	st, err := mm.NewState(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestAgainstPlainSearch checks the totals and worst cases on tiny variants
// against the plain exhaustive search, with and without a depth limit.
func TestAgainstPlainSearch(t *testing.T) {
	t.Parallel()
	cases := []mm.Rules{
		{Colors: 3, Pegs: 3},
		{Colors: 2, Pegs: 4},
		{Colors: 3, Pegs: 2, Distinct: true},
		{Colors: 4, Pegs: 2},
		{Colors: 2, Pegs: 3},
		{Colors: 4, Pegs: 3, Distinct: true},
	}
	if slow.Enabled && !testing.Short() && !race.Enabled {
		// The largest, slowest by far under the race detector and a
		// third of the test's CPU in the plain run; the smaller
		// variants run the same code, and the slow tier (go test
		// -tags slow, which CI runs) checks this one.
		cases = append(cases, mm.Rules{Colors: 3, Pegs: 4})
	}
	for _, r := range cases {
		sp, err := mm.SpaceOf(r)
		if err != nil {
			t.Fatal(err)
		}
		all := sp.All().Codes()
		p := newPlainOptimal(all)
		wantT, wantD, _ := p.solve(all, len(all))
		for _, depth := range []int{0, wantD, wantD - 1} {
			name := fmt.Sprintf("%s/depth%d", r, depth)
			t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
				limit := depth
				if depth == 0 {
					limit = len(all)
				}
				pt, pd, pok := p.solve(all, limit)
				res, err := solve(t, start(t, r), depth)
				if !pok {
					if err == nil {
						t.Fatalf("Solve(%s, max depth %d) found a tree; the plain search says none exists", r, depth)
					}
					return
				}
				if err != nil {
					t.Fatalf("Solve(%s, max depth %d): %v; the plain search finds total %d depth %d", r, depth, err, pt, pd)
				}
				if res.Total != pt || res.Depth != pd {
					t.Errorf("Solve(%s, max depth %d) = total %d, depth %d; want %d, %d", r, depth, res.Total, res.Depth, pt, pd)
				}
				if depth == 0 && (res.Total != wantT || res.Depth != wantD) {
					t.Errorf("Solve(%s) = %d, %d; want %d, %d", r, res.Total, res.Depth, wantT, wantD)
				}
				replay(t, res.Tree, all)
			})
		}
	}
}

// TestFromStates checks searches that start after some guesses, as when a
// game leaves the optimal tree, against the plain search: random histories
// on small variants, where the symmetries left and the colours the
// candidates exclude vary.
func TestFromStates(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, r := range []mm.Rules{{Colors: 4, Pegs: 3}, {Colors: 5, Pegs: 3}, {Colors: 3, Pegs: 4}, {Colors: 5, Pegs: 3, Distinct: true}} {
		sp, _ := mm.SpaceOf(r)
		all := sp.All().Codes()
		p := newPlainOptimal(all)
		histories := 12
		switch {
		case race.Enabled:
			histories = 4 // the slow tier checks the twelve
		case !slow.Enabled:
			// 2.2 s of CPU at twelve: the slow tier (go test -tags
			// slow, which CI runs) checks them.
			histories = 6
		}
		for range histories {
			st := start(t, r)
			secret := all[rng.IntN(len(all))]
			for range 1 + rng.IntN(2) {
				g := all[rng.IntN(len(all))]
				f := mm.Score(secret, g)
				if f.Solved(r.Pegs) {
					break
				}
				st, _ = st.Play(g, f)
			}
			cands, _ := st.Candidates()
			wantT, wantD, _ := p.solve(cands.Codes(), cands.Len())
			res, err := solve(t, st, 0)
			if err != nil {
				t.Fatalf("Solve(%v after %v): %v", r, st.Turns(), err)
			}
			if res.Total != wantT || res.Depth != wantD {
				t.Errorf("Solve(%v after %v) = %d, worst %d; the plain search finds %d, worst %d", r, st.Turns(), res.Total, res.Depth, wantT, wantD)
			}
			replay(t, res.Tree, cands.Codes())
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

// TestPublished checks the published optimal totals (Koyama and Lai 1993
// for 6 × 4; Ville 2013 for the others).
func TestPublished(t *testing.T) {
	cases := []struct {
		r            mm.Rules
		depth        int
		total, worst int
	}{
		{mm.Rules{Colors: 4, Pegs: 4}, 0, 905, 0},
		{mm.Rules{Colors: 6, Pegs: 3}, 0, 854, 0},
		{mm.Rules{Colors: 5, Pegs: 4}, 0, 2463, 0},
		{mm.Classic, 0, 5625, 6},
		{mm.Classic, 5, 5626, 5},
	}
	for _, c := range cases {
		res, err := solve(t, start(t, c.r), c.depth)
		if err != nil {
			t.Fatalf("Solve(%s, max depth %d): %v", c.r, c.depth, err)
		}
		if res.Total != c.total || (c.worst != 0 && res.Depth != c.worst) {
			t.Errorf("Solve(%s, max depth %d) = %d guesses, worst %d; want %d, worst %d", c.r, c.depth, res.Total, res.Depth, c.total, c.worst)
		}
		sp, _ := mm.SpaceOf(c.r)
		replay(t, res.Tree, sp.All().Codes())
	}
	if _, err := solve(t, start(t, mm.Classic), 4); err == nil {
		t.Errorf("Solve(6x4, max depth 4) = nil error; no strategy finds every code in 4 guesses")
	}
}

// TestRefusals checks that variants too large are refused at once, and a
// negative depth.
func TestRefusals(t *testing.T) {
	if _, err := solve(t, start(t, mm.Rules{Colors: 8, Pegs: 5}), 0); !errors.Is(err, mm.ErrTooLarge) {
		t.Errorf("Solve(8x5) = %v; want ErrTooLarge", err)
	}
	if _, err := solve(t, start(t, mm.Classic), -1); err == nil {
		t.Errorf("Solve(6x4, max depth -1) = nil error")
	}
}

// TestCancel checks that a cancelled context stops the search.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := exact.Solve(ctx, start(t, mm.Classic), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Solve with a cancelled context = %v; want context.Canceled", err)
	}
}

// BenchmarkSolve measures the search from scratch, worst case included, as
// `mastermind bench --strategy optimal` runs it.
func BenchmarkSolve(b *testing.B) {
	for _, r := range []mm.Rules{{Colors: 4, Pegs: 4}, {Colors: 5, Pegs: 4}, mm.Classic} {
		b.Run(r.String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := solve(b, start(b, r), 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestSolverLaterStates checks a solver built at one state answering for
// states that extend it: the cost of each agrees with a search of its own,
// a cutoff at or below the cost gives a bound, and a state that does not
// extend the solver's is an error.
func TestSolverLaterStates(t *testing.T) {
	r := mm.Rules{Colors: 5, Pegs: 4}
	root := start(t, r)
	g, _ := r.ParseCode("1123")
	first, _ := root.Play(g, mm.Feedback{Black: 1, White: 1})
	sv, err := exact.NewSolver(first, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sp, _ := mm.SpaceOf(r)
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20 {
		st := first
		for range 1 + rng.IntN(2) {
			guess := sp.Code(rng.IntN(sp.Len()))
			cands, _ := st.Candidates()
			secret := cands.Code(rng.IntN(cands.Len()))
			f := mm.Score(secret, guess)
			if f.Solved(r.Pegs) {
				break
			}
			st, _ = st.Play(guess, f)
		}
		want, err := solve(t, st, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := sv.Cost(ctx, st, 0)
		if err != nil || !ok || got != want.Total {
			t.Fatalf("Cost(%v) = %d, %v, %v; a search of its own finds %d", st.Turns(), got, ok, err, want.Total)
		}
		if got, ok, _ := sv.Cost(ctx, st, want.Total); ok || got < want.Total {
			t.Errorf("Cost(%v) with cutoff %d = %d, %v; want a bound of at least the cutoff", st.Turns(), want.Total, got, ok)
		}
	}
	if _, _, err := sv.Cost(ctx, root, 0); err == nil {
		t.Errorf("Cost of the start, which the solver's state extends, = nil error")
	}
}

// TestOpenings checks that solving opening by opening and keeping the
// best — least total, then least worst case, then the first in the order
// of Openings — gives exactly Solve's tree, as shards of a cluster job
// must.
func TestOpenings(t *testing.T) {
	for _, r := range []mm.Rules{{Colors: 4, Pegs: 4}, {Colors: 5, Pegs: 4}, {Colors: 6, Pegs: 3, Distinct: true}} {
		st := start(t, r)
		want, err := solve(t, st, 0)
		if err != nil {
			t.Fatal(err)
		}
		sv, err := exact.NewSolver(st, nil)
		if err != nil {
			t.Fatal(err)
		}
		openings, err := sv.Openings(st)
		if err != nil || len(openings) == 0 {
			t.Fatalf("Openings(%v) = %v, %v", r, openings, err)
		}
		var best *exact.Result
		for _, g := range openings {
			res, err := sv.Opening(context.Background(), st, g)
			if err != nil {
				t.Fatalf("Opening(%v, %v): %v", r, g, err)
			}
			if best == nil || res.Total < best.Total || (res.Total == best.Total && res.Depth < best.Depth) {
				best = res
			}
		}
		if !reflect.DeepEqual(best.Tree, want.Tree) {
			t.Errorf("%v: the best of the openings (%d, worst %d, first %v) is not Solve's tree (%d, worst %d, first %v)",
				r, best.Total, best.Depth, best.Tree.Guess, want.Total, want.Depth, want.Tree.Guess)
		}
	}
}

// TestWorstCaseBudget checks that a second phase stopped by its budget
// still gives the least total, with the worst case it had reached.
func TestWorstCaseBudget(t *testing.T) {
	for _, budget := range []int64{1, 2000} {
		res, err := exact.Solve(context.Background(), start(t, mm.Classic), &exact.Options{Workers: 1, WorstCaseBudget: budget})
		if err != nil {
			t.Fatalf("budget %d: %v", budget, err)
		}
		if res.Total != 5625 || res.Depth < 6 {
			t.Errorf("budget %d: %d guesses, worst %d; want 5625, worst 6 or more", budget, res.Total, res.Depth)
		}
		replay(t, res.Tree, mustSpace(t, mm.Classic).All().Codes())
	}
}

func mustSpace(t *testing.T, r mm.Rules) *mm.Space {
	sp, err := mm.SpaceOf(r)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}
