package mastermind

// A Follower is knowledge about a game that a package beyond the core keeps
// on a State and carries from turn to turn: package large attaches the
// candidates of a variant too large to enumerate once it has listed them,
// and a code known to fit every answer, with which it checks each new one.
// The core thus stays free of the searches that large variants need, while
// their results follow the game.
//
// An attachment is a cache: it must not change what the state means, only
// spare work or catch contradictions that the core cannot see.
type Follower interface {
	// Follow returns the knowledge for next, the state after one more turn
	// (next.Turn(next.Len()-1)), or nil to leave next without it. An
	// error, wrapping ErrInconsistent when the knowledge proves that no
	// code fits next's turns, makes Play fail with it.
	Follow(next *State) (Follower, error)
}

// A Counter is a Follower that knows how many codes fit the turns of the
// state it is attached to, such as a list of the candidates; Remaining
// asks it when the core cannot count them.
type Counter interface {
	Follower
	Remaining() int
}

type attachment struct {
	key any
	f   Follower
}

// Attach stores f on st under key, unless something is stored under key
// already, and returns what is stored there. Keys compare with ==, as
// context.Context's keys do; use a type of your own package. Play carries
// every attachment to the next state through Follow; Branch, which builds
// trees of enumerable variants, carries none. Attach is safe for concurrent
// use.
func (st *State) Attach(key any, f Follower) Follower {
	for {
		old := st.att.Load()
		var list []attachment
		if old != nil {
			for _, a := range *old {
				if a.key == key {
					return a.f
				}
			}
			list = *old
		}
		next := append(list[:len(list):len(list)], attachment{key, f})
		if st.att.CompareAndSwap(old, &next) {
			return f
		}
	}
}

// Attached returns what is stored on st under key, or nil.
func (st *State) Attached(key any) Follower {
	for _, a := range st.attached() {
		if a.key == key {
			return a.f
		}
	}
	return nil
}

func (st *State) attached() []attachment {
	if p := st.att.Load(); p != nil {
		return *p
	}
	return nil
}

// follow carries st's attachments to next, the state after one more turn.
func (st *State) follow(next *State) error {
	for _, a := range st.attached() {
		f, err := a.f.Follow(next)
		if err != nil {
			return err
		}
		if f != nil {
			next.Attach(a.key, f)
		}
	}
	return nil
}
