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

// TestUnfit: a guess on a variant too large to count is said unfit when
// it does not fit every answer; elsewhere the count says it.
func TestUnfit(t *testing.T) {
	big := mm.Rules{Colors: 20, Pegs: 20}
	parse := func(r mm.Rules, s string) mm.Code {
		c, err := r.ParseCode(s)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	ones := parse(big, strings.Repeat("1", 20))
	turns := []mm.Turn{{Guess: ones, Feedback: mm.Feedback{Black: 2}}}
	for _, tt := range []struct {
		r     mm.Rules
		guess string
		turns []mm.Turn
		want  bool
	}{
		{big, "11222222222222222222", turns, false},
		{big, "12222222222222222222", turns, true},
		{big, "12222222222222222222", nil, false},
		{mm.Classic, "1234", []mm.Turn{{Guess: parse(mm.Classic, "1111"), Feedback: mm.Feedback{Black: 2}}}, false},
	} {
		if got := unfit(tt.r, parse(tt.r, tt.guess), tt.turns); got != tt.want {
			t.Errorf("unfit(%s, %s) = %v; want %v", tt.r, tt.guess, got, tt.want)
		}
	}
}
