package server

import (
	"context"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// hasSlot reports whether t has been granted its slot, and in which lane.
func hasSlot(t *ticket) (ok, cheapLane bool) {
	select {
	case lane, open := <-t.grant:
		if !open {
			return false, false
		}
		t.grant <- lane // for wait, later
		return true, lane
	default:
		return false, false
	}
}

// The scheduler serves clients in the order of the solver time each has
// had, not of their arrival: a client new to the solver goes before one
// with computations queued, and a full queue refuses the computations of
// the clients that had the most, not a newcomer (issue 46).
func TestSchedulerFair(t *testing.T) {
	s := newScheduler(1, 3)
	must := func(client string, cheap bool, est time.Duration) *ticket {
		t.Helper()
		tk, err := s.enqueue(client, cheap, est)
		if err != nil {
			t.Fatalf("enqueue(%q): %v", client, err)
		}
		return tk
	}
	a1 := must("a", false, time.Second)
	if ok, _ := hasSlot(a1); !ok {
		t.Fatal("the first computation did not get the free slot")
	}
	a2, a3, a4 := must("a", false, time.Second), must("a", false, time.Second), must("a", false, time.Second)
	// The queue is full of a's; b had nothing, so it takes the place of
	// a's last, which is refused.
	b1 := must("b", false, time.Second)
	if _, open := <-a4.grant; open {
		t.Error("a's last computation was not dropped for b's")
	}
	if err := s.wait(context.Background(), a4, nil); err != errBusy {
		t.Errorf("wait of a dropped ticket: %v; want errBusy", err)
	}
	// b had a second; c and d had nothing, and d takes the place of a's
	// third. A fourth of a's would come after every one waiting: refused.
	s.done(a1, time.Second)
	if ok, _ := hasSlot(b1); !ok {
		t.Fatal("b's computation did not go before a's second")
	}
	if ok, _ := hasSlot(a2); ok {
		t.Fatal("a's second computation went before b's")
	}
	c1 := must("c", false, time.Second)
	d1 := must("d", false, time.Second)
	if _, open := <-a3.grant; open {
		t.Error("a's third computation was not dropped for d's")
	}
	if _, err := s.enqueue("a", false, time.Second); err != errBusy {
		t.Errorf("a's fourth computation in a full queue: %v; want errBusy", err)
	}
	// Then c, d and a's second, in the order of their tags and arrival.
	for _, next := range []*ticket{c1, d1, a2} {
		s.done(b1, time.Second)
		if ok, _ := hasSlot(next); !ok {
			t.Fatalf("%s's computation did not go next", next.client)
		}
		b1 = next
	}
}

// A cheap computation takes the cheap lane while the main lane is busy,
// and an expensive one never does.
func TestSchedulerCheapLane(t *testing.T) {
	s := newScheduler(1, 8)
	big, _ := s.enqueue("a", false, time.Second)
	big2, _ := s.enqueue("b", false, time.Second)
	small, _ := s.enqueue("c", true, time.Millisecond)
	if ok, lane := hasSlot(big); !ok || lane {
		t.Errorf("the first expensive computation: granted %v, cheap lane %v; want the main lane", ok, lane)
	}
	if ok, _ := hasSlot(big2); ok {
		t.Error("a second expensive computation took the cheap lane")
	}
	if ok, lane := hasSlot(small); !ok || !lane {
		t.Errorf("a cheap computation beside an expensive one: granted %v, cheap lane %v; want the cheap lane", ok, lane)
	}
	s.done(small, time.Millisecond)
	s.done(big, time.Second)
	if ok, lane := hasSlot(big2); !ok || lane {
		t.Errorf("the second expensive computation once the first was done: granted %v, cheap lane %v", ok, lane)
	}
}

// A computation is estimated cheap on a small board until one of its kind
// has been timed, then by its time; never on a large board.
func TestCostsEstimate(t *testing.T) {
	var c costs
	classic, big := mm.Rules{Colors: 6, Pegs: 4}, mm.Rules{Colors: 10, Pegs: 8}
	small, large := costKey{"hint", classic}, costKey{"hint", big}
	if _, cheap := c.estimate(small); !cheap {
		t.Error("a hint on 6 × 4, never timed, is not cheap")
	}
	if _, cheap := c.estimate(large); cheap {
		t.Error("a hint on 10 × 8, never timed, is cheap")
	}
	c.note(small, time.Second)
	if _, cheap := c.estimate(small); cheap {
		t.Error("a hint on 6 × 4 that took a second is still cheap")
	}
	c.note(large, time.Millisecond)
	if _, cheap := c.estimate(large); cheap {
		t.Error("a hint on 10 × 8 that took a millisecond is cheap: the next may take a second")
	}
}
