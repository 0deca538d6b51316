package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// The compact codes give the answers and keep the codes of mm.Set's
// EvadePart and Filter, in every form: lists of 16-bit and 32-bit
// indices and bitmaps, and feedback keys above 255 (16 pegs).
func TestCodeSetEvade(t *testing.T) {
	for _, r := range []mm.Rules{
		{Colors: 16, Pegs: 4},
		{Colors: 6, Pegs: 4, Distinct: true},
		{Colors: 2, Pegs: 16},
		{Colors: 9, Pegs: 6}, // 531,441 codes: 32-bit indices
	} {
		sp, err := mm.SpaceOf(r)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(r.Colors), uint64(r.Pegs)))
		set, cs := sp.All(), allCodes(sp.Len())
		for turn := 0; set.Len() > 0; turn++ {
			if !cs.valid(sp.Len()) || cs.len() != set.Len() {
				t.Fatalf("%v turn %d: codeSet valid %v, %d codes; want valid, %d", r, turn, cs.valid(sp.Len()), cs.len(), set.Len())
			}
			var got []int
			for i := range cs.each {
				got = append(got, i)
			}
			want := make([]int, set.Len())
			for i := range want {
				want[i] = set.Index(i)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%v turn %d: codeSet holds %d codes, not the set's %d", r, turn, len(got), len(want))
			}
			g := mm.RandomCode(r, rng)
			if turn%3 == 2 || set.Len() < 3 {
				g = set.Code(set.Len() / 2) // one that may win
			}
			part, err := set.EvadePart(g)
			if err != nil {
				t.Fatal(err)
			}
			f, kept, err := cs.evade(sp, g)
			if err != nil || f != part.Feedback {
				t.Fatalf("%v turn %d: evade(%s) = %v, %v; want %v", r, turn, g, f, err, part.Feedback)
			}
			if f.Solved(r.Pegs) {
				break
			}
			if part.Count == set.Len() {
				if kept != nil {
					t.Fatalf("%v turn %d: evade(%s) keeps every code, yet returns %d", r, turn, g, kept.len())
				}
				continue
			}
			if n := cap(append(codeSet(nil), kept...)); cap(kept) < n {
				t.Errorf("%v turn %d: codes of %d bytes counted as %d; the allocator gives %d", r, turn, len(kept), cap(kept), n)
			}
			if set, err = set.Filter(g, f); err != nil {
				t.Fatal(err)
			}
			cs = kept
		}
	}
	if allCodes(10).valid(20) || (codeSet{codeList16, 1, 0, 1, 0}).valid(10) || (codeSet{}).valid(1) {
		t.Errorf("malformed codes taken as valid")
	}
}

