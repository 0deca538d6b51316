package exact

import (
	"context"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// BenchmarkSolveCold measures the search as a fresh process runs it: the
// tables of the variant and its pools built anew each time.
func BenchmarkSolveCold(b *testing.B) {
	for _, r := range []mm.Rules{{Colors: 5, Pegs: 4}, mm.Classic} {
		b.Run(r.String(), func(b *testing.B) {
			st, err := mm.NewState(r, nil)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				codesCache.Lock()
				evictCodes()
				codesCache.Unlock()
				if _, err := Solve(context.Background(), st, &Options{Workers: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
