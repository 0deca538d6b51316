package cli

import (
	"context"
	"errors"
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
	d, ok := runGuess(context.Background(), r, []mm.Strategy{strategy.Auto{}}, 1<<24, false, 2)
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

// TestRunGuessScoring checks the guesses of whole runs of the scoring
// strategies, which play through a tree: every secret of 7 x 7 with
// entropy about 24 minutes on two cores (2 851 s of CPU measured), and a
// billion random secrets of 6 x 4 a few minutes, their draws, not the
// tree; and that a randomised strategy is timed by a probe.
func TestRunGuessScoring(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		r       mm.Rules
		s       []mm.Strategy
		games   int
		sampled bool
		lo, hi  time.Duration
	}{
		{mm.Rules{Colors: 7, Pegs: 7}, []mm.Strategy{strategy.Entropy{}}, 823543, false, 8 * time.Minute, 50 * time.Minute},
		{mm.Rules{Colors: 8, Pegs: 5}, []mm.Strategy{strategy.Knuth{}}, 32768, false, 300 * time.Millisecond, 3 * time.Second},
		{mm.Classic, []mm.Strategy{strategy.Knuth{}, strategy.Entropy{}}, 1e9, true, 5 * time.Minute, 20 * time.Minute},
		{mm.Rules{Colors: 8, Pegs: 8}, []mm.Strategy{strategy.Entropy{WinBonus: 1.5}}, 1 << 24, false, 20 * time.Minute, 4 * time.Hour},
	} {
		d, ok := runGuess(ctx, tc.r, tc.s, tc.games, tc.sampled, 2)
		if !ok || d < tc.lo || d > tc.hi {
			t.Errorf("runGuess(%v, %v, %d games) = %v, %v; want %v to %v", tc.r, tc.s, tc.games, d, ok, tc.lo, tc.hi)
		}
	}
	rc, err := strategy.New("random-consistent", strategy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := runGuess(ctx, mm.Classic, []mm.Strategy{rc}, 1e9, true, 2); !ok || d < time.Hour {
		t.Errorf("a billion games of random-consistent guessed at %v, %v; want hours", d, ok)
	}
}

// TestLongRunRefused checks that bench and openings refuse a run guessed
// past an hour, saying how long and what to do, before any game: every
// secret of 16 x 6 (about 53 days), and a billion games of a randomised
// strategy.
func TestLongRunRefused(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "--all", "--colors", "16", "--pegs", "6"},
		{"bench", "--strategy", "random-consistent", "--games", "1e9"},
		{"openings", "--colors", "16", "--pegs", "6", "--all", "--strategy", "auto"},
	} {
		start := time.Now()
		_, _, err := runCmd(t, "", args...)
		if err == nil || !strings.Contains(err.Error(), "--yes") ||
			!strings.Contains(err.Error(), "--games") || !strings.Contains(err.Error(), "--shard") {
			t.Errorf("mastermind %s = %v; want a refusal naming --games, --shard and --yes", strings.Join(args, " "), err)
		}
		if d := time.Since(start); d > 30*time.Second {
			t.Errorf("mastermind %s refused after %v; want before any game", strings.Join(args, " "), d)
		}
	}
	if _, _, err := runCmd(t, "", "bench", "--all", "--colors", "16", "--pegs", "6"); err == nil || !strings.Contains(err.Error(), " days on ") {
		t.Errorf("every secret of 16 x 6 refused with %v; want its time in days", err)
	}
}

// TestBenchBillionCancelled checks that Ctrl-C (a cancelled context) stops
// bench --games 1e9 at once, in the draws of its secrets as in its games
// (issue 45: 353 s after the signal).
func TestBenchBillionCancelled(t *testing.T) {
	for _, s := range []string{"knuth", "random-consistent"} {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(300*time.Millisecond, cancel)
		var out, errOut strings.Builder
		start := time.Now()
		err := Run(ctx, []string{"bench", "--strategy", s, "--games", "1e9", "--yes"}, strings.NewReader(""), &out, &errOut, nil)
		if d := time.Since(start); !errors.Is(err, context.Canceled) || d > time.Minute {
			t.Errorf("bench --strategy %s --games 1e9 cancelled after 0.3 s = %v after %v; want context.Canceled at once", s, err, d)
		}
	}
}
