package eval_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

func TestStats(t *testing.T) {
	tests := []struct {
		guesses []int
		min     int
		max     int
		total   int
		mean    float64
		median  float64
		stddev  float64
	}{
		{nil, 0, 0, 0, 0, 0, 0},
		{[]int{4}, 4, 4, 4, 4, 4, 0},
		{[]int{3, 5}, 3, 5, 8, 4, 4, 1},
		{[]int{1, 2, 3}, 1, 3, 6, 2, 2, math.Sqrt(2.0 / 3)},
		{[]int{5, 1, 4, 2}, 1, 5, 12, 3, 3, math.Sqrt(2.5)},
		{[]int{2, 4, 4, 4, 5, 5, 7, 9}, 2, 9, 40, 5, 4.5, 2},
		{[]int{6, 6, 6, 6, 6}, 6, 6, 30, 6, 6, 0},
		{[]int{1, 1, 1, 10}, 1, 10, 13, 3.25, 1, math.Sqrt((3*2.25*2.25 + 6.75*6.75) / 4)},
		{[]int{4, 5, 5, 5, 6}, 4, 6, 25, 5, 5, math.Sqrt(0.4)},
		{[]int{3, 4, 5, 6, 7, 8}, 3, 8, 33, 5.5, 5.5, math.Sqrt(17.5 / 6)},
	}
	for _, tt := range tests {
		s := eval.Summarize(tt.guesses)
		if s.Games != len(tt.guesses) || s.Total != tt.total || s.Max != tt.max || s.Min() != tt.min {
			t.Errorf("Summarize(%v): games %d, total %d, max %d, min %d; want %d, %d, %d, %d",
				tt.guesses, s.Games, s.Total, s.Max, s.Min(), len(tt.guesses), tt.total, tt.max, tt.min)
		}
		if math.Abs(s.Mean()-tt.mean) > 1e-12 {
			t.Errorf("Summarize(%v).Mean() = %v; want %v", tt.guesses, s.Mean(), tt.mean)
		}
		if s.Median() != tt.median {
			t.Errorf("Summarize(%v).Median() = %v; want %v", tt.guesses, s.Median(), tt.median)
		}
		if math.Abs(s.StdDev()-tt.stddev) > 1e-12 {
			t.Errorf("Summarize(%v).StdDev() = %v; want %v", tt.guesses, s.StdDev(), tt.stddev)
		}
		sum := 0
		for n, c := range s.Histogram {
			sum += c
			if c > 0 && !slices.Contains(tt.guesses, n) {
				t.Errorf("Summarize(%v).Histogram[%d] = %d", tt.guesses, n, c)
			}
		}
		if sum != len(tt.guesses) {
			t.Errorf("Summarize(%v).Histogram sums to %d", tt.guesses, sum)
		}
		want := slices.Compact(slices.Sorted(slices.Values(tt.guesses)))
		if got := s.Counts(); !slices.Equal(got, want) {
			t.Errorf("Summarize(%v).Counts() = %v; want %v", tt.guesses, got, want)
		}
	}
	// Merge is Summarize of the concatenation.
	a, b := eval.Summarize([]int{1, 4, 4}), eval.Summarize([]int{6, 2})
	a.Merge(b)
	if want := eval.Summarize([]int{1, 4, 4, 6, 2}); a.Games != want.Games || a.Total != want.Total || a.Max != want.Max ||
		!slices.Equal(a.Histogram, want.Histogram) {
		t.Errorf("Merge = %+v; want %+v", a, want)
	}
}

