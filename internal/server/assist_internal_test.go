package server

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// heavyHistory is the answers of the denial of service: 2 colours
// × 20 pegs, and the same guess answered 10 black a thousand times, each
// answer filtering the 184,756 codes left.
func heavyHistory(t testing.TB) (mm.Rules, []mm.Turn) {
	r := mm.Rules{Colors: 2, Pegs: 20}
	c, err := r.ParseCode(strings.Repeat("1", 20))
	if err != nil {
		t.Fatal(err)
	}
	turns := make([]mm.Turn, 1000)
	for i := range turns {
		turns[i] = mm.Turn{Guess: c, Feedback: mm.Feedback{Black: 10}}
	}
	return r, turns
}

// An assist's replay stops when its context is done, as when its client
// hangs up, instead of running through every answer.
func TestReplayCancelled(t *testing.T) {
	r, turns := heavyHistory(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := replay(ctx, r, turns); !errors.Is(err, context.Canceled) {
		t.Errorf("replay with its context cancelled: %v; want context.Canceled", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := replay(ctx, r, turns); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("replay of 1000 answers over 2²⁰ codes within 20 ms: %v; want context.DeadlineExceeded", err)
	}
}
