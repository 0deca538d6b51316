package server_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestErrorPrefix checks that an error wrapped with what it is about
// names the toolkit once, at the start: "mastermind: answer 2: …", not
// "answer 2: mastermind: …".
func TestErrorPrefix(t *testing.T) {
	e := newEnv(t, nil)
	body := `{"history":[{"guess":"1122","black":0,"white":0},{"guess":"1111","black":1,"white":0}]}`
	status, _, b := e.call(t, "POST", "/api/assist", body)
	if status != http.StatusUnprocessableEntity || !strings.Contains(string(b), `"mastermind: answer 2: `) ||
		strings.Count(string(b), "mastermind: ") != 1 {
		t.Errorf("POST /api/assist %s: %d %s; want 422 naming mastermind once, before answer 2", body, status, b)
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