func randomConsistent(t *testing.T) mm.Strategy {
	s, err := strategy.New("random-consistent", strategy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRunReproducible checks that a randomised run depends only on the
// seed: not on the number of workers, nor on the run.
func TestRunReproducible(t *testing.T) {
	s := randomConsistent(t)
	var first *eval.Report
	for _, workers := range []int{1, 4, 1, 4, 0} {
		rep, err := eval.Run(context.Background(), mm.Classic, "random-consistent", s, &eval.Options{Games: 300, Seed: 7, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Games != 300 || !rep.Sampled || rep.Seed != 7 || rep.Strategy != "random-consistent" || rep.Rules != mm.Classic {
			t.Errorf("Report = %+v; want 300 sampled games, seed 7, named random-consistent, 6x4", rep)
		}
		if first == nil {
			first = rep
			continue
		}
		if rep.Total != first.Total || rep.Max != first.Max || !slices.Equal(rep.Histogram, first.Histogram) {
			t.Errorf("Workers %d: total %d, max %d, histogram %v; first run: %d, %d, %v",
				workers, rep.Total, rep.Max, rep.Histogram, first.Total, first.Max, first.Histogram)
		}
	}
	other, err := eval.Run(context.Background(), mm.Classic, "random-consistent", s, &eval.Options{Games: 300, Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	if other.Total == first.Total && slices.Equal(other.Histogram, first.Histogram) {
		t.Errorf("seeds 7 and 8 give the same results (%d guesses); want different secrets", other.Total)
	}
}

func TestSecrets(t *testing.T) {
	r := mm.Rules{Colors: 8, Pegs: 5}
	a, sampled, err := eval.Secrets(r, &eval.Options{Games: 200, Seed: 3})
	if err != nil || !sampled || len(a) != 200 {
		t.Fatalf("Secrets(8x5, 200 games) = %d codes, sampled %v, %v", len(a), sampled, err)
	}
	b, _, _ := eval.Secrets(r, &eval.Options{Games: 200, Seed: 3})
	c, _, _ := eval.Secrets(r, &eval.Options{Games: 200, Seed: 4})
	if !slices.Equal(a, b) {
		t.Errorf("Secrets with seed 3 differ between calls")
	}
	if slices.Equal(a, c) {
		t.Errorf("Secrets with seeds 3 and 4 are the same")
	}
	for _, x := range a {
		if err := r.Check(x); err != nil {
			t.Errorf("secret %v: %v", x, err)
		}
	}
	// Distinct secrets are legal too, and cover the colours.
	d := mm.Rules{Colors: 10, Pegs: 4, Distinct: true}
	ds, _, _ := eval.Secrets(d, &eval.Options{Games: 500, Seed: 1})
	used := map[int]bool{}
	for _, x := range ds {
		if err := d.Check(x); err != nil {
			t.Fatalf("distinct secret %v: %v", x, err)
		}
		for _, k := range x.Colors() {
			used[k] = true
		}
	}
	if len(used) != 10 {
		t.Errorf("500 distinct secrets use %d of 10 colours", len(used))
	}
	// All secrets: every code once, in order.
	all, sampled, err := eval.Secrets(mm.Classic, &eval.Options{All: true})
	if err != nil || sampled || len(all) != 1296 || all[0].String() != "1111" || all[1295].String() != "6666" {
		t.Errorf("Secrets(6x4, All) = %d codes (sampled %v, %v)", len(all), sampled, err)
	}
	// The default: every secret up to DefaultAllLimit, samples above.
	if s, sampled, _ := eval.Secrets(mm.Classic, nil); sampled || len(s) != 1296 {
		t.Errorf("Secrets(6x4, nil) = %d codes, sampled %v; want all 1296", len(s), sampled)
	}
	big := mm.Rules{Colors: 10, Pegs: 6}
	if s, sampled, _ := eval.Secrets(big, nil); !sampled || len(s) != eval.DefaultGames {
		t.Errorf("Secrets(10x6, nil) = %d codes, sampled %v; want %d sampled", len(s), sampled, eval.DefaultGames)
	}
	if _, _, err := eval.Secrets(mm.Rules{Colors: 20, Pegs: 8}, &eval.Options{All: true}); !errors.Is(err, mm.ErrTooLarge) {
		t.Errorf("Secrets(20x8, All) = %v; want ErrTooLarge", err)
	}
	if _, _, err := eval.Secrets(mm.Rules{Colors: 1}, nil); !errors.Is(err, mm.ErrInvalidRules) {
		t.Errorf("Secrets(1 colour) = %v; want ErrInvalidRules", err)
	}
}

type randomized struct{ mm.StrategyFunc }

func (randomized) Randomized() bool { return true }

// TestRunFailures checks that a strategy that fails makes Run fail with an
// error that names the secret of the failing game, through the decision
// tree (deterministic) and game by game (randomised).
func TestRunFailures(t *testing.T) {
	r := mm.Classic
	errNoIdea := errors.New("no idea")
	c1111, _ := r.ParseCode("1111")
	// first plays 1111; then, if the secret has no 1, it fails as told.
	failNo1 := func(fail func(st *mm.State) (mm.Code, error)) mm.StrategyFunc {
		return func(st *mm.State) (mm.Code, error) {
			if st.Len() == 0 {
				return c1111, nil
			}
			if st.Turn(0).Feedback == (mm.Feedback{}) {
				return fail(st)
			}
			s, err := st.Candidates()
			if err != nil {
				return mm.Code{}, err
			}
			return s.Code(0), nil
		}
	}
	failures := []struct {
		name string
		fail func(st *mm.State) (mm.Code, error)
		want error
	}{
		{"error", func(*mm.State) (mm.Code, error) { return mm.Code{}, errNoIdea }, errNoIdea},
		{"short code", func(*mm.State) (mm.Code, error) { return mm.NewCode(1, 1, 1) }, mm.ErrInvalidCode},
		{"colour 7", func(*mm.State) (mm.Code, error) { return mm.NewCode(1, 1, 1, 6) }, mm.ErrInvalidCode},
	}
	secretRE := regexp.MustCompile(`secret ([1-6]{4})`)
	for _, f := range failures {
		for _, random := range []bool{false, true} {
			var s mm.Strategy = failNo1(f.fail)
			if random {
				s = randomized{failNo1(f.fail)}
			}
			for _, opts := range []*eval.Options{{All: true}, {All: true, Workers: 1}, {Games: 50, Seed: 2}} {
				rep, err := eval.Run(context.Background(), r, f.name, s, opts)
				if err == nil {
					t.Errorf("Run(%s, randomized %v, %+v) = %+v, nil; want an error", f.name, random, *opts, rep)
					continue
				}
				if !errors.Is(err, f.want) {
					t.Errorf("Run(%s, randomized %v) error %v; want it to wrap %v", f.name, random, err, f.want)
				}
				m := secretRE.FindStringSubmatch(err.Error())
				if m == nil {
					t.Errorf("Run(%s, randomized %v) error %q does not name the secret", f.name, random, err)
				} else if strings.Contains(m[1], "1") {
					t.Errorf("Run(%s, randomized %v) error %q names secret %s, which has a 1 and cannot fail", f.name, random, err, m[1])
				}
			}
		}
	}
}

// TestRunGuessLimit checks that a game not won within MaxGuesses counts
// as failed, for deterministic and randomised strategies alike, and that
// the games won are exactly those a run without the limit wins that soon.
func TestRunGuessLimit(t *testing.T) {
	for _, name := range []string{"knuth", "random-consistent"} {
		s, _ := strategy.New(name, strategy.Options{})
		full, err := eval.Run(context.Background(), mm.Classic, name, s, &eval.Options{All: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, limit := range []int{1, 3, 4, 20} {
			rep, err := eval.Run(context.Background(), mm.Classic, name, s, &eval.Options{All: true, MaxGuesses: limit})
			if err != nil {
				t.Fatalf("Run(%s, MaxGuesses %d): %v", name, limit, err)
			}
			won := 0
			for n := 1; n <= limit && n < len(full.Histogram); n++ {
				won += full.Histogram[n]
			}
			if rep.Games != won || rep.Failed != 1296-won || rep.Played() != 1296 || rep.Max > limit {
				t.Errorf("Run(%s, MaxGuesses %d): %d won, %d failed, max %d; want %d won of 1296",
					name, limit, rep.Games, rep.Failed, rep.Max, won)
			}
			if want := float64(won) / 1296; rep.Won() != want {
				t.Errorf("Run(%s, MaxGuesses %d).Won() = %v; want %v", name, limit, rep.Won(), want)
			}
		}
	}
	if (eval.Stats{}).Won() != 1 {
		t.Errorf("Stats{}.Won() = %v; want 1", eval.Stats{}.Won())
	}
}

// TestRunMatchesSolve checks the decision tree against playing each game
// on its own with mm.Solve.
func TestRunMatchesSolve(t *testing.T) {
	rules := []mm.Rules{{Colors: 4, Pegs: 4}, {Colors: 5, Pegs: 3, Distinct: true}, mm.Classic}
	for _, r := range rules {
		for _, name := range []string{"knuth", "entropy", "first-consistent"} {
			s, _ := strategy.New(name, strategy.Options{})
			rep, err := eval.Run(context.Background(), r, name, s, &eval.Options{All: true})
			if err != nil {
				t.Fatal(err)
			}
			sp, _ := mm.SpaceOf(r)
			var guesses []int
			for _, secret := range sp.All().Codes() {
				st, _ := mm.NewState(r, nil)
				steps, err := mm.Solve(st, s, secret, 0)
				if err != nil {
					t.Fatalf("Solve(%s, %v): %v", name, secret, err)
				}
				guesses = append(guesses, len(steps))
			}
			want := eval.Summarize(guesses)
			if rep.Total != want.Total || !slices.Equal(rep.Histogram, want.Histogram) {
				t.Errorf("Run(%s, %v) histogram %v; Solve game by game gives %v", name, r, rep.Histogram, want.Histogram)
			}
		}
	}
}

func TestRunProgressAndCancel(t *testing.T) {
	s, _ := strategy.New("knuth", strategy.Options{})
	var calls, last atomic.Int64
	var bad atomic.Bool
	_, err := eval.Run(context.Background(), mm.Classic, "knuth", s, &eval.Options{All: true, Workers: 3,
		Progress: func(done, total int) {
			calls.Add(1)
			if total != 1296 || done < 1 || done > total {
				bad.Store(true)
			}
			last.Store(max(last.Load(), int64(done)))
		}})
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 1296 || last.Load() != 1296 || bad.Load() {
		t.Errorf("Progress called %d times, up to %d (bad arguments: %v); want 1296 calls up to 1296", calls.Load(), last.Load(), bad.Load())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, name := range []string{"knuth", "random-consistent"} {
		s, _ := strategy.New(name, strategy.Options{})
		if _, err := eval.Run(ctx, mm.Classic, name, s, nil); !errors.Is(err, context.Canceled) {
			t.Errorf("Run(%s) with a cancelled context = %v; want context.Canceled", name, err)
		}
	}
	if _, err := eval.Run(context.Background(), mm.Rules{Pegs: -1}, "knuth", s, nil); !errors.Is(err, mm.ErrInvalidRules) {
		t.Errorf("Run with bad rules = %v; want ErrInvalidRules", err)
	}
}

func TestRandomCode(t *testing.T) {
	for _, r := range []mm.Rules{mm.Classic, {Colors: 7, Pegs: 7, Distinct: true}, {Colors: 2, Pegs: 1}} {
		seen := map[mm.Code]bool{}
		rng := newRand(5)
		for range 2000 {
			c := mm.RandomCode(r, rng)
			if err := r.Check(c); err != nil {
				t.Fatalf("RandomCode(%v) = %v: %v", r, c, err)
			}
			seen[c] = true
		}
		if want := min(int(r.Size()), 500); len(seen) < want {
			t.Errorf("2000 RandomCode(%v) give %d distinct codes; want at least %d", r, len(seen), want)
		}
	}
}

func ExampleRun() {
	s, err := strategy.New("knuth", strategy.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := eval.Run(context.Background(), mm.Classic, "knuth", s, &eval.Options{All: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d games, %d guesses, mean %.3f, worst %d\n", rep.Games, rep.Total, rep.Mean(), rep.Max)
	fmt.Println(rep.Histogram[1:])
	// Output:
	// 1296 games, 5801 guesses, mean 4.476, worst 5
	// [1 6 62 533 694]
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0)) }

// treer gives its decision tree whole, as the optimal strategy does, and
// counts the guesses it is asked for one at a time.
type treer struct {
	tree  *mm.Tree
	asked *atomic.Int32
}

func (s treer) Guess(st *mm.State) (mm.Code, error) {
	s.asked.Add(1)
	t := s.tree
	for i := 0; i < st.Len() && t != nil; i++ {
		t = t.Child(st.Turn(i).Feedback)
	}
	if t == nil {
		return mm.Code{}, errors.New("off the tree")
	}
	return t.Guess, nil
}

func (s treer) TreeContext(context.Context, mm.Rules) (*mm.Tree, error) { return s.tree, nil }

// TestRunTreer checks that a strategy that gives its whole tree is played
// over every secret by walking that tree, never asked for a guess, with the
// statistics of the same strategy played one guess at a time, and over
// sampled games one guess at a time; and that a tree with a branch missing
// or an illegal guess fails as the strategy would.
func TestRunTreer(t *testing.T) {
	r := mm.Classic
	knuth, _ := strategy.New("knuth", strategy.Options{})
	tree, err := eval.BuildTree(context.Background(), r, knuth)
	if err != nil {
		t.Fatal(err)
	}
	want, err := eval.Run(context.Background(), r, "knuth", knuth, &eval.Options{All: true, MaxGuesses: 4})
	if err != nil {
		t.Fatal(err)
	}
	s := treer{tree: tree, asked: new(atomic.Int32)}
	got, err := eval.Run(context.Background(), r, "knuth", s, &eval.Options{All: true, MaxGuesses: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got.Total != want.Total || got.Failed != want.Failed || !slices.Equal(got.Histogram, want.Histogram) || got.Failed == 0 {
		t.Errorf("Run(knuth's tree, MaxGuesses 4) = %d guesses, %d failed, %v; one guess at a time %d, %d, %v (some failed)",
			got.Total, got.Failed, got.Histogram, want.Total, want.Failed, want.Histogram)
	}
	if n := s.asked.Load(); n != 0 {
		t.Errorf("Run asked the strategy with a tree for %d guesses; want its tree walked", n)
	}
	// Sampled games need only part of the tree: they ask guess by guess.
	sampled := &eval.Options{Games: 20, Seed: 3}
	want, _ = eval.Run(context.Background(), r, "knuth", knuth, sampled)
	got, err = eval.Run(context.Background(), r, "knuth", s, sampled)
	if err != nil || got.Total != want.Total || s.asked.Load() == 0 {
		t.Errorf("Run(knuth's tree, 20 games) = %v total, %v, %d guesses asked; want %d total, guesses asked one at a time",
			got, err, s.asked.Load(), want.Total)
	}

	// Knuth's tree with the last branch of the root's first subtree cut
	// off, and with a guess of a seventh colour there.
	broken := func(change func(sub *mm.Tree)) *mm.Tree {
		root := *tree
		root.Branches = slices.Clone(tree.Branches)
		sub := *root.Branches[0].Next
		change(&sub)
		root.Branches[0].Next = &sub
		return &root
	}
	cut := broken(func(sub *mm.Tree) { sub.Branches = sub.Branches[:len(sub.Branches)-1] })
	c7, _ := mm.NewCode(0, 1, 2, 6)
	illegal := broken(func(sub *mm.Tree) { sub.Guess = c7 })
	for _, c := range []struct {
		name string
		tree *mm.Tree
		want error
	}{{"branch missing", cut, mm.ErrInconsistent}, {"illegal guess", illegal, mm.ErrInvalidCode}} {
		rep, err := eval.Run(context.Background(), r, c.name, treer{tree: c.tree, asked: new(atomic.Int32)}, &eval.Options{All: true})
		if !errors.Is(err, c.want) {
			t.Errorf("Run(tree with %s) = %+v, %v; want an error wrapping %v", c.name, rep, err, c.want)
		}
	}
}
