package server_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestErrorPrefix checks that the API's errors do not carry the command
// line's "mastermind: ", at the start or within: "answer 2: …".
func TestErrorPrefix(t *testing.T) {
	e := newEnv(t, nil)
	for _, tt := range []struct{ path, body, want string }{
		{"/api/assist", `{"history":[{"guess":"1122","black":0,"white":0},{"guess":"1111","black":1,"white":0}]}`, `{"error":"answer 2: `},
		{"/api/assist", `{"history":[{"guess":"11x2","black":0,"white":0}]}`, `{"error":"answer 1: `},
		{"/api/games", `{"pegs":-1}`, `{"error":"`},
	} {
		status, _, b := e.call(t, "POST", tt.path, tt.body)
		if status != http.StatusUnprocessableEntity || !strings.HasPrefix(string(b), tt.want) || strings.Contains(string(b), "mastermind:") {
			t.Errorf("POST %s %s: %d %s; want 422 starting %s, without \"mastermind:\"", tt.path, tt.body, status, b, tt.want)
		}
	}
}

// TestAssistConflict checks that /api/assist names the answers that
// cannot all be true, as the assist command does: of Knuth's game against
// 3632 with a fourth answer mistyped, answers 2, 3 and 4.
func TestAssistConflict(t *testing.T) {
	e := newEnv(t, nil)
	for _, tt := range []struct{ body, want string }{
		{`{"history":[{"guess":"1122","black":1,"white":0},{"guess":"1344","black":0,"white":1},{"guess":"3526","black":1,"white":2},{"guess":"1462","black":3,"white":0}]}`,
			"; answers 2, 3 and 4 cannot all be true together"},
		{`{"history":[{"guess":"1122","black":0,"white":0},{"guess":"1111","black":1,"white":0}]}`,
			"; answers 1 and 2 cannot all be true together"},
	} {
		status, _, b := e.call(t, "POST", "/api/assist", tt.body)
		if status != http.StatusUnprocessableEntity || !strings.Contains(string(b), tt.want) {
			t.Errorf("POST /api/assist %s: %d %s; want 422 and %q", tt.body, status, b, tt.want)
		}
	}
}

// TestZeroRules checks that colors or pegs given as 0 is refused, as -1
// is, while a field left out takes the server's default.
func TestZeroRules(t *testing.T) {
	e := newEnv(t, nil)
	for _, tt := range []struct {
		path, body string
		status     int
		want       string
	}{
		{"/api/games", `{"pegs":0}`, 422, "pegs 0; leave pegs out"},
		{"/api/games", `{"colors":0,"pegs":4}`, 422, "colors 0"},
		{"/api/games", `{"Pegs":0}`, 422, "pegs 0"},
		{"/api/games", `{"pegs":-1}`, 422, "-1 pegs"},
		{"/api/games", `{"pegs":"4"}`, 422, "pegs must be a whole number"},
		{"/api/games", `{"pegz":4}`, 400, "unknown field"},
		{"/api/games", `{}`, 201, `"pegs":4`},
		{"/api/games", `{"maxGuesses":0,"pegs":5}`, 201, `"pegs":5`},
		{"/api/assist", `{"pegs":0,"history":[]}`, 422, "pegs 0"},
		{"/api/assist", `{"history":[]}`, 200, `"remaining":1296`},
	} {
		status, _, b := e.call(t, "POST", tt.path, tt.body)
		if status != tt.status || !strings.Contains(string(b), tt.want) {
			t.Errorf("POST %s %s: %d %s; want %d and %q", tt.path, tt.body, status, b, tt.status, tt.want)
		}
	}
}
