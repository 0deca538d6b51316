package play_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/play"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// A scripted codemaker answers the guesses Assist proposes.
func ExampleAssist() {
	a, err := play.NewAssist(play.Config{Strategy: strategy.Knuth{}})
	if err != nil {
		panic(err)
	}
	secret, _ := mm.Classic.ParseCode("3632")
	for !a.Over() {
		g, _ := a.Guess()
		f := mm.Score(secret, g)
		a.Do(f.String())
		fmt.Printf("%s: %s, %d left\n", g, f, a.Remaining())
	}
	// Output:
	// 1122: 1 0, 256 left
	// 1344: 0 1, 44 left
	// 3526: 1 2, 7 left
	// 1462: 1 1, 1 left
	// 3632: 4 0, 1 left
}

// A mistyped answer is reported with the answers it contradicts.
func ExampleAssist_conflict() {
	a, _ := play.NewAssist(play.Config{Strategy: strategy.Knuth{}})
	a.Do("0 0") // 1122: no 1 and no 2
	a.Do("guess 1111")
	for _, l := range a.Do("1 0") {
		fmt.Println(l.Text)
	}
	fmt.Println(a.Conflict())
	// Output:
	// No code fits all 2 answers; these two cannot both be true:
	//   answer 1: 1122 got 0 black, 0 white   (without it, 500 codes fit)
	//   answer 2: 1111 got 1 black, 0 white   (without it, 256 codes fit)
	// Check them on the board, then type "undo" to take back answer 2, "drop N" to drop answer N, or "fix N ANSWER" to correct it.
	// [1 2]
}

// RunLines plays a session in line mode: here a game of play with its
// guesses read from a string.
func ExampleRunLines() {
	secret, _ := mm.Classic.ParseCode("3632")
	g, _ := play.NewGame(play.Config{Strategy: strategy.Knuth{}}, secret, 10)
	in := strings.NewReader("1122\n3633\n3632\n")
	if err := play.RunLines(context.Background(), g, in, os.Stdout, true); err != nil {
		panic(err)
	}
	// Output:
	// mastermind play: 6 colours × 4 pegs, colours 123456. I have chosen a code; you
	// have 10 guesses.
	// Each guess gets black pegs (right colour, right place) and white pegs (right
	// colour, wrong place).
	// Type a guess such as 1234, "hint" to ask knuth, "help" or "quit".
	//
	// guess 1/10> 1122
	// 1122: 1 black, 0 white
	// guess 2/10> 3633
	// 3633: 3 black, 0 white
	// guess 3/10> 3632
	// 3632: 4 black, 0 white
	// You found the code in 3 guesses!
	// You beat knuth, which would have taken 5 guesses: 1122 1344 3526 1462 3632.
}
