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
	if _, _, err := replay(ctx, r, turns); !errors.Is(err, context.Canceled) {
		t.Errorf("replay with its context cancelled: %v; want context.Canceled", err)
	}
	ctx, cancel = context.WithDeadline(context.Background(), time.Now())
	defer cancel()
	if _, _, err := replay(ctx, r, turns); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("replay past its deadline: %v; want context.DeadlineExceeded", err)
	}
}

// countingContext counts the calls of its Err.
type countingContext struct {
	context.Context
	n int
}

func (c *countingContext) Err() error { c.n++; return c.Context.Err() }

// An assist's replay skips an answer given before, the same guess with the
// same feedback, as it rules out nothing more: the 1000 answers
// are one filter of the codes, not a thousand.
func TestReplaySkipsRepeats(t *testing.T) {
	r, turns := heavyHistory(t)
	ctx := &countingContext{Context: context.Background()}
	out, _, err := replay(ctx, r, turns)
	if err != nil || out.Remaining == nil || *out.Remaining != 184756 {
		t.Fatalf("replay of one answer given 1000 times: %+v, %v; want C(20, 10) = 184756 codes", out, err)
	}
	if ctx.n != 1 {
		t.Errorf("replay of one answer given 1000 times played %d answers; want 1", ctx.n)
	}
}
