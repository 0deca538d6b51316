package server_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/server"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// TestAssist follows a game on a real board through POST /api/assist: the
// codes left shrink with each answer, the solver's guess is one of them at
// the end, and bad histories are refused.
func TestAssist(t *testing.T) {
	e := newEnv(t, nil)
	var a server.AssistAnswer
	e.callJSON(t, "POST", "/api/assist", `{"history":[]}`, 200, &a)
	if a.Guess != "1111" || a.Remaining == nil || *a.Remaining != 1296 || len(a.Codes) != server.AssistCodes || a.Solved {
		t.Errorf("at the start: %+v; want the test solver's 1111 and 1296 codes, %d listed", a, server.AssistCodes)
	}
	// 3632 is the code; answers as it gives them.
	history := `{"guess":"1122","black":1,"white":0},{"guess":"1344","black":0,"white":1},{"guess":"3526","black":1,"white":2}`
	e.callJSON(t, "POST", "/api/assist", `{"history":[`+history+`]}`, 200, &a)
	if a.Remaining == nil || *a.Remaining != 7 || len(a.Codes) != 7 || a.Codes[0] != a.Guess {
		t.Errorf("after three answers: %+v; want 7 codes, the first of them proposed", a)
	}
	a = server.AssistAnswer{}
	e.callJSON(t, "POST", "/api/assist", `{"history":[`+history+`,{"guess":"3632","black":4,"white":0}]}`, 200, &a)
	if !a.Solved || a.Guess != "" || *a.Remaining != 1 {
		t.Errorf("after the winning answer: %+v; want solved", a)
	}
	// Bulls and Cows rules, given in the request.
	e.callJSON(t, "POST", "/api/assist", `{"colors":10,"pegs":4,"distinct":true,"history":[{"guess":"1234","black":0,"white":0}]}`, 200, &a)
	if *a.Remaining != 360 {
		t.Errorf("10 x 4 distinct after 1234 0 0: %d codes; want 6·5·4·3 = 360", *a.Remaining)
	}
	for _, tt := range []struct{ body, want string }{
		{`{"history":[{"guess":"1122","black":4,"white":0},{"guess":"1111","black":0,"white":0}]}`, "follows the code found"},
		{`{"history":[{"guess":"1122","black":0,"white":0},{"guess":"1111","black":1,"white":0}]}`, "answer 2"},
		{`{"history":[{"guess":"1122","black":3,"white":1}]}`, "feedback"},
		{`{"history":[{"guess":"11","black":0,"white":0}]}`, "peg"},
		{`{"colors":99,"history":[]}`, "colours"},
		// Counts whose sum overflows were refused as "-2 pegs".
		{`{"history":[{"guess":"1122","black":9223372036854775807,"white":9223372036854775807}]}`, "black 9223372036854775807; want 0 to 4"},
		{`{"history":[{"guess":"1122","black":0,"white":9223372036854775807}]}`, "white 9223372036854775807; want 0 to 4"},
		{`{"history":[{"guess":"1122","black":-1,"white":0}]}`, "black -1; want 0 to 4"},
	} {
		status, _, b := e.call(t, "POST", "/api/assist", tt.body)
		if status != http.StatusUnprocessableEntity || !strings.Contains(string(b), tt.want) || strings.Contains(string(b), "-2") {
			t.Errorf("POST /api/assist %s: %d %s; want 422 and %q", tt.body, status, b, tt.want)
		}
	}
}

// TestCoach weighs a finished game's guesses against the test solver.
func TestCoach(t *testing.T) {
	e := newEnv(t, nil)
	g := e.newGame(t, `{}`)
	secret := e.secret(t, g.ID)
	path := "/api/games/" + g.ID
	status, _, b := e.call(t, "GET", path+"/coach", "")
	if status != http.StatusConflict {
		t.Errorf("coach during the game: %d %s; want 409", status, b)
	}
	// The test solver's own first guess, then another, then the code.
	guesses := []string{"1111", "6543", secret}
	if secret == "6543" || secret == "1111" {
		guesses = guesses[2:]
	}
	for _, c := range guesses {
		e.callJSON(t, "POST", path+"/guesses", fmt.Sprintf(`{"guess":%q}`, c), 200, nil)
	}
	var c server.CoachAnswer
	e.callJSON(t, "GET", path+"/coach", "", 200, &c)
	if len(c.Moves) != len(guesses) {
		t.Fatalf("coach = %+v; want %d moves", c, len(guesses))
	}
	first := c.Moves[0]
	if len(guesses) == 3 && (first.Best != "1111" || first.Delta != 0 || first.Expected != first.BestExpected || first.Left != first.BestLeft) {
		t.Errorf("the solver's own guess weighed %+v; want no delta", first)
	}
	last := c.Moves[len(c.Moves)-1]
	if last.Guess != secret || last.Left != 0 {
		t.Errorf("the winning guess weighed %+v; want %s and no code left", last, secret)
	}
	sum := 0.0
	for _, m := range c.Moves {
		sum += m.Delta
		if m.Expected < 1 || m.BestExpected < 1 {
			t.Errorf("move %+v expects fewer than 1 guess", m)
		}
	}
	if d := sum - c.Delta; d > 0.01 || d < -0.01 {
		t.Errorf("the deltas add up to %.3f; the answer says %.3f", sum, c.Delta)
	}
}

