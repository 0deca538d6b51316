package exact_test

import (
	"context"
	"fmt"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/exact"
)

// The optimal strategy of classic Mastermind (6 colours, 4 pegs): Koyama
// and Lai's 5 625 guesses over the 1 296 secrets, and within 5 guesses at
// most, one more.
func ExampleSolve() {
	st, _ := mm.NewState(mm.Classic, nil)
	res, err := exact.Solve(context.Background(), st, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Tree.Guess, res.Total, res.Depth)
	within5, _ := exact.Solve(context.Background(), st, &exact.Options{MaxDepth: 5})
	fmt.Println(within5.Total, within5.Depth)
	// Output:
	// 1123 5625 6
	// 5626 5
}

// The fewest guesses that always suffice, asked without minimising
// anything: 5 for classic Mastermind, 7 for 7 colours and 5 distinct pegs.
func ExampleFits() {
	for _, r := range []mm.Rules{mm.Classic, {Colors: 7, Pegs: 5, Distinct: true}} {
		st, _ := mm.NewState(r, nil)
		for d := 1; ; d++ {
			ok, err := exact.Fits(context.Background(), st, d, nil)
			if err != nil {
				fmt.Println(err)
				return
			}
			if ok {
				fmt.Printf("%v: %d guesses\n", r, d)
				break
			}
		}
	}
	// Output:
	// 6x4: 5 guesses
	// 7x5 distinct: 6 guesses
}

// steps is a FitsJournal in memory that counts the steps it keeps; a real
// one writes them to a file, so that a stopped search resumes.
type steps struct {
	fit, refuted, beaten map[string]bool
}

func (s steps) Fits(g mm.Code, f mm.Feedback) bool { return s.fit[fmt.Sprint(g, f)] }
func (s steps) Fit(g mm.Code, f mm.Feedback) error {
	s.fit[fmt.Sprint(g, f)] = true
	return nil
}
func (s steps) Refuted(g mm.Code, f mm.Feedback, g2 mm.Code) bool {
	return s.refuted[fmt.Sprint(g, f, g2)]
}
func (s steps) Refute(g mm.Code, f mm.Feedback, g2 mm.Code) error {
	s.refuted[fmt.Sprint(g, f, g2)] = true
	return nil
}
func (s steps) Beaten(g mm.Code) bool { return s.beaten[g.String()] }
func (s steps) Beat(g mm.Code) error {
	s.beaten[g.String()] = true
	return nil
}

// Whether 4 guesses always suffice on classic Mastermind, asked first
// guess by first guess with each step kept: no, and every first guess was
// found unable to.
func ExampleFitsOpenings() {
	st, _ := mm.NewState(mm.Classic, nil)
	j := steps{map[string]bool{}, map[string]bool{}, map[string]bool{}}
	ok, err := exact.FitsOpenings(context.Background(), st, 4, nil, j)
	fmt.Println(ok, err, len(j.beaten))
	// Output:
	// false <nil> 5
}
