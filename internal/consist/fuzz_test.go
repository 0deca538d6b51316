package consist

import (
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// FuzzHistories reads a variant and a history from bytes and checks what
// the solver draws as checkHistory does: every code scored, every
// shortfall enumerated.
func FuzzHistories(f *testing.F) {
	f.Add([]byte{3, 3, 0, 2, 0, 1, 2, 5, 1, 1, 0, 2, 1})
	f.Add([]byte{4, 6, 0, 4, 0, 0, 1, 1, 3, 2, 2, 3, 3, 0})
	f.Add([]byte{5, 5, 1, 8, 0, 1, 2, 3, 4, 6, 4, 3, 2, 1, 0, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 4 {
			return
		}
		r := mm.Rules{Pegs: 1 + int(data[0])%5, Colors: 2 + int(data[1])%4, Distinct: data[2]%2 == 1}
		if r.Validate() != nil {
			return
		}
		want := 1 + int(data[3])%8
		fbs := r.Feedbacks()
		var turns []mm.Turn
		for rest := data[4:]; len(rest) >= r.Pegs+1 && len(turns) < 8; rest = rest[r.Pegs+1:] {
			cs := make([]int, r.Pegs)
			for i := range cs {
				cs[i] = int(rest[i]) % r.Colors
			}
			g, _ := mm.NewCode(cs...)
			fb := fbs[int(rest[r.Pegs])%len(fbs)]
			if r.Check(g) != nil || r.CheckFeedback(fb) != nil {
				continue
			}
			turns = append(turns, mm.Turn{Guess: g, Feedback: fb})
		}
		if err := checkHistory(r, turns, want, uint64(len(data))); err != nil {
			t.Fatalf("%s: %v", formatHistory(r, turns), err)
		}
	})
}
