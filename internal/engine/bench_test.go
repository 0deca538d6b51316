package engine

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// BenchmarkWalk measures one worker playing every secret of a variant, the
// work of `mastermind bench --all` under GOMAXPROCS=1 without the process
// around it. BENCHMARKS.md compares it, through the command, with the C++
// peer's mmstrat.
func BenchmarkWalk(b *testing.B) {
	for _, r := range []mm.Rules{{Colors: 6, Pegs: 4}, {Colors: 10, Pegs: 4}, {Colors: 8, Pegs: 5}} {
		sp, err := mm.SpaceOf(r)
		if err != nil {
			b.Fatal(err)
		}
		for _, o := range objectives {
			b.Run(r.String()+"/"+short[o], func(b *testing.B) {
				ch := &Chooser{V: For(sp), Obj: o}
				for b.Loop() {
					if _, err := ch.Walk(context.Background(), nil, nil, 1); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkScore measures scoring one guess against sets of each size
// class: candidate by candidate (8), one plane of masks (40) and several
// (200).
func BenchmarkScore(b *testing.B) {
	sp, err := mm.SpaceOf(mm.Rules{Colors: 8, Pegs: 5})
	if err != nil {
		b.Fatal(err)
	}
	v := For(sp)
	for _, n := range []int{8, 40, 200} {
		// Every 997th code: a set spread over the space.
		var members []uint32
		for i := 0; len(members) < n; i += 997 {
			members = append(members, uint32(i%sp.Len()))
		}
		slices.Sort(members)
		for _, o := range objectives {
			b.Run(short[o]+"/"+strconv.Itoa(n), func(b *testing.B) {
				var s set
				var sc scratch
				s.load(v, members)
				sc.ready(&s)
				g := 0
				for b.Loop() {
					sc.score(&s, g, o, 1<<62)
					if g++; g == sp.Len() {
						g = 0
					}
				}
			})
		}
	}
}

// short names the objectives in benchmark names.
var short = map[Objective]string{Largest: "knuth", SumSquares: "expected-size", SumNLogN: "entropy", NegParts: "most-parts"}

// BenchmarkSmallNodes77 measures entropy's choice for twelve sets of 12 to
// 64 candidates of 7 × 7, each after random guesses against a random
// secret: the nodes that make most of the time of a walk over 7 × 7, each
// scoring its candidates against 823 543 guesses.
func BenchmarkSmallNodes77(b *testing.B) {
	sp, nodes := smallNodes77(b)
	ch := &Chooser{V: For(sp), Obj: SumNLogN}
	for b.Loop() {
		for _, n := range nodes {
			if _, err := ch.Choose(context.Background(), n.members, n.history, 1); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkFamilies77 measures BenchmarkSmallNodes77's choices under each
// objective without and with the bounds shared by guess families
// (family.go), and reports the families bounded and the guesses dropped,
// a node, of the guesses of its pool.
func BenchmarkFamilies77(b *testing.B) {
	sp, nodes := smallNodes77(b)
	families77(b, sp, nodes)
}

// BenchmarkFamilies77Planes is BenchmarkFamilies77 on six nodes of 65 to
// 512 candidates, and six of 513 to 4 096: sets of several planes.
func BenchmarkFamilies77Planes(b *testing.B) {
	sp, mid := nodes77(b, 65, 512, 6)
	_, big := nodes77(b, 513, 4096, 6)
	b.Run("65-512", func(b *testing.B) { families77(b, sp, mid) })
	b.Run("513-4096", func(b *testing.B) { families77(b, sp, big) })
}

func families77(b *testing.B, sp *mm.Space, nodes []node77) {
	guesses := 0
	ch := &Chooser{V: For(sp)}
	for _, n := range nodes {
		guesses += len(ch.Pool(n.members, n.history))
	}
	for _, o := range objectives {
		for _, on := range []bool{false, true} {
			b.Run(short[o]+"/"+map[bool]string{false: "off", true: "on"}[on], func(b *testing.B) {
				ch := &Chooser{V: For(sp), Obj: o, NoFamilies: !on}
				wk := &worker{}
				for b.Loop() {
					for _, n := range nodes {
						if _, err := ch.choose(context.Background(), wk, n.members, n.history, 1); err != nil {
							b.Fatal(err)
						}
					}
				}
				per := float64(b.N * len(nodes))
				b.ReportMetric(float64(guesses)/float64(len(nodes)), "guesses/node")
				b.ReportMetric(float64(wk.sc.famChecked)/per, "families/node")
				b.ReportMetric(float64(wk.sc.famDropped)/per, "dropped/node")
			})
		}
	}
}

// A node77 is a node of a game of 7 × 7.
type node77 struct {
	members []uint32
	history []mm.Code
}

// smallNodes77 returns twelve nodes of 12 to 64 candidates of 7 × 7, each
// after random guesses against a random secret.
func smallNodes77(b *testing.B) (*mm.Space, []node77) {
	return nodes77(b, 12, 64, 12)
}

// nodes77 returns count nodes of lo to hi candidates of 7 × 7, each after
// random guesses against a random secret.
func nodes77(b *testing.B, lo, hi, count int) (*mm.Space, []node77) {
	r := mm.Rules{Colors: 7, Pegs: 7}
	sp, err := mm.SpaceOf(r)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	var nodes []node77
	for len(nodes) < count {
		secret := sp.Code(rng.IntN(sp.Len()))
		st, _ := mm.NewState(r, nil)
		for range 8 {
			g := sp.Code(rng.IntN(sp.Len()))
			if st, err = st.Play(g, mm.Score(secret, g)); err != nil {
				b.Fatal(err)
			}
			c, err := st.Candidates()
			if err != nil {
				b.Fatal(err)
			}
			if c.Len() > hi {
				continue
			}
			if c.Len() >= lo {
				n := node77{members: make([]uint32, c.Len())}
				for i := range n.members {
					n.members[i] = uint32(c.Index(i))
				}
				for _, t := range st.Turns() {
					n.history = append(n.history, t.Guess)
				}
				nodes = append(nodes, n)
			}
			break
		}
	}
	return sp, nodes
}

// BenchmarkRollout measures a walk of 6 × 5 by entropy with a win bonus of
// 1.5 over the near pool, with 8 play-outs at each node and 64 at nodes of
// at most 300 candidates: the rule of the 7 × 7 record, on a variant of a
// second a walk.
func BenchmarkRollout(b *testing.B) {
	sp, err := mm.SpaceOf(mm.Rules{Colors: 6, Pegs: 5})
	if err != nil {
		b.Fatal(err)
	}
	ch := &Chooser{V: For(sp), Obj: SumNLogN, Bonus: 3 << 31,
		Sample:  Sample{Work: 1 << 28, Top: 64, Mutate: 128, Near: 128, Climb: 3},
		Rollout: Rollout{Top: 8, Min: 3, Max: math.MaxInt, Small: 300, SmallTop: 64}}
	for b.Loop() {
		if _, err := ch.Walk(context.Background(), nil, nil, 1); err != nil {
			b.Fatal(err)
		}
	}
}
