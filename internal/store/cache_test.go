package store

import (
	"fmt"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// The cache holds games up to its bytes, forgetting the least recently
// used first; a game takes the same room however many turns it has.
func TestGameCache(t *testing.T) {
	game := func(id string, played int) *cached {
		return &cached{g: &mm.Game{ID: id, Rules: mm.Classic}, played: played}
	}
	one := sizeOf(game("g00", 0).g, nil)
	c := newGameCache(10 * one)
	for i := range 10 {
		c.put(game(fmt.Sprintf("g%02d", i), i*100))
	}
	if c.bytes != 10*one || c.lru.Len() != 10 {
		t.Fatalf("10 games: %d bytes, %d games; want %d, 10", c.bytes, c.lru.Len(), 10*one)
	}
	c.get("g00") // g01 is now the least recently used
	c.put(game("g10", 1000))
	if c.get("g01") != nil || c.get("g00") == nil || c.get("g10") == nil || c.lru.Len() != 10 {
		t.Errorf("after an 11th game: g01 kept %v, g00 kept %v, %d games; want g01 forgotten, g00 and g10 kept, 10 games",
			c.get("g01") != nil, c.get("g00") != nil, c.lru.Len())
	}
	if got := c.get("g10").played; got != 1000 {
		t.Errorf("g10 has %d turns played; want 1000", got)
	}
	// A game larger than the cache (by its ID) is not kept.
	c.put(game(strings.Repeat("g", int(10*one)), 0))
	if c.bytes != 0 || c.lru.Len() != 0 || len(c.byID) != 0 {
		t.Errorf("after a game larger than the cache: %d bytes, %d games, %d IDs; want it empty", c.bytes, c.lru.Len(), len(c.byID))
	}
}
