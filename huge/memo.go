package huge

import (
	"sync"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A memo keeps, on a game's states (mm.State.Attach), the orders choose
// picked, keyed by the run and the probes before them: a choice depends on
// them alone, so one memo serves every state that follows, whichever
// branch. It is safe for concurrent use.
type memo struct {
	mu sync.Mutex
	m  map[string]choice
}

type choice struct {
	order []uint8
	only  bool
}

type memoAttachKey struct{}

// memoOf returns the memo on st, attaching a new one if there is none.
func memoOf(st *mm.State) *memo {
	if m, ok := st.Attached(memoAttachKey{}).(*memo); ok {
		return m
	}
	return st.Attach(memoAttachKey{}, &memo{m: map[string]choice{}}).(*memo)
}

// Follow carries the memo to the next state unchanged.
func (m *memo) Follow(*mm.State) (mm.Follower, error) { return m, nil }

func (m *memo) get(key string) (choice, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.m[key]
	return c, ok
}

func (m *memo) put(key string, c choice) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m[key] = c
}

// memoKey names a run's positions, colour counts and probes.
func memoKey(t run, probes []probe) string {
	b := []byte{byte(t.lo), byte(t.hi)}
	for _, n := range t.count {
		b = append(b, byte(n))
	}
	for _, q := range probes {
		b = append(b, q.order...)
		b = append(b, byte(q.hits))
	}
	return string(b)
}
