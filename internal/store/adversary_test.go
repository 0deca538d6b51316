package store_test

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/store"
)

// The adversary: 16 colours × 4 pegs, 65,536 codes, up to 1000
// guesses.
var advRules = mm.Rules{Colors: 16, Pegs: 4}

func newAdversary(t testing.TB, s *store.Store, id string, key []byte) *mm.Game {
	t.Helper()
	g := &mm.Game{ID: id, Rules: advRules, Secret: code(t, advRules, "1111"), MaxGuesses: 1000, Created: t0, Adversary: true}
	if err := s.CreateGame(ctx, g, key); err != nil {
		t.Fatal(err)
	}
	return g
}

// allocated returns the bytes the process has allocated so far, in every
// goroutine: the writer's work counts.
func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// An adversary's guess does no more work at turn 400 than at turn 10. The
// issue's reproduction, 1111 over and over on 16 × 4, filtered every code
// through every turn, about a second a guess at turn 500. Here the guesses
// differ, so that no turn can be skipped as a repeat: 1111 to 5555, then
// every code of colours 1 to 5, each answered 0 0, leaving 11⁴ codes. The
// work is counted as the bytes allocated, which each filtering of the
// codes adds to (hundreds of kilobytes), not timed.
func TestAdversaryGuessCost(t *testing.T) {
	s, _ := openStore(t)
	newAdversary(t, s, "adv", nil)
	var guesses []mm.Code
	for _, c := range []string{"1111", "2222", "3333", "4444", "5555"} {
		guesses = append(guesses, code(t, advRules, c))
	}
	for i := range 5 * 5 * 5 * 5 {
		guesses = append(guesses, code(t, advRules, string([]byte{
			'1' + byte(i/125), '1' + byte(i/25%5), '1' + byte(i/5%5), '1' + byte(i%5)})))
	}
	play := func(n int) uint64 {
		before := allocated()
		for range n {
			g, err := s.Guess(ctx, "adv", nil, guesses[0], t0)
			if err != nil {
				t.Fatal(err)
			}
			if f := g.Turns[len(g.Turns)-1].Feedback; f != (mm.Feedback{}) {
				t.Fatalf("guess %d: %s got %v; want 0 0", len(g.Turns), guesses[0], f)
			}
			guesses = guesses[1:]
		}
		return (allocated() - before) / uint64(n)
	}
	play(10)
	early := play(10) // turns 11 to 20
	play(380)
	late := play(10) // turns 401 to 410
	t.Logf("bytes allocated per guess: %d at turn 20, %d at turn 410", early, late)
	// The turns themselves, 24 bytes each, are copied a few times a guess
	// in any game; weighing 15⁴ codes a turn would be megabytes.
	if late > 2*early+1<<20 {
		t.Errorf("an adversary guess allocates %d bytes at turn 410 and %d at turn 20; want no growth with the turns", late, early)
	}
}

// The store's answers are the adversary's of mm.Game, guess by guess, with
// the codes it keeps forgotten when the store is reopened; concurrent
// guesses on one adversary game are each counted once; another player's
// token is refused.
func TestAdversaryAnswers(t *testing.T) {
	s, path := openStore(t)
	key := []byte("owner's key")
	ref := newAdversary(t, s, "adv", key).Clone()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 40 {
		if i == 20 {
			// Reopened: the codes are worked out again from the turns.
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			var err error
			if s, err = store.Open(path, noSweep); err != nil {
				t.Fatal(err)
			}
			defer s.Close()
		}
		c := mm.RandomCode(advRules, rng)
		want, err := ref.Guess(c, t0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Guess(ctx, "adv", []byte("not the key"), c, t0); !errors.Is(err, mm.ErrNotPlayer) {
			t.Fatalf("guess with another key: %v; want ErrNotPlayer", err)
		}
		g, err := s.Guess(ctx, "adv", key, c, t0)
		if err != nil {
			t.Fatalf("guess %d, %s: %v", i+1, c, err)
		}
		if got := g.Turns[len(g.Turns)-1].Feedback; got != want || len(g.Turns) != i+1 || g.Status != ref.Status {
			t.Fatalf("guess %d, %s: %v, turn %d, %v; want %v, turn %d, %v", i+1, c, got, len(g.Turns), g.Status, want, i+1, ref.Status)
		}
		if ref.Status != mm.Playing {
			break
		}
	}

	newAdversary(t, s, "busy", nil)
	var wg sync.WaitGroup
	seen := make([]bool, 201)
	var mu sync.Mutex
	for i := range 8 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i), 3))
			for range 25 {
				g, err := s.Guess(ctx, "busy", nil, mm.RandomCode(advRules, rng), t0)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if seen[len(g.Turns)] {
					t.Errorf("turn %d answered twice", len(g.Turns))
				}
				seen[len(g.Turns)] = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	g, err := s.Game(ctx, "busy", nil)
	if err != nil {
		t.Fatal(err)
	}
	// The stored answers are the adversary's for the turns before each.
	replay := &mm.Game{Rules: advRules, Adversary: true, MaxGuesses: 1000}
	for i, turn := range g.Turns {
		f, err := replay.Guess(turn.Guess, t0)
		if err != nil {
			t.Fatal(err)
		}
		if f != turn.Feedback {
			t.Fatalf("concurrent guess %d, %s: stored %v; the adversary answers %v", i+1, turn.Guess, turn.Feedback, f)
		}
		if replay.Status != mm.Playing {
			break
		}
	}
}
