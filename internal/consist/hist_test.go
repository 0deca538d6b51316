package consist

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// Fixed histories: seeded games saved in testdata, so that a change to the
// solver is measured on the same turns before and after (seededGame's
// histories depend on the solver that plays them).

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

func writeHistory(path string, r mm.Rules, turns []mm.Turn) error {
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

// TestDumpHistories writes the fixed games (CONSIST_DUMP=1 only): play as
// seededGame does, up to the kept turns.
func TestDumpHistories(t *testing.T) {
	if os.Getenv("CONSIST_DUMP") == "" {
		t.Skip("set CONSIST_DUMP=1 to rewrite testdata/game-*.txt")
	}
	for _, v := range fixedGames {
		rng := rand.New(rand.NewPCG(1, 7))
		secret := randomCode(v.r, rng)
		var turns []mm.Turn
		play := func(c mm.Code) bool {
			f := mm.Score(secret, c)
			turns = append(turns, mm.Turn{Guess: c, Feedback: f})
			return f.Solved(v.r.Pegs)
		}
		if v.countFirst {
			for c := range v.r.Colors - 1 {
				cs := make([]int, v.r.Pegs)
				for i := range cs {
					cs[i] = c
				}
				code, _ := mm.NewCode(cs...)
				play(code)
			}
		}
		for len(turns) < v.turns {
			c, err := Find(context.Background(), v.r, turns, genLimit, rng)
			if errors.Is(err, ErrLimit) {
				c = randomCode(v.r, rng)
			} else if err != nil {
				t.Fatal(err)
			}
			if play(c) {
				break
			}
		}
		if err := writeHistory(filepath.Join("testdata", "game-"+v.name+".txt"), v.r, turns); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTurnWork logs the conflicts and time to the first code at each turn
// of a fixed game: CONSIST_TURNS=name:from-to (turns from 1; "name:last"
// for the turn after the whole history), limit CONSIST_LIMIT (default
// 200000), CONSIST_REPS seeds a turn, CONSIST_MODE=inc for one solver kept
// across the turns; CONSIST_POSX=0, CONSIST_RESTART and CONSIST_REPHASE
// set the search's switches. The games in testdata: game-<variant>.txt,
// seeded games of the first version (TestDumpHistories);
// game-<variant>-s<seed>.txt and -late-s<seed>.txt, consistent play up to
// its first fallback (TestPlayWork with CONSIST_DUMPHARD), before and after
// the restarts with new phases; game-25x25-t<turn>.txt and
// game-30x10-fit-t<turn>.txt, turns where the sampler's and Fit's searches
// and the solver within its budget found no code.
func TestTurnWork(t *testing.T) {
	specs := os.Getenv("CONSIST_TURNS")
	if specs == "" {
		t.Skip("set CONSIST_TURNS=30x10:17-25[,30x30:10-20...]")
	}
	if g := os.Getenv("CONSIST_POSX"); g != "" {
		posX = g == "1"
		defer func() { posX = true }()
	}
	defer func(u, e int) { restartUnit, rephaseEvery = u, e }(restartUnit, rephaseEvery)
	if s := os.Getenv("CONSIST_RESTART"); s != "" {
		restartUnit, _ = strconv.Atoi(s)
	}
	if s := os.Getenv("CONSIST_REPHASE"); s != "" {
		rephaseEvery, _ = strconv.Atoi(s)
	}
	for _, spec := range strings.Split(specs, ",") {
		turnWork(t, spec)
	}
}

func turnWork(t *testing.T, spec string) {
	name, rng, _ := strings.Cut(spec, ":")
	limit := int64(200000)
	if s := os.Getenv("CONSIST_LIMIT"); s != "" {
		limit, _ = strconv.ParseInt(s, 10, 64)
	}
	r, turns, err := readHistory(filepath.Join("testdata", "game-"+name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	from, to := len(turns)+1, len(turns)+1 // "last": the whole history
	if rng != "last" {
		a, b, _ := strings.Cut(rng, "-")
		from, _ = strconv.Atoi(a)
		to, _ = strconv.Atoi(b)
	}
	reps := 1
	if s := os.Getenv("CONSIST_REPS"); s != "" {
		reps, _ = strconv.Atoi(s)
	}
	var sumC int64
	var sumT time.Duration
	limited := 0
	mode := os.Getenv("CONSIST_MODE") // fresh (default) or inc: one solver, Add
	var sv *Solver
	for rep := range reps {
		for k := from; k <= min(to, len(turns)+1); k++ {
			start := time.Now()
			var before int64
			if mode == "" || mode == "fresh" || sv == nil {
				sv, err = New(r, turns[:k-1], rand.New(rand.NewPCG(uint64(k+1000*rep), 3)))
				if err != nil {
					t.Fatal(err)
				}
			} else {
				before = sv.Stats().Conflicts
				if err := sv.Add(turns[k-2]); err != nil {
					t.Fatal(err)
				}
			}
			c, err := sv.Next(context.Background(), limit)
			d := time.Since(start)
			conflicts := sv.Stats().Conflicts - before
			res := "found"
			if errors.Is(err, ErrLimit) {
				res = "LIMIT"
				limited++
			} else if err != nil {
				t.Fatal(err)
			} else if i := misfit(c, turns[:k-1]); i >= 0 {
				t.Fatalf("turn %d: misfit %d", k, i)
			}
			sumC += conflicts
			sumT += d
			t.Logf("%s turn %3d: %8d conflicts %9.3f s %7.0f c/s %s", name, k, conflicts, d.Seconds(), float64(conflicts)/d.Seconds(), res)
		}
	}
	t.Logf("%s total: %d conflicts, %.2f s, %d limited", spec, sumC, sumT.Seconds(), limited)
}

// TestPlayWork plays seeded games by consistent play, the solver's first
// code each turn within CONSIST_LIMIT conflicts (default 5000) or a random
// code past it, and logs each game's guesses, fallbacks and conflicts
// (CONSIST_PLAY=30x10:1-3[,...]; CONSIST_MODE fresh or inc as for
// TestTurnWork: a new solver each turn, or one kept across the game).
func TestPlayWork(t *testing.T) {
	specs := os.Getenv("CONSIST_PLAY")
	if specs == "" {
		t.Skip("set CONSIST_PLAY=30x10:1-3")
	}
	limit := int64(5000)
	if s := os.Getenv("CONSIST_LIMIT"); s != "" {
		limit, _ = strconv.ParseInt(s, 10, 64)
	}
	mode := os.Getenv("CONSIST_MODE")
	for _, spec := range strings.Split(specs, ",") {
		name, seeds, _ := strings.Cut(spec, ":")
		a, b, _ := strings.Cut(seeds, "-")
		from, _ := strconv.Atoi(a)
		to, _ := strconv.Atoi(b)
		var v mm.Rules
		countFirst := false
		for _, g := range fixedGames {
			if g.name == name {
				v, countFirst = g.r, g.countFirst
			}
		}
		var sumG, sumF int
		var sumC int64
		var sumT time.Duration
		for seed := from; seed <= to; seed++ {
			rng := rand.New(rand.NewPCG(uint64(seed), 7))
			secret := randomCode(v, rng)
			var turns []mm.Turn
			play := func(c mm.Code) bool {
				f := mm.Score(secret, c)
				turns = append(turns, mm.Turn{Guess: c, Feedback: f})
				return f.Solved(v.Pegs)
			}
			if countFirst {
				for c := range v.Colors - 1 {
					cs := make([]int, v.Pegs)
					for i := range cs {
						cs[i] = c
					}
					code, _ := mm.NewCode(cs...)
					play(code)
				}
			}
			var sv *Solver
			var conflicts int64
			fallbacks := 0
			start := time.Now()
			for len(turns) < 2*v.Pegs+v.Colors {
				var before int64
				if sv == nil || mode == "" || mode == "fresh" {
					if sv != nil {
						conflicts += sv.Stats().Conflicts
					}
					var err error
					sv, err = New(v, turns, rng)
					if err != nil {
						t.Fatal(err)
					}
				} else {
					before = sv.Stats().Conflicts
					if err := sv.Add(turns[len(turns)-1]); err != nil {
						t.Fatal(err)
					}
					conflicts += before
					before = sv.Stats().Conflicts
					conflicts -= before
				}
				c, err := sv.Next(context.Background(), limit)
				if errors.Is(err, ErrLimit) {
					if dir := os.Getenv("CONSIST_DUMPHARD"); dir != "" && fallbacks == 0 {
						path := filepath.Join(dir, fmt.Sprintf("game-%s-s%d.txt", name, seed))
						if err := writeHistory(path, v, turns); err != nil {
							t.Fatal(err)
						}
					}
					fallbacks++
					c = randomCode(v, rng)
				} else if err != nil {
					t.Fatal(err)
				} else if i := misfit(c, turns); i >= 0 {
					t.Fatalf("misfit %d", i)
				}
				if play(c) {
					break
				}
			}
			conflicts += sv.Stats().Conflicts
			d := time.Since(start)
			t.Logf("%s seed %d: %d guesses, %d fallbacks, %d conflicts, %.1f s", name, seed, len(turns), fallbacks, conflicts, d.Seconds())
			sumG += len(turns)
			sumF += fallbacks
			sumC += conflicts
			sumT += d
		}
		n := float64(to - from + 1)
		t.Logf("%s mean: %.1f guesses, %.1f fallbacks, %.0f conflicts, %.1f s", spec, float64(sumG)/n, float64(sumF)/n, float64(sumC)/n, sumT.Seconds()/n)
	}
}
