package mastermind_test

import (
	"math/rand/v2"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

func randomCodes(r mm.Rules, n int, seed uint64) []mm.Code {
	rng := rand.New(rand.NewPCG(seed, 0))
	sp, err := mm.SpaceOf(r)
	if err != nil {
		panic(err)
	}
	out := make([]mm.Code, n)
	for i := range out {
		out[i] = sp.Code(rng.IntN(sp.Len()))
	}
	return out
}

// BenchmarkScore measures the plain scorer on one pair of codes.
func BenchmarkScore(b *testing.B) {
	codes := randomCodes(mm.Classic, 1024, 1)
	i := 0
	for b.Loop() {
		_ = mm.Score(codes[i&1023], codes[(i+1)&1023])
		i++
	}
}

// BenchmarkCount measures the packed scoring of one guess against every
// code: the hot loop of every scoring strategy. The reported ns/code is the
// cost of one feedback.
func BenchmarkCount(b *testing.B) {
	for _, r := range []mm.Rules{{Colors: 6, Pegs: 4}, {Colors: 8, Pegs: 5}, {Colors: 10, Pegs: 4, Distinct: true}, {Colors: 12, Pegs: 6}} {
		b.Run(r.String(), func(b *testing.B) {
			sp, _ := mm.SpaceOf(r)
			all := sp.All()
			counts := make([]uint32, sp.Keys())
			g := 0
			for b.Loop() {
				clear(counts)
				all.Count(g, counts)
				g = (g + 7919) % sp.Len()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(sp.Len()), "ns/code")
		})
	}
}

// BenchmarkSplit measures dividing all codes by a guess's feedback.
func BenchmarkSplit(b *testing.B) {
	for _, r := range []mm.Rules{{Colors: 6, Pegs: 4}, {Colors: 8, Pegs: 5}} {
		b.Run(r.String(), func(b *testing.B) {
			sp, _ := mm.SpaceOf(r)
			all := sp.All()
			for b.Loop() {
				_ = all.Split(1)
			}
		})
	}
}

// BenchmarkFilter measures keeping the codes that give one feedback.
func BenchmarkFilter(b *testing.B) {
	sp, _ := mm.SpaceOf(mm.Rules{Colors: 8, Pegs: 5})
	g, _ := mm.Rules{Colors: 8, Pegs: 5}.ParseCode("11223")
	for b.Loop() {
		_, _ = sp.All().Filter(g, mm.Feedback{Black: 1, White: 1})
	}
}
