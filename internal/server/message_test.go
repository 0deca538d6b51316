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
