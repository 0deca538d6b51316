package store_test

import (
	"errors"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/store"
)

// A game plays only with its owner's key, before and after the store is
// reopened (the key then comes from the file, not from the cache).
func TestOwner(t *testing.T) {
	s, path := openStore(t)
	key, other := []byte("key of the player"), []byte("key of someone else")
	secret := code(t, mm.Classic, "3632")
	if err := s.CreateGame(ctx, &mm.Game{ID: "g", Rules: mm.Classic, Secret: secret, Created: t0}, key); err != nil {
		t.Fatal(err)
	}
	play := func(s *store.Store, k []byte, guess string, want error, turns int) {
		t.Helper()
		g, err := s.Guess(ctx, "g", k, code(t, mm.Classic, guess), t0)
		if !errors.Is(err, want) || (want == nil && err != nil) {
			t.Fatalf("Guess(%q, %s) error = %v; want %v", k, guess, err, want)
		}
		if err == nil && len(g.Turns) != turns {
			t.Errorf("Guess(%q, %s): %d turns; want %d", k, guess, len(g.Turns), turns)
		}
	}
	play(s, other, "1122", mm.ErrNotPlayer, 0)
	play(s, []byte{}, "1122", mm.ErrNotPlayer, 0)
	play(s, key, "1122", nil, 1)
	play(s, other, "1122", mm.ErrNotPlayer, 0)
	if _, err := s.Game(ctx, "g", other); !errors.Is(err, mm.ErrNotPlayer) {
		t.Errorf("Game(g, other key): %v; want ErrNotPlayer", err)
	}
	for _, k := range [][]byte{key, nil} {
		if g, err := s.Game(ctx, "g", k); err != nil || len(g.Turns) != 1 {
			t.Errorf("Game(g, %q) = %v, %v; want 1 turn", k, g, err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := store.Open(path, noSweep)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	play(s2, other, "1344", mm.ErrNotPlayer, 0)
	play(s2, key, "1344", nil, 2)
	play(s2, nil, "3632", nil, 3) // nil: the caller checked
}
