package server_test

import (
	"testing"

	"github.com/mastermind-toolkit/mastermind/internal/server"
)

// TestCoachSuper checks that the coach takes on Super Mastermind (8 x 5,
// 32,768 codes): the first position, too large to weigh, is scored by the
// codes each guess was expected to leave.
func TestCoachSuper(t *testing.T) {
	e := newEnv(t, nil)
	g := e.newGame(t, `{"colors":8,"pegs":5,"maxGuesses":1}`)
	e.callJSON(t, "POST", "/api/games/"+g.ID+"/guesses", `{"guess":"12345"}`, 200, nil)
	var c server.CoachAnswer
	e.callJSON(t, "GET", "/api/games/"+g.ID+"/coach", "", 200, &c)
	if len(c.Moves) != 1 {
		t.Fatalf("coach = %+v; want 1 move", c)
	}
	m := c.Moves[0]
	if !m.Scored || m.ExpectedLeft <= 0 || m.BestExpectedLeft <= 0 || m.Delta != 0 || c.Delta != 0 {
		t.Errorf("the first guess of 8 x 5 = %+v; want it scored by codes left, no delta", m)
	}
}
