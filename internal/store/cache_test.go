package store

import (
	"fmt"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// The cache holds games up to its bytes, forgetting the least recently
// used first, and counts the turns of long games.
func TestGameCache(t *testing.T) {
	game := func(id string, turns int) *mm.Game {
		return &mm.Game{ID: id, Rules: mm.Classic, Turns: make([]mm.Turn, turns)}
	}
	one := sizeOf(game("g00", 0), nil)
	c := newGameCache(10 * one)
	for i := range 10 {
		c.put(game(fmt.Sprintf("g%02d", i), 0), nil)
	}
	if c.bytes != 10*one || c.lru.Len() != 10 {
		t.Fatalf("10 games: %d bytes, %d games; want %d, 10", c.bytes, c.lru.Len(), 10*one)
	}
	c.get("g00") // g01 is now the least recently used
	c.put(game("g10", 0), nil)
	if c.get("g01") != nil || c.get("g00") == nil || c.get("g10") == nil || c.lru.Len() != 10 {
		t.Errorf("after an 11th game: g01 kept %v, g00 kept %v, %d games; want g01 forgotten, g00 and g10 kept, 10 games",
			c.get("g01") != nil, c.get("g00") != nil, c.lru.Len())
	}
	// A game of 20 turns takes the room of several short ones (a turn's
	// code has room for mm.MaxPegs pegs).
	long := game("g99", 20)
	if sizeOf(long, nil) < 4*one || sizeOf(long, nil) > 10*one {
		t.Fatalf("a game of 20 turns takes %d bytes, a new one %d; the test wants 4 to 10 times more", sizeOf(long, nil), one)
	}
	c.put(long, nil)
	if c.bytes > c.max || c.get("g99") == nil || c.lru.Len() > 7 {
		t.Errorf("after a long game: %d bytes of %d, %d games", c.bytes, c.max, c.lru.Len())
	}
	// A game larger than the cache is not kept.
	c.put(game("g98", 1000), nil)
	if c.bytes != 0 || c.lru.Len() != 0 || len(c.byID) != 0 {
		t.Errorf("after a game larger than the cache: %d bytes, %d games, %d IDs; want it empty", c.bytes, c.lru.Len(), len(c.byID))
	}
}
