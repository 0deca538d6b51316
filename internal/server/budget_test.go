package server

import (
	"testing"
	"time"
)

// The default share of the solver is sized for people and tight for
// scripts (issue 46: on 10 × 8 the fourth hint was refused for 75 s): a
// person asking for a hint every turn, one turn in 15 s, on the largest
// board the web page offers (up to about 0.8 s of solver a hint), is never
// refused, game after game; a script asking back to back for ten minutes,
// waiting only as long as it is told, gets a dozen such hints at once,
// then one every 16 s.
func TestHintBudgetSized(t *testing.T) {
	const hint = 800 * time.Millisecond
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	now := start
	b := newHintBudget(0, 0, func() time.Time { return now })
	for i := range 60 {
		if wait := b.reserve("person"); wait > 0 {
			t.Fatalf("a person asking for a hint of %v every 15 s: hint %d refused for %v", hint, i+1, wait)
		}
		b.charge("person", int(hint.Milliseconds()))
		now = now.Add(15 * time.Second)
	}

	now = start
	answered := 0
	for now.Before(start.Add(10 * time.Minute)) {
		if wait := b.reserve("script"); wait > 0 {
			now = now.Add(wait)
			continue
		}
		answered++
		b.charge("script", int(hint.Milliseconds()))
		now = now.Add(hint)
	}
	most := int((DefaultHintBurst + time.Duration(600*DefaultHintShare*float64(time.Second))) / hint)
	if answered > most+1 {
		t.Errorf("a script asking back to back for 10 minutes got %d hints of %v; want at most %d", answered, hint, most+1)
	}
}
