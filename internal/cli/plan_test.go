package cli

import (
	"strings"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/huge"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

func TestRoundDown125(t *testing.T) {
	for n, want := range map[int]int{0: 0, 1: 1, 4: 2, 9: 5, 10: 10, 24: 20, 167: 100, 499: 200, 500: 500, 1200: 1000} {
		if got := roundDown125(n); got != want {
			t.Errorf("roundDown125(%d) = %d; want %d", n, got, want)
		}
	}
}

// TestDefaultGames checks the number of random secrets a default run
// plays: about two core-minutes of the strategies' guessed time, within
// 10 to 1000, and 1000 for strategies with no guess of their time.
func TestDefaultGames(t *testing.T) {
	auto := strategy.Auto{}
	for _, tc := range []struct {
		r    mm.Rules
		s    []mm.Strategy
		want int
	}{
		{mm.Rules{Colors: 12, Pegs: 12}, []mm.Strategy{auto}, 100},      // 0.7 s a game
		{mm.Rules{Colors: 20, Pegs: 20}, []mm.Strategy{auto}, 20},       // 5 s a game
		{mm.Rules{Colors: 30, Pegs: 30}, []mm.Strategy{auto}, 10},       // 7.4 s a game
		{mm.Rules{Colors: 20, Pegs: 20}, []mm.Strategy{auto, auto}, 10}, // twice the work
		{mm.Rules{Colors: 20, Pegs: 100}, []mm.Strategy{auto}, 10},      // fit, 10 s a game
		{mm.Rules{Colors: 20, Pegs: 100}, []mm.Strategy{huge.Split{}}, 1000},
		{mm.Rules{Colors: 9, Pegs: 6}, []mm.Strategy{strategy.Knuth{}}, 1000}, // no guess
		{mm.Rules{Colors: 20, Pegs: 20}, []mm.Strategy{auto, strategy.Knuth{}}, 1000},
	} {
		if got := defaultGames(tc.r, tc.s); got != tc.want {
			t.Errorf("defaultGames(%v, %v) = %d; want %d", tc.r, tc.s, got, tc.want)
		}
	}
}

// TestGuessLine checks what bench says before a long run.
func TestGuessLine(t *testing.T) {
	r := mm.Rules{Colors: 16, Pegs: 6}
	d, ok := runGuess(r, []mm.Strategy{strategy.Auto{}}, 1<<24, 2)
	if !ok || d < 30*24*time.Hour {
		t.Fatalf("every secret of 16 x 6 with auto guessed at %v, %v; want months", d, ok)
	}
	line := guessLine(1<<24, false, []string{"auto"}, d, 2)
	if !strings.Contains(line, "every secret with auto: about ") || !strings.Contains(line, " days on 2 cores") {
		t.Errorf("guessLine = %q", line)
	}
	line = guessLine(20, true, []string{"auto"}, 50*time.Second, 0)
	if !strings.Contains(line, "20 random secrets with auto: about 50s on ") {
		t.Errorf("guessLine = %q", line)
	}
	for d, want := range map[time.Duration]string{4500 * time.Millisecond: "4.5s", 134 * time.Second: "2m10s", 200 * time.Minute: "3h20m", 190 * 24 * time.Hour: "190 days"} {
		if got := roughly(d); got != want {
			t.Errorf("roughly(%v) = %q; want %q", d, got, want)
		}
	}
}
