package consist

import (
	"bufio"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// Fixed histories: seeded games saved in testdata, so that a change to the
// solver is measured on the same turns before and after (seededGame's
// histories depend on the solver that plays them). The program in
// cmd/dumphist writes them again (go run ./internal/consist/cmd/dumphist).

// fixedGames names the saved games: variant, count first, turns kept.
var fixedGames = []struct {
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

func readHistory(path string) (mm.Rules, []mm.Turn, error) {
	f, err := os.Open(path)
	if err != nil {
		return mm.Rules{}, nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var r mm.Rules
	var turns []mm.Turn
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if r.Pegs == 0 {
			r.Pegs, _ = strconv.Atoi(fs[0])
			r.Colors, _ = strconv.Atoi(fs[1])
			continue
		}
		var cs []int
		for _, s := range strings.Split(fs[0], ",") {
			c, _ := strconv.Atoi(s)
			cs = append(cs, c)
		}
		g, err := mm.NewCode(cs...)
		if err != nil {
			return r, nil, err
		}
		b, _ := strconv.Atoi(fs[1])
		w, _ := strconv.Atoi(fs[2])
		turns = append(turns, mm.Turn{Guess: g, Feedback: mm.Feedback{Black: b, White: w}})
	}
	return r, turns, sc.Err()
}

// The games in testdata: game-<variant>.txt, seeded games of the first
// version (cmd/dumphist); game-<variant>-s<seed>.txt and
// -late-s<seed>.txt, consistent play up to its first fallback, before and
// after the restarts with new phases; game-25x25-t<turn>.txt and
// game-30x10-fit-t<turn>.txt, turns where the sampler's and Fit's searches
// and the solver within its budget found no code.

// turnSpecs are BenchmarkTurnWork's turns of the fixed games: name, first
// and last turn (from 1; 0, 0 for the turn after the whole history).
var turnSpecs = []struct {
	name     string
	from, to int
}{
	{"20x20", 1, 60},
	{"30x10", 15, 30},
	{"30x30", 10, 30},
	{"100x20", 40, 75},
	{"25x25-t30", 0, 0},
	{"30x10-fit-t30", 0, 0},
}

// turnLimit bounds each turn's search in BenchmarkTurnWork, in conflicts.
const turnLimit = 20000

// turnWork finds the first code at turns from to to of a fixed game
// (from = 0: the turn after the whole history), each within limit
// conflicts, with a new solver a turn or, if kept, one solver given each
// turn in turn (Add). It returns the conflicts in all and the turns at
// the limit, and fails tb if a code does not fit or the solver says that
// none does (a secret was planted).
func turnWork(tb testing.TB, name string, from, to int, limit int64, kept bool, seed uint64) (conflicts int64, limited int) {
	r, turns, err := readHistory(filepath.Join("testdata", "game-"+name+".txt"))
	if err != nil {
		tb.Fatal(err)
	}
	if from == 0 {
		from, to = len(turns)+1, len(turns)+1
	}
	var sv *Solver
	for k := from; k <= min(to, len(turns)+1); k++ {
		var before int64
		if !kept || sv == nil {
			if sv, err = New(r, turns[:k-1], rand.New(rand.NewPCG(uint64(k)+1000*seed, 3))); err != nil {
				tb.Fatal(err)
			}
		} else {
			before = sv.Stats().Conflicts
			if err := sv.Add(turns[k-2]); err != nil {
				tb.Fatal(err)
			}
		}
		c, err := sv.Next(context.Background(), limit)
		conflicts += sv.Stats().Conflicts - before
		switch {
		case errors.Is(err, ErrLimit):
			limited++
		case err != nil:
			tb.Fatalf("%s turn %d: %v", name, k, err)
		default:
			if i := misfit(c, turns[:k-1]); i >= 0 {
				tb.Fatalf("%s turn %d: %s does not fit turn %d", name, k, c, i+1)
			}
		}
	}
	return conflicts, limited
}

// TestFixedGames finds a code at early turns of each fixed game, kept and
// new, where the search is quick: every code fits, and none is missed.
func TestFixedGames(t *testing.T) {
	for _, s := range []struct {
		name     string
		from, to int
	}{{"20x20", 1, 20}, {"30x10", 15, 20}, {"30x30", 10, 13}, {"100x20", 20, 22}} {
		for _, kept := range []bool{false, true} {
			if _, limited := turnWork(t, s.name, s.from, s.to, 0, kept, 0); limited > 0 {
				t.Errorf("%s: %d turns limited with no limit", s.name, limited)
			}
		}
	}
}

// BenchmarkTurnWork times the first code at each turn of the fixed games
// (turnSpecs), within turnLimit conflicts, with a new solver a turn
// ("new") and one kept across the game ("kept"); its metrics are the
// conflicts and the turns at the limit, per run of all the turns (the
// table of BENCHMARKS.md's section on the solver):
//
//	go test ./internal/consist -run - -bench TurnWork -benchtime 1x
func BenchmarkTurnWork(b *testing.B) {
	for _, s := range turnSpecs {
		for _, kept := range []bool{false, true} {
			mode := "new"
			if kept {
				mode = "kept"
			}
			b.Run(s.name+"/"+mode, func(b *testing.B) {
				var conflicts int64
				limited := 0
				for i := range b.N {
					c, l := turnWork(b, s.name, s.from, s.to, turnLimit, kept, uint64(i))
					conflicts += c
					limited += l
				}
				b.ReportMetric(float64(conflicts)/float64(b.N), "conflicts/op")
				b.ReportMetric(float64(limited)/float64(b.N), "limited/op")
			})
		}
	}
}

// playLimit bounds each guess's search in BenchmarkPlayWork, in conflicts;
// past it the guess is a random code (a fallback).
const playLimit = 5000

// BenchmarkPlayWork plays seeded games (seeds 1 to 3) of the fixed games'
// variants by consistent play, the solver's first code each turn within
// playLimit conflicts or a random code past it, with a new solver a turn
// or one kept across the game; its metrics, per game: guesses, fallbacks
// and conflicts.
//
//	go test ./internal/consist -run - -bench PlayWork/30x10 -benchtime 1x
func BenchmarkPlayWork(b *testing.B) {
	for _, v := range fixedGames {
		for _, kept := range []bool{false, true} {
			mode := "new"
			if kept {
				mode = "kept"
			}
			b.Run(v.name+"/"+mode, func(b *testing.B) {
				var guesses, fallbacks int
				var conflicts int64
				games := 0
				for i := range b.N {
					for seed := uint64(1); seed <= 3; seed++ {
						g, f, c := playWork(b, v.r, v.countFirst, seed+3*uint64(i), kept)
						guesses, fallbacks, conflicts = guesses+g, fallbacks+f, conflicts+c
						games++
					}
				}
				n := float64(games)
				b.ReportMetric(float64(guesses)/n, "guesses/game")
				b.ReportMetric(float64(fallbacks)/n, "fallbacks/game")
				b.ReportMetric(float64(conflicts)/n, "conflicts/game")
			})
		}
	}
}

// playWork plays one game of BenchmarkPlayWork and returns its guesses,
// fallbacks and conflicts.
func playWork(tb testing.TB, v mm.Rules, countFirst bool, seed uint64, kept bool) (guesses, fallbacks int, conflicts int64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	secret := mm.RandomCode(v, rng)
	var turns []mm.Turn
	play := func(c mm.Code) bool {
		f := mm.Score(secret, c)
		turns = append(turns, mm.Turn{Guess: c, Feedback: f})
		return f.Solved(v.Pegs)
	}
	if countFirst {
		for _, code := range monochromes(v) {
			play(code)
		}
	}
	var sv *Solver
	for len(turns) < 2*v.Pegs+v.Colors {
		var before int64
		if sv == nil || !kept {
			if sv != nil {
				conflicts += sv.Stats().Conflicts
			}
			var err error
			if sv, err = New(v, turns, rng); err != nil {
				tb.Fatal(err)
			}
		} else {
			before = sv.Stats().Conflicts
			if err := sv.Add(turns[len(turns)-1]); err != nil {
				tb.Fatal(err)
			}
			conflicts -= sv.Stats().Conflicts - before // Add's propagation is not a conflict
		}
		c, err := sv.Next(context.Background(), playLimit)
		switch {
		case errors.Is(err, ErrLimit):
			fallbacks++
			c = mm.RandomCode(v, rng)
		case err != nil:
			tb.Fatal(err)
		default:
			if i := misfit(c, turns); i >= 0 {
				tb.Fatalf("%s seed %d: %s does not fit turn %d", v, seed, c, i+1)
			}
		}
		if play(c) {
			break
		}
	}
	conflicts += sv.Stats().Conflicts
	return len(turns), fallbacks, conflicts
}
