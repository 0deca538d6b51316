package eval_test

import (
	"context"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// BenchmarkTree measures computing a strategy's whole decision tree and
// playing every secret through it, as `mastermind bench --all` does.
func BenchmarkTree(b *testing.B) {
	cases := []struct {
		rules mm.Rules
		name  string
	}{
		{mm.Rules{Colors: 6, Pegs: 4}, "knuth"},
		{mm.Rules{Colors: 6, Pegs: 4}, "expected-size"},
		{mm.Rules{Colors: 6, Pegs: 4}, "entropy"},
		{mm.Rules{Colors: 6, Pegs: 4}, "most-parts"},
		{mm.Rules{Colors: 10, Pegs: 4}, "knuth"},
		{mm.Rules{Colors: 6, Pegs: 5}, "knuth"},
	}
	for _, c := range cases {
		b.Run(c.rules.String()+"/"+c.name, func(b *testing.B) {
			s, err := strategy.New(c.name, strategy.Options{})
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := eval.Run(context.Background(), c.rules, c.name, s, &eval.Options{All: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
