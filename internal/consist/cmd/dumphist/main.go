// Command dumphist writes the fixed games of package consist's benchmarks
// again, testdata/game-<variant>.txt: seeded games, played by the
// solver's first code each turn (a random code where it finds none within
// 5 000 conflicts), the first colours counted one guess each where the
// variant is played so (30 × 10, 100 × 20), up to the turns kept. The
// games depend on the solver that plays them: rewriting them changes the
// histories the benchmarks measure.
//
//	go run ./internal/consist/cmd/dumphist [-dir internal/consist/testdata]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/consist"
)

// games are the fixed games: name, variant, colours counted first, turns
// kept.
var games = []struct {
	name       string
	r          mm.Rules
	countFirst bool
	turns      int
}{
	{"20x20", mm.Rules{Pegs: 20, Colors: 20}, false, 60},
	{"30x10", mm.Rules{Pegs: 30, Colors: 10}, true, 45},
	{"30x30", mm.Rules{Pegs: 30, Colors: 30}, false, 30},
	{"100x20", mm.Rules{Pegs: 100, Colors: 20}, true, 75},
}

// limit bounds each guess's search, in conflicts.
const limit = 5000

func main() {
	dir := flag.String("dir", filepath.Join("internal", "consist", "testdata"), "directory of the games")
	flag.Parse()
	for _, g := range games {
		turns, err := playGame(g.r, g.countFirst, g.turns)
		if err == nil {
			err = write(filepath.Join(*dir, "game-"+g.name+".txt"), g.r, turns)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "dumphist:", err)
			os.Exit(1)
		}
	}
}

// playGame plays r against a secret drawn from seed (1, 7).
func playGame(r mm.Rules, countFirst bool, most int) ([]mm.Turn, error) {
	rng := rand.New(rand.NewPCG(1, 7))
	secret := mm.RandomCode(r, rng)
	var turns []mm.Turn
	play := func(c mm.Code) bool {
		f := mm.Score(secret, c)
		turns = append(turns, mm.Turn{Guess: c, Feedback: f})
		return f.Solved(r.Pegs)
	}
	if countFirst {
		for c := range r.Colors - 1 {
			cs := make([]int, r.Pegs)
			for i := range cs {
				cs[i] = c
			}
			code, _ := mm.NewCode(cs...)
			play(code)
		}
	}
	for len(turns) < most {
		c, err := consist.Find(context.Background(), r, turns, limit, rng)
		if errors.Is(err, consist.ErrLimit) {
			c = mm.RandomCode(r, rng)
		} else if err != nil {
			return nil, err
		}
		if play(c) {
			break
		}
	}
	return turns, nil
}

// write writes a history as the tests read it: "pegs colours", then a
// line a turn, "c,c,…,c black white".
func write(path string, r mm.Rules, turns []mm.Turn) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %d\n", r.Pegs, r.Colors)
	for _, t := range turns {
		for i, c := range t.Guess.Colors() {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(c))
		}
		fmt.Fprintf(&b, " %d %d\n", t.Feedback.Black, t.Feedback.White)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