// openInternal opens a store on a new file, closed at the end of the test.
func openInternal(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "games.db")
	s, err := Open(path, &Options{SweepEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

var (
	bg    = context.Background()
	start = time.UnixMilli(1_795_000_000_000)
	adv   = mm.Rules{Colors: 16, Pegs: 4}
)

// costlyTurns are guesses on a 16 × 4 adversary game that each rule out
// codes and leave many: 1111 to 5555, then every code of colours 1 to 5,
// each answered 0 0, which leaves 11⁴ codes, for a replay of the turns to
// weigh at every turn.
func costlyTurns(t testing.TB) []mm.Code {
	var cs []mm.Code
	for _, s := range []string{"1111", "2222", "3333", "4444", "5555"} {
		c, err := adv.ParseCode(s)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	for i := range 5 * 5 * 5 * 5 {
		c, err := adv.ParseCode(string([]byte{'1' + byte(i/125), '1' + byte(i/25%5), '1' + byte(i/5%5), '1' + byte(i%5)}))
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	return cs
}

func allocatedBytes() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// Many adversary games played in turn, more than memory keeps, cost no
// more a guess at turn 300 than at turn 10: the 200 games of
// 16 × 4 at turn 300 missed the cache at every guess and worked each
// game's codes out again from its turns, 185 ms a guess. Here memory
// keeps none, and each guess reads its game's codes back. The work is
// counted as the bytes allocated (a replay allocates megabytes), not
// timed.
func TestAdversaryGamesInTurn(t *testing.T) {
	s, _ := openInternal(t)
	s.adversaries = newAdversaries(1) // forgets every game at once
	const games = 3
	for i := range games {
		g := &mm.Game{ID: fmt.Sprint("adv", i), Rules: adv, Secret: mm.Code{}, MaxGuesses: 1000, Created: start, Adversary: true}
		g.Secret, _ = adv.ParseCode("1111")
		if err := s.CreateGame(bg, g, nil); err != nil {
			t.Fatal(err)
		}
	}
	turns := costlyTurns(t)
	turn := 0
	round := func() uint64 {
		before := allocatedBytes()
		for i := range games {
			g, err := s.Guess(bg, fmt.Sprint("adv", i), nil, turns[turn], start)
			if err != nil {
				t.Fatal(err)
			}
			if f := g.Turns[len(g.Turns)-1].Feedback; f != (mm.Feedback{}) || len(g.Turns) != turn+1 {
				t.Fatalf("game %d guess %d: %v at turn %d; want 0 0 at turn %d", i, turn+1, f, len(g.Turns), turn+1)
			}
		}
		turn++
		return (allocatedBytes() - before) / games
	}
	for turn < 10 {
		round()
	}
	early := round()
	for turn < 300 {
		round()
	}
	late := round()
	t.Logf("bytes allocated per guess: %d at turn 11, %d at turn 301", early, late)
	if late > 2*early+256<<10 {
		t.Errorf("a guess on one of %d adversary games played in turn allocates %d bytes at turn 301 and %d at turn 11; want no growth with the turns",
			games, late, early)
	}
	if s.adversaries.lru.Len() != 0 {
		t.Errorf("memory keeps %d games; want none", s.adversaries.lru.Len())
	}
}

// A game's codes are stored with its turns, read back when memory has
// forgotten them, worked out from the turns when there are none stored (a
// game from before they were), and dropped when the game ends; the
// answers are mm.Game's all along.
func TestAdversaryCodesStored(t *testing.T) {
	s, _ := openInternal(t)
	secret, _ := adv.ParseCode("1111")
	g := &mm.Game{ID: "adv", Rules: adv, Secret: secret, MaxGuesses: 40, Created: start, Adversary: true}
	if err := s.CreateGame(bg, g, nil); err != nil {
		t.Fatal(err)
	}
	ref := g.Clone()
	rng := rand.New(rand.NewPCG(4, 6))
	stored := func() (turns int, ok bool) {
		err := s.r.QueryRow(`SELECT turns FROM adversary_codes WHERE game_id = 'adv'`).Scan(&turns)
		return turns, err == nil
	}
	for i := 0; ref.Status == mm.Playing; i++ {
		switch i % 3 {
		case 1: // forgotten
			s.adversaries.remove(s.adversaries.get("adv", true))
		case 2: // forgotten, and not stored
			s.adversaries.remove(s.adversaries.get("adv", true))
			if _, err := s.w.Exec(`DELETE FROM adversary_codes WHERE game_id = 'adv'`); err != nil {
				t.Fatal(err)
			}
		}
		c := mm.RandomCode(adv, rng)
		if i%5 == 4 {
			c = ref.Turns[0].Guess // a guess again keeps every code
		}
		want, err := ref.Guess(c, start)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Guess(bg, "adv", nil, c, start)
		if err != nil {
			t.Fatal(err)
		}
		if f := got.Turns[len(got.Turns)-1].Feedback; f != want || got.Status != ref.Status {
			t.Fatalf("guess %d, %s: %v, %v; want %v, %v", i+1, c, f, got.Status, want, ref.Status)
		}
		turns, ok := stored()
		if ref.Status != mm.Playing {
			if ok {
				t.Errorf("game over after %d guesses: codes still stored", i+1)
			}
			break
		}
		if !ok || turns != len(ref.Turns) {
			t.Fatalf("after guess %d: codes stored %v for %d turns; want them for %d", i+1, ok, turns, len(ref.Turns))
		}
	}
}

// The memory the adversary games kept take is what their bytes count, at
// most the bound: measured as the live heap they hold, after a garbage
// collection, with many more games played than fit. The codes kept before
// were counted at 24 bytes a code, a guess; now the bytes are those of
// the compact form itself.
func TestAdversaryMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 600 games")
	}
	s, _ := openInternal(t)
	const bound = 2 << 20
	s.adversaries = newAdversaries(bound)
	secret, _ := adv.ParseCode("1111")
	first, _ := adv.ParseCode("1234")
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Go(func() {
			for i := w; i < 600; i += 16 {
				id := fmt.Sprint("adv", i)
				g := &mm.Game{ID: id, Rules: adv, Secret: secret, MaxGuesses: 100, Created: start, Adversary: true}
				if err := s.CreateGame(bg, g, nil); err != nil {
					t.Error(err)
					return
				}
				if _, err := s.Guess(bg, id, nil, first, start); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	counted, kept := s.adversaries.bytes, s.adversaries.lru.Len()
	with := heap()
	s.adversaries = newAdversaries(bound)
	without := heap()
	held := int64(with) - int64(without)
	t.Logf("%d games kept in memory, counted %d bytes, holding %d", kept, counted, held)
	if counted > bound || counted < bound/2 {
		t.Errorf("the games kept count %d bytes; want at most the bound, %d, and near it", counted, bound)
	}
	if held > counted+counted/10 {
		t.Errorf("the games kept hold %d bytes of live heap and count %d; want the count true", held, counted)
	}
}

// A sweep's steps start small and grow while their work is short, and
// shrink while it is long, within 1 and the most: a step of 128 games
// took tens of milliseconds, which the guesses committed with it waited
// for (p99 56.5 ms in the issue, beside an expiry sweep of 108k games).
func TestSweepStepSize(t *testing.T) {
	for _, tt := range []struct {
		limit int
		work  time.Duration
		most  int
		want  int
	}{
		{sweepFirst, 0, sweepBatch, 2 * sweepFirst},
		{sweepBatch, 0, sweepBatch, sweepBatch},
		{16, sweepWork, sweepBatch, 16},
		{16, 3 * sweepWork, sweepBatch, 8},
		{1, 10 * sweepWork, sweepBatch, 1},
		{vacuumPages / 2, sweepWork / 4, vacuumPages, vacuumPages},
	} {
		st := &sweepStep{limit: tt.limit, work: tt.work}
		if got := st.next(tt.most); got != tt.want {
			t.Errorf("next after %d in %v, of at most %d = %d; want %d", tt.limit, tt.work, tt.most, got, tt.want)
		}
	}
	if sweepFirst >= sweepBatch/4 || vacuumFirst >= vacuumPages/4 {
		t.Errorf("a sweep starts with steps of %d games and %d pages; want small ones", sweepFirst, vacuumFirst)
	}
}

// A guess on a game the store has forgotten, an adversary's or not, reads
// the game without its turns: the writer reloaded every turn of a game it
// no longer kept, 300 rows for a game at turn 300, at each guess once
// thousands of adversary games were played in turn. Here the first turn
// of each game is spoilt in the file, and the store reopened: Play goes
// on, Guess, which returns the turns, reads them and fails.
func TestPlayReadsNoTurns(t *testing.T) {
	s, path := openInternal(t)
	secret, _ := adv.ParseCode("6666") // no colour of the turns
	for i, adversary := range []bool{false, true} {
		g := &mm.Game{ID: fmt.Sprint("g", i), Rules: adv, Secret: secret, MaxGuesses: 1000, Created: start, Adversary: adversary}
		if err := s.CreateGame(bg, g, nil); err != nil {
			t.Fatal(err)
		}
	}
	turns := costlyTurns(t)[:40]
	for _, c := range turns {
		for i := range 2 {
			if _, _, _, err := s.Play(bg, fmt.Sprint("g", i), nil, c, start); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := s.w.Exec(`UPDATE guesses SET guess = 'spoilt' WHERE n = 1`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err := Open(path, &Options{SweepEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c, _ := adv.ParseCode("6789")
	for i := range 2 {
		id := fmt.Sprint("g", i)
		f, n, status, err := s.Play(bg, id, nil, c, start)
		if err != nil || n != len(turns)+1 || status != mm.Playing {
			t.Errorf("Play(%s, %s) on a forgotten game = %v, %d, %v, %v; want turn %d in play", id, c, f, n, status, err, len(turns)+1)
		}
		if g, err := s.Guess(bg, id, nil, c, start); err == nil {
			t.Errorf("Guess(%s, %s) = turn %d, nil; want an error for the spoilt turn", id, c, len(g.Turns))
		}
	}
}
