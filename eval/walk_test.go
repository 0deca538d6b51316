package eval_test

import (
	"context"
	"slices"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// oneAtATime hides a strategy's Walk, so that Run plays it guess by guess
// through its decision tree.
type oneAtATime struct{ mm.Strategy }

// TestRunWalkerMatchesTree checks that Run reports the same games from a
// Walker's walk as from playing the strategy one guess at a time: every
// secret, a selection of them, sampled games, and a guess limit.
func TestRunWalkerMatchesTree(t *testing.T) {
	r := mm.Rules{Colors: 5, Pegs: 4}
	for _, name := range []string{"knuth", "expected-size", "entropy", "most-parts"} {
		s, err := strategy.New(name, strategy.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := s.(eval.Walker); !ok {
			t.Fatalf("%s is not an eval.Walker", name)
		}
		for _, o := range []eval.Options{
			{All: true},
			{All: true, MaxGuesses: 4},
			{All: true, Select: func(i int, _ mm.Code) bool { return i%3 == 1 }},
			{Games: 300, Seed: 7},
			{Games: 5000, Seed: 8, Select: func(i int, _ mm.Code) bool { return i%2 == 0 }},
		} {
			type rec struct {
				i       int
				secret  mm.Code
				guesses int
			}
			run := func(s mm.Strategy) (*eval.Report, []rec, int) {
				var recs []rec
				calls := 0
				o := o
				o.Record = func(i int, secret mm.Code, g int) { recs = append(recs, rec{i, secret, g}) }
				o.Progress = func(done, total int) { calls++ }
				rep, err := eval.Run(context.Background(), r, name, s, &o)
				if err != nil {
					t.Fatal(err)
				}
				slices.SortFunc(recs, func(a, b rec) int { return a.i - b.i })
				return rep, recs, calls
			}
			got, gotRecs, gotCalls := run(s)
			want, wantRecs, wantCalls := run(oneAtATime{s})
			if got.Total != want.Total || got.Games != want.Games || got.Failed != want.Failed ||
				!slices.Equal(got.Histogram, want.Histogram) || !slices.Equal(gotRecs, wantRecs) {
				t.Errorf("%s, %+v: walked %d games, %d guesses, %d failed, %v; one at a time %d, %d, %d, %v",
					name, o, got.Games, got.Total, got.Failed, got.Histogram, want.Games, want.Total, want.Failed, want.Histogram)
			}
			if gotCalls != wantCalls {
				t.Errorf("%s, %+v: Progress called %d times; one at a time %d", name, o, gotCalls, wantCalls)
			}
		}
	}
}
