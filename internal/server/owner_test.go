package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/mastermind-toolkit/mastermind/internal/server"
)

// Only the player who created a game, holding its token, may guess on it
// or ask for hints; anyone may watch it, and the token is shown once.
func TestOwnership(t *testing.T) {
	e := newEnv(t, nil)
	g := e.newGame(t, `{}`)
	other := e.newGame(t, `{}`)
	if len(g.Token) != 26 || g.Token == other.Token {
		t.Fatalf("tokens %q and %q; want two different tokens of 26 characters", g.Token, other.Token)
	}
	path := "/api/games/" + g.ID
	guess := `{"guess":"1234"}`
	auth := func(v string) http.Header {
		h := http.Header{"Content-Type": {"application/json"}}
		if v != "" {
			h.Set("Authorization", v)
		}
		return h
	}
	tests := []struct {
		name          string
		authorization string
		status        int
	}{
		{"no token", "", 401},
		{"empty bearer", "Bearer ", 401},
		{"another scheme", "Basic " + g.Token, 401},
		{"the token alone", g.Token, 401},
		{"another game's token", "Bearer " + other.Token, 403},
		{"a made-up token", "Bearer aaaaaaaaaaaaaaaaaaaaaaaaaa", 403},
		{"the token with a letter changed", "Bearer " + g.Token[:25] + string('a'+(g.Token[25]-'a'+1)%26), 403},
	}
	for _, tt := range tests {
		for _, req := range []struct{ method, path, body string }{{"POST", path + "/guesses", guess}, {"GET", path + "/hint", ""}} {
			status, h, b := e.send(t, req.method, req.path, req.body, auth(tt.authorization))
			if status != tt.status {
				t.Errorf("%s %s with %s: %d %s; want %d", req.method, req.path, tt.name, status, b, tt.status)
			}
			if status == 401 && !strings.HasPrefix(h.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("%s %s with %s: 401 with WWW-Authenticate %q; want Bearer", req.method, req.path, tt.name, h.Get("WWW-Authenticate"))
			}
		}
	}
	// Nothing refused was counted.
	var got server.Game
	e.callJSON(t, "GET", path, "", 200, &got)
	if got.Guesses != 0 {
		t.Fatalf("after refused guesses the game has %d guesses", got.Guesses)
	}
	// The owner plays, with the scheme in any case; anyone watches,
	// without a token, and never sees it.
	for _, scheme := range []string{"Bearer ", "bearer "} {
		status, _, b := e.send(t, "POST", path+"/guesses", guess, auth(scheme+g.Token))
		if status != 200 {
			t.Errorf("guess with %q and the token: %d %s; want 200", scheme, status, b)
		}
	}
	status, _, b := e.send(t, "GET", path+"/hint", "", auth("Bearer "+g.Token))
	if status != 200 {
		t.Errorf("hint with the token: %d %s", status, b)
	}
	status, _, b = e.send(t, "GET", path, "", http.Header{})
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); status != 200 || err != nil || raw["guesses"] != 2.0 {
		t.Fatalf("GET by a spectator: %d %s; want 200 with 2 guesses", status, b)
	}
	for _, hidden := range []string{"token", "secret"} {
		if _, ok := raw[hidden]; ok {
			t.Errorf("GET by a spectator shows the %s: %s", hidden, b)
		}
	}
}

// Bodies that create games or guesses must be sent as JSON: a web page of
// another site cannot send that without the browser asking first.
func TestContentType(t *testing.T) {
	e := newEnv(t, nil)
	g := e.newGame(t, `{}`)
	tests := []struct {
		ctype  string
		status int
	}{
		{"application/json", 201},
		{"application/json; charset=utf-8", 201},
		{"Application/JSON; charset=UTF-8", 201},
		{"", 415},
		{"text/plain", 415},
		{"text/plain; charset=utf-8", 415},
		{"application/x-www-form-urlencoded", 415},
		{"multipart/form-data; boundary=x", 415},
		{"application/json; charset=latin1", 415},
		{"application/json-patch+json", 415},
		{"application/json;;", 415},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.ctype != "" {
			h.Set("Content-Type", tt.ctype)
		}
		status, rh, b := e.send(t, "POST", "/api/games", `{}`, h)
		if status != tt.status {
			t.Errorf("POST /api/games as %q: %d %s; want %d", tt.ctype, status, b, tt.status)
		}
		if status == 415 && rh.Get("Accept-Post") != "application/json" {
			t.Errorf("415 with Accept-Post %q; want application/json", rh.Get("Accept-Post"))
		}
		want := 200
		if tt.status == 415 {
			want = 415
		}
		h.Set("Authorization", "Bearer "+g.Token)
		status, _, b = e.send(t, "POST", "/api/games/"+g.ID+"/guesses", `{"guess":"1234"}`, h)
		if status != want && status != 409 { // 409: the game may have been lost by now
			t.Errorf("guess as %q: %d %s; want %d", tt.ctype, status, b, want)
		}
	}
}

// Error messages quote at most about 100 bytes of what was sent.
func TestErrorsQuoteLittle(t *testing.T) {
	e := newEnv(t, nil)
	g := e.newGame(t, `{}`)
	long := strings.Repeat("7", 60_000)
	tests := []struct {
		method, path, body string
		ctype              string
		status             int
	}{
		{"POST", "/api/games/" + g.ID + "/guesses", fmt.Sprintf(`{"guess":%q}`, long), "application/json", 422},
		{"POST", "/api/games/" + g.ID + "/guesses", fmt.Sprintf(`{"guess":"%s"}`, strings.Repeat("é", 30_000)), "application/json", 422},
		{"POST", "/api/games", fmt.Sprintf(`{%q:1}`, long), "application/json", 400},
		{"POST", "/api/games", `{"colors":` + long + `}`, "application/json", 422},
		{"POST", "/api/games", `{}`, "text/" + long, 415},
		{"GET", "/api/games/" + long[:4000], "", "", 404},
		{"POST", "/api/games/" + long[:4000] + "/guesses", `{"guess":"1234"}`, "application/json", 404},
	}
	for _, tt := range tests {
		h := http.Header{"Authorization": {"Bearer " + g.Token}}
		if tt.ctype != "" {
			h.Set("Content-Type", tt.ctype)
		}
		status, _, b := e.send(t, tt.method, tt.path, tt.body, h)
		var msg server.Error
		if err := json.Unmarshal(b, &msg); err != nil || status != tt.status {
			t.Errorf("%s %.60s…: %d %.200s; want %d with a JSON error", tt.method, tt.path, status, b, tt.status)
			continue
		}
		if n := strings.Count(msg.Error, "7") + strings.Count(msg.Error, "é"); n > 100 || len(msg.Error) > 300 {
			t.Errorf("%s %.60s…: a message of %d bytes quoting %d characters of the request: %.200s…",
				tt.method, tt.path, len(msg.Error), n, msg.Error)
		}
	}
}
