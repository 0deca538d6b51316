package strategy_test

import (
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// BenchmarkFirstGuess measures each scoring strategy's opening and its
// second guess after the worst first feedback, the costliest guesses of a
// game.
func BenchmarkFirstGuess(b *testing.B) {
	for _, r := range []mm.Rules{{Colors: 6, Pegs: 4}, {Colors: 8, Pegs: 5}} {
		for _, name := range []string{"knuth", "expected-size", "entropy", "most-parts"} {
			s, err := strategy.New(name, strategy.Options{})
			if err != nil {
				b.Fatal(err)
			}
			root, _ := mm.NewState(r, nil)
			b.Run(r.String()+"/"+name+"/first", func(b *testing.B) {
				for b.Loop() {
					if _, err := s.Guess(root); err != nil {
						b.Fatal(err)
					}
				}
			})
			g, _ := s.Guess(root)
			second, err := root.Play(g, mm.Feedback{})
			if err != nil {
				b.Fatal(err)
			}
			second.Candidates()
			b.Run(r.String()+"/"+name+"/second", func(b *testing.B) {
				for b.Loop() {
					if _, err := s.Guess(second); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