// POST /api/assist goes through the solver's admission, as a hint does:
// refused with 503 and Retry-After while the solver is busy, paid for
// from the client's share of the solver and refused with 429 once that is
// spent, and given up when its client hangs up, freeing its slot.
func TestAssistAdmission(t *testing.T) {
	// The code found at once: no hint to compute, only the replay.
	const solved = `{"colors":2,"pegs":20,"history":[{"guess":"11111111111111111111","black":4,"white":0},` +
		`{"guess":"11112222222222222222","black":20,"white":0}]}`
	stuck := &solver{release: make(chan struct{})}
	e := newEnv(t, func(srv *server.Server) { srv.Hint, srv.HintWorkers, srv.HintTimeout = stuck, 1, 500*time.Millisecond })
	g := e.newGame(t, `{"colors":8,"pegs":5}`)
	e.call(t, "GET", "/api/games/"+g.ID+"/hint", "") // takes the only solver
	status, h, b := e.call(t, "POST", "/api/assist", solved)
	if status != http.StatusServiceUnavailable || h.Get("Retry-After") == "" || !strings.Contains(string(b), `"error":"the solver is busy`) {
		t.Errorf("assist while the only solver is taken: %d, Retry-After %q, %s; want 503, Retry-After, busy", status, h.Get("Retry-After"), b)
	}
	close(stuck.release)

	// A share of the solver of 1 ms, filling at 1 ms a second: enumerating
	// 2²⁰ codes spends it for seconds.
	e = newEnv(t, func(srv *server.Server) {
		srv.Rate, srv.Burst, srv.HintShare, srv.HintBurst = 10, 20, 0.001, time.Millisecond
	})
	e.callJSON(t, "POST", "/api/assist", solved, 200, nil)
	status, h, b = e.call(t, "POST", "/api/assist", solved)
	if status != http.StatusTooManyRequests || h.Get("Retry-After") == "" || !strings.Contains(string(b), "share of the solver") {
		t.Errorf("second assist of 2²⁰ codes with 1 ms of solver a second: %d, Retry-After %q, %s; want 429", status, h.Get("Retry-After"), b)
	}
	e.callJSON(t, "POST", "/api/games", `{}`, http.StatusCreated, nil)

	// A client that hangs up on an assist whose solver never ends frees
	// the only solver soon after.
	hung := &solver{release: make(chan struct{})}
	e = newEnv(t, func(srv *server.Server) {
		srv.Hint, srv.HintWorkers, srv.HintTimeout = cancellable{hung}, 1, time.Minute
	})
	body := `{"history":[{"guess":"1122","black":1,"white":0}]}`
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", e.URL+"/api/assist", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if resp, err := e.Client().Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("the endless assist answered %d within 200 ms", resp.StatusCode)
	}
	waitFor(t, "the assist's solver to be cancelled", func() bool { _, _, c, _ := hung.counts(); return c == 1 })
	close(hung.release)
	g = e.newGame(t, `{}`)
	waitFor(t, "a hint once the costly assist's client hung up", func() bool {
		status, _, _ := e.call(t, "GET", "/api/games/"+g.ID+"/hint", "")
		return status == 200
	})
}

// An assist is one admission: once its replay has run and spent the
// client's share of the solver, its hint is computed and answered, not
// refused with 429; the next assist waits for the share to fill again.
func TestAssistOneAdmission(t *testing.T) {
	// 2²⁰ codes to enumerate, and 4845 left: more than the 1 ms of solver
	// the client has.
	const body = `{"colors":2,"pegs":20,"history":[{"guess":"11111111111111111111","black":4,"white":0}]}`
	first := mm.StrategyFunc(func(st *mm.State) (mm.Code, error) {
		set, err := st.Candidates()
		if err != nil {
			return mm.Code{}, err
		}
		return set.Code(0), nil
	})
	e := newEnv(t, func(srv *server.Server) {
		srv.Hint, srv.Rate, srv.Burst, srv.HintShare, srv.HintBurst = first, 10, 20, 0.001, time.Millisecond
	})
	var a server.AssistAnswer
	e.callJSON(t, "POST", "/api/assist", body, 200, &a)
	if a.Guess == "" || a.Remaining == nil || *a.Remaining != 4845 || len(a.Codes) != server.AssistCodes {
		t.Errorf("assist of 2 x 20 after one answer: %+v; want a guess and 4845 codes", a)
	}
	status, h, b := e.call(t, "POST", "/api/assist", body)
	if status != http.StatusTooManyRequests || h.Get("Retry-After") == "" || !strings.Contains(string(b), "share of the solver") {
		t.Errorf("second assist with the share spent: %d, Retry-After %q, %s; want 429", status, h.Get("Retry-After"), b)
	}
}

