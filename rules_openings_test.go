package mastermind_test

import (
	"fmt"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

func ExampleRules_Openings() {
	fmt.Println(mm.Classic.Openings())
	fmt.Println(mm.Rules{Colors: 8, Pegs: 5}.Openings())
	fmt.Println(mm.Rules{Colors: 2, Pegs: 4}.Openings())
	// Output:
	// [1111 1112 1122 1123 1234]
	// [11111 11112 11122 11123 11223 11234 12345]
	// [1111 1112 1122]
}

// TestOpeningsCoverEveryClass checks that every code is equivalent, under
// renaming colours and permuting positions, to exactly one opening: same
// multiset of colour counts.
func TestOpeningsCoverEveryClass(t *testing.T) {
	for _, r := range []mm.Rules{{Colors: 6, Pegs: 4}, {Colors: 3, Pegs: 5}, {Colors: 5, Pegs: 3, Distinct: true}, {Colors: 2, Pegs: 6}} {
		shape := func(c mm.Code) string {
			counts := map[int]int{}
			for _, k := range c.Colors() {
				counts[k]++
			}
			var ns []int
			for _, n := range counts {
				ns = append(ns, n)
			}
			for i := range ns {
				for j := i + 1; j < len(ns); j++ {
					if ns[j] > ns[i] {
						ns[i], ns[j] = ns[j], ns[i]
					}
				}
			}
			return fmt.Sprint(ns)
		}
		byShape := map[string]int{}
		for _, o := range r.Openings() {
			if err := r.Check(o); err != nil {
				t.Errorf("%s.Openings() has %v: %v", r, o, err)
			}
			byShape[shape(o)]++
		}
		sp, _ := mm.SpaceOf(r)
		for _, c := range sp.All().Codes() {
			if byShape[shape(c)] != 1 {
				t.Errorf("%s: %v matches %d openings; want 1", r, c, byShape[shape(c)])
				break
			}
		}
	}
}

// TestNumOpenings checks the count against the list where the list is
// short, and published partition numbers where it is not.
func TestNumOpenings(t *testing.T) {
	for _, r := range []mm.Rules{mm.Classic, {Colors: 8, Pegs: 5}, {Colors: 2, Pegs: 4}, {Colors: 3, Pegs: 9},
		{Colors: 20, Pegs: 20}, {Colors: 10, Pegs: 4, Distinct: true}} {
		if got, want := r.NumOpenings(), uint64(len(r.Openings())); got != want {
			t.Errorf("%v.NumOpenings() = %d; want %d, the openings listed", r, got, want)
		}
	}
	for _, tt := range []struct {
		r    mm.Rules
		want uint64
	}{
		{mm.Rules{Colors: 64, Pegs: 60}, 966_467}, // p(60)
		{mm.Rules{Colors: 64, Pegs: 33}, 10_143},  // p(33)
		{mm.Rules{Colors: 2, Pegs: 100}, 51},      // ⌊100/2⌋ + 1
	} {
		if got := tt.r.NumOpenings(); got != tt.want {
			t.Errorf("%v.NumOpenings() = %d; want %d", tt.r, got, tt.want)
		}
	}
}
