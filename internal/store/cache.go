package store

import (
	"container/list"
	"unsafe"

	mm "github.com/mastermind-toolkit/mastermind"
)

// DefaultCacheBytes is the memory the writer's cache of games in play may
// take when Options.CacheBytes is zero.
const DefaultCacheBytes = 64 << 20

// cached is the committed state of a game in play, as the writer keeps it:
// the game without its turns, which the writer never needs, and their
// number, so that what it keeps of a game, and reads of one it has
// forgotten, do not grow with the turns.
type cached struct {
	g      *mm.Game // without turns
	played int      // the turns played
	key    []byte   // the owner's key; nil for a game from before keys
	size   int64
}

// gameCache keeps the games in play that the writer saw last, up to a
// number of bytes, forgetting the least recently used first. It is owned
// by the writer goroutine and not safe for concurrent use.
type gameCache struct {
	max, bytes int64
	lru        *list.List // of *cached, most recent first
	byID       map[string]*list.Element
}

func newGameCache(max int64) *gameCache {
	return &gameCache{max: max, lru: list.New(), byID: make(map[string]*list.Element)}
}

// get returns game id and marks it used, or nil.
func (c *gameCache) get(id string) *cached {
	e := c.byID[id]
	if e == nil {
		return nil
	}
	c.lru.MoveToFront(e)
	return e.Value.(*cached)
}

// put stores v, replacing what was there for its game, and then forgets
// the least recently used games until the cache fits its bytes (v itself,
// if it alone is larger).
func (c *gameCache) put(v *cached) {
	c.remove(v.g.ID)
	v.size = sizeOf(v.g, v.key)
	c.byID[v.g.ID] = c.lru.PushFront(v)
	c.bytes += v.size
	for c.bytes > c.max {
		c.remove(c.lru.Back().Value.(*cached).g.ID)
	}
}

// remove forgets game id, if it is there.
func (c *gameCache) remove(id string) {
	e := c.byID[id]
	if e == nil {
		return
	}
	c.bytes -= e.Value.(*cached).size
	c.lru.Remove(e)
	delete(c.byID, id)
}

// entryBytes is the memory of a cached game beside its ID and key: the
// Game, its cache entry, the list element and the map's slot.
const entryBytes = int64(unsafe.Sizeof(mm.Game{})+unsafe.Sizeof(cached{})+unsafe.Sizeof(list.Element{})) + 64

// sizeOf estimates the bytes a cached game holds: its structs, its ID and
// its key; it has no turns.
func sizeOf(g *mm.Game, key []byte) int64 {
	return entryBytes + int64(len(g.ID)+len(key))
}