// POST /api/assist plays the strategy it is asked for among those the
// server offers, which GET /api/config lists, and the hint solver when
// asked for none; the same history under two strategies is two hints,
// not one remembered (issue 46).
func TestAssistStrategy(t *testing.T) {
	last := mm.StrategyFunc(func(st *mm.State) (mm.Code, error) {
		set, err := st.Candidates()
		if err != nil {
			return mm.Code{}, err
		}
		return set.Code(set.Len() - 1), nil
	})
	e := newEnv(t, func(srv *server.Server) {
		srv.Strategies = map[string]mm.Strategy{"last": last, "first": firstConsistent}
	})
	var c server.Config
	e.callJSON(t, "GET", "/api/config", "", 200, &c)
	if strings.Join(c.Strategies, ",") != "first,last" {
		t.Errorf("GET /api/config strategies %q; want first, last", c.Strategies)
	}
	for _, tt := range []struct{ strategy, guess string }{
		{"", "1111"}, {"last", "6666"}, {"first", "1111"}, {"last", "6666"},
	} {
		var a server.AssistAnswer
		e.callJSON(t, "POST", "/api/assist", `{"strategy":"`+tt.strategy+`","history":[]}`, 200, &a)
		if a.Guess != tt.guess {
			t.Errorf("assist with strategy %q proposes %s; want %s", tt.strategy, a.Guess, tt.guess)
		}
	}
	status, _, body := e.call(t, "POST", "/api/assist", `{"strategy":"knuth","history":[]}`)
	if status != http.StatusUnprocessableEntity || !strings.Contains(string(body), `unknown strategy \"knuth\"; this server offers first, last`) {
		t.Errorf("assist with a strategy not offered: %d %s; want 422 naming those offered", status, body)
	}
}

// TestAssistLargeConflict: on a variant too large to count, answers that
// cannot all be true are refused, naming them as assist does (the
// complete solver's proof), not the innocent one between them; answers a
// code fits are taken.
func TestAssistLargeConflict(t *testing.T) {
	e := newEnv(t, func(s *server.Server) { s.Hint = strategy.Auto{Budget: 20 * time.Millisecond} })
	ones := strings.Repeat("1", 20)
	history := fmt.Sprintf(`{"guess":"%s","black":0,"white":0},{"guess":"23456789ABCDEFGHIJK2","black":0,"white":3}`, ones)
	body := `{"colors":20,"pegs":20,"history":[` + history + `]}`
	var a server.AssistAnswer
	e.callJSON(t, "POST", "/api/assist", body, 200, &a)
	if a.Remaining != nil || a.Solved {
		t.Errorf("20 x 20 after two answers: %+v; want codes not counted", a)
	}
	// The guess says whether it can be the code.
	g, err := mm.Rules{Colors: 20, Pegs: 20}.ParseCode(a.Guess)
	if err != nil {
		t.Fatal(err)
	}
	one, _ := mm.Rules{Colors: 20, Pegs: 20}.ParseCode(ones)
	other, _ := mm.Rules{Colors: 20, Pegs: 20}.ParseCode("23456789ABCDEFGHIJK2")
	fits := mm.Score(g, one) == mm.Feedback{} && mm.Score(g, other) == mm.Feedback{White: 3}
	t.Logf("guess %s, unfit %v", a.Guess, a.Unfit)
	if a.Unfit == fits {
		t.Errorf("guess %s fits both answers: %v, but unfit is %v", a.Guess, fits, a.Unfit)
	}
	// No peg of colour 1: a code with one peg not 1 scores 2 blacks.
	body = `{"colors":20,"pegs":20,"history":[` + history + fmt.Sprintf(`,{"guess":"%s2","black":2,"white":0}]}`, ones[1:])
	status, _, b := e.call(t, "POST", "/api/assist", body)
	if want := "answers 1 and 3 cannot all be true together"; status != http.StatusUnprocessableEntity || !strings.Contains(string(b), want) {
		t.Errorf("POST /api/assist %s: %d %s; want 422 and %q", body, status, b, want)
	}
}
