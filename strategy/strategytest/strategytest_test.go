package strategytest_test

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/strategy"
	"github.com/mastermind-toolkit/mastermind/strategy/strategytest"
)

func ExampleCheck() {
	if err := strategytest.Check(strategy.Knuth{}, mm.Rules{Colors: 4, Pegs: 3}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("knuth behaves on 4x3")

	// A strategy that always guesses 111 repeats itself.
	same := mm.StrategyFunc(func(*mm.State) (mm.Code, error) { return mm.NewCode(0, 0, 0) })
	err := strategytest.Check(same, mm.Rules{Colors: 2, Pegs: 3})
	fmt.Println(strings.SplitN(err.Error(), "\n", 3)[1])
	// Output:
	// knuth behaves on 4x3
	// 	secret 112, guess 2 (after 111:2,0;): 111 repeats guess 1
}

// lowest is a well-behaved strategy: the lowest consistent code.
func lowest(st *mm.State) (mm.Code, error) {
	s, err := st.Candidates()
	if err != nil {
		return mm.Code{}, err
	}
	return s.Code(0), nil
}

type randomized struct{ mm.StrategyFunc }

func (randomized) Randomized() bool { return true }

// TestCheckCatches runs Check on broken strategies and checks that each
// problem is reported.
func TestCheckCatches(t *testing.T) {
	r := mm.Rules{Colors: 3, Pegs: 3}
	var calls atomic.Int64
	tests := []struct {
		name string
		s    mm.Strategy
		want string // a fragment of the error; empty for no error
	}{
		{"lowest", mm.StrategyFunc(lowest), ""},
		{"lowest randomized", randomized{lowest}, ""},
		{"knuth", strategy.Knuth{}, ""},
		{"error", mm.StrategyFunc(func(*mm.State) (mm.Code, error) { return mm.Code{}, errors.New("out of ideas") }), "out of ideas"},
		{"panic", mm.StrategyFunc(func(*mm.State) (mm.Code, error) { panic("boom") }), "panic: boom"},
		{"short code", mm.StrategyFunc(func(*mm.State) (mm.Code, error) { return mm.NewCode(0, 0) }), "illegal guess"},
		{"colour out of range", mm.StrategyFunc(func(*mm.State) (mm.Code, error) { return mm.NewCode(0, 0, 5) }), "illegal guess"},
		{"repeat", randomized{func(*mm.State) (mm.Code, error) { return mm.NewCode(0, 0, 0) }}, "repeats guess 1"},
		{"nondeterministic", mm.StrategyFunc(func(st *mm.State) (mm.Code, error) {
			s, err := st.Candidates()
			if err != nil {
				return mm.Code{}, err
			}
			return s.Code(int(calls.Add(1)) % s.Len()), nil
		}), "deterministic strategy guessed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := strategytest.Check(tt.s, r)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Check(%s) = %v; want nil", tt.name, err)
			case tt.want != "" && err == nil:
				t.Fatalf("Check(%s) = nil; want an error mentioning %q", tt.name, tt.want)
			case tt.want != "" && !strings.Contains(err.Error(), tt.want):
				t.Fatalf("Check(%s) = %v; want an error mentioning %q", tt.name, err, tt.want)
			}
		})
	}
}

// TestCheckCollects checks that every game's problem is listed, one per
// line, up to the cap.
func TestCheckCollects(t *testing.T) {
	bad := mm.StrategyFunc(func(*mm.State) (mm.Code, error) { return mm.Code{}, errors.New("no") })
	err := strategytest.Check(bad, mm.Rules{Colors: 2, Pegs: 3})
	if err == nil {
		t.Fatal("Check = nil; want an error")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 1+8 {
		t.Errorf("Check of a failing strategy on 2x3 gives %d lines; want a heading and 8 games:\n%v", len(lines), err)
	}
	err = strategytest.Check(bad, mm.Rules{Colors: 4, Pegs: 4})
	if !strings.Contains(err.Error(), "and 206 more") {
		t.Errorf("Check on 256 failing games does not say how many more: %.200v", err)
	}
}

func TestCheckRefusesLargeRules(t *testing.T) {
	for _, r := range []mm.Rules{{Colors: 10, Pegs: 6}, {Colors: 1, Pegs: 4}} {
		if err := strategytest.Check(mm.StrategyFunc(lowest), r); err == nil {
			t.Errorf("Check on %+v = nil; want an error", r)
		}
	}
}
