package server_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	pathpkg "path"
	"strings"
	"testing"
)

// FuzzRequests sends arbitrary bodies and game IDs to every endpoint, with
// the token of one game. No input may crash the server, get anything but a
// documented status with a JSON answer, or show a secret before its game is
// over; no error message may quote more than 300 bytes.
func FuzzRequests(f *testing.F) {
	e := newEnv(f, nil)
	live := e.newGame(f, `{"colors":8,"pegs":5,"maxGuesses":1000}`)
	for _, s := range []struct {
		route uint8
		id    string
		body  string
	}{
		{0, "", `{"colors":8,"pegs":5,"distinct":false,"maxGuesses":35,"timeLimitMs":2000}`},
		{0, "", `{"colors":36}`},
		{0, "", `{"colors":8,"pegs":5,"distinct":true,"maxGuesses":1,"timeLimitMs":1}`},
		{0, "", `{"colors":1e400}`},
		{0, "", `{"colors":-0,"pegs":1.5}`},
		{0, "", `{"colors":8}{"colors":9}`},
		{0, "", "\xff\xfe"},
		{1, "", `{"guess":"11223"}`},
		{1, "", `{"guess":"1 1,2 2 3"}`},
		{1, "", `{"guess":"112239"}`},
		{1, "", `{"guess":"\u0000"}`},
		{1, "", `{"guess":"` + strings.Repeat("8", 40) + `"}`},
		{1, "", `{"guess":null}`},
		{1, "", `{"guess":"11223","guess":"44556"}`},
		{1, "nosuchgame", `{"guess":"11223"}`},
		{1, "../stats", `{"guess":"11223"}`},
		{2, "", ``},
		{2, "%zz", ``},
		{3, "", ``},
		{4, "", `{}`},
	} {
		f.Add(s.route, s.id, s.body)
	}
	f.Fuzz(func(t *testing.T, route uint8, id, body string) {
		if id == "" {
			id = live.ID
		}
		path := "/api/games/" + url.PathEscape(id)
		var method string
		switch route % 5 {
		case 0:
			method, path = "POST", "/api/games"
		case 1:
			method, path = "POST", path+"/guesses"
		case 2:
			method = "GET"
		case 3:
			method, path = "GET", path+"/hint"
		case 4:
			method, path = "GET", "/api/stats"
		}
		w := httptest.NewRecorder()
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+live.Token)
		e.handler.ServeHTTP(w, req)
		if pathpkg.Clean(path) != path && (w.Code == http.StatusMovedPermanently || w.Code == http.StatusTemporaryRedirect) {
			return // ServeMux sends paths with . or .. to their clean form
		}
		switch w.Code {
		case 200, 201, 400, 403, 404, 409, 413, 422:
		default:
			t.Fatalf("%s %s %q: status %d: %s", method, path, body, w.Code, w.Body)
		}
		var out map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
			t.Fatalf("%s %s %q: answer is not JSON: %v: %s", method, path, body, err, w.Body)
		}
		msg, _ := out["error"].(string)
		if (w.Code >= 400) != (msg != "") {
			t.Fatalf("%s %s %q: status %d with error %q", method, path, body, w.Code, msg)
		}
		if len(msg) > 300+len("…") {
			t.Fatalf("%s %s %q: error of %d bytes: %.400s", method, path, body, len(msg), msg)
		}
		if _, shown := out["secret"]; shown {
			if state := out["state"]; state != "won" && state != "lost" {
				t.Fatalf("%s %s %q: secret shown with state %v: %s", method, path, body, state, w.Body)
			}
		}
		if w.Code == http.StatusOK && route%5 == 1 {
			if _, ok := out["guesses"].(float64); !ok {
				t.Fatalf("%s %s %q: answer without guesses: %s", method, path, body, w.Body)
			}
		}
	})
}
