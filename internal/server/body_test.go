package server_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mastermind-toolkit/mastermind/internal/server"
)

// A body that stops coming is the client's fault: a request whose body is
// still incomplete at the read timeout is answered 408, and one whose
// connection breaks mid-body is not answered as an error of the server's;
// neither is logged, so that clients cannot fill the server's log.
func TestStalledBody(t *testing.T) {
	var (
		mu   sync.Mutex
		logs []string
	)
	e := newEnv(t, func(s *server.Server) {
		s.Logf = func(format string, args ...any) {
			mu.Lock()
			logs = append(logs, fmt.Sprintf(format, args...))
			mu.Unlock()
		}
	})
	ts := httptest.NewUnstartedServer(e.handler)
	ts.Config.ReadTimeout = 300 * time.Millisecond
	ts.Start()
	defer ts.Close()
	id := e.newGame(t, `{}`).ID
	for _, path := range []string{"/api/games", "/api/games/" + id + "/guesses", "/api/assist"} {
		for _, tt := range []struct {
			name   string
			hangUp bool // the client stops sending, else it waits
			want   int
		}{
			{"stalled", false, http.StatusRequestTimeout},
			{"cut", true, http.StatusBadRequest},
		} {
			t.Run(tt.name+strings.ReplaceAll(path, "/", "_"), func(t *testing.T) {
				conn, err := net.Dial("tcp", ts.Listener.Addr().String())
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				// Headers and half the body, then nothing more.
				fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer %s\r\nContent-Length: 40\r\n\r\n{\"guess\":",
					path, e.tokens[id])
				if tt.hangUp {
					conn.(*net.TCPConn).CloseWrite()
				}
				conn.SetReadDeadline(time.Now().Add(10 * time.Second))
				resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
				if err != nil {
					t.Fatalf("no answer: %v", err)
				}
				resp.Body.Close()
				if resp.StatusCode != tt.want {
					t.Errorf("status %d; want %d", resp.StatusCode, tt.want)
				}
			})
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(logs) > 0 {
		t.Errorf("stalled bodies were logged as the server's errors: %q", logs)
	}
}
