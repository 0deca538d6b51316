package server_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mastermind-toolkit/mastermind/internal/server"
)

// Serve holds at most MaxConns connections: one more closes the one idle
// longest, and with none idle waits until one is, then is answered. The
// issue held 10,000 idle connections for minutes, and at 20,000 ran out
// of open files.
func TestServeMaxConns(t *testing.T) {
	release := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			<-release
		}
		io.WriteString(w, "ok")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- server.Serve(ctx, ln, h, &server.ServeOptions{MaxConns: 2}) }()
	defer func() {
		stop()
		if err := <-served; err != nil {
			t.Error(err)
		}
	}()

	dial := func() net.Conn {
		t.Helper()
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	send := func(c net.Conn, path string) {
		t.Helper()
		if _, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path); err != nil {
			t.Fatal(err)
		}
	}
	// answered reads the answer on c within wait, and reports whether it
	// came.
	answered := func(c net.Conn, r *bufio.Reader, wait time.Duration) bool {
		t.Helper()
		c.SetReadDeadline(time.Now().Add(wait))
		resp, err := http.ReadResponse(r, nil)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return false
		}
		if err != nil {
			t.Fatalf("reading an answer: %v", err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(b) != "ok" {
			t.Fatalf("answer %d %q; want 200 ok", resp.StatusCode, b)
		}
		return true
	}
	// closed reports whether the server has closed c, or answers on it
	// still.
	closed := func(c net.Conn, r *bufio.Reader) bool {
		t.Helper()
		send(c, "/")
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		resp, err := http.ReadResponse(r, nil)
		if err == nil {
			resp.Body.Close()
			return false
		}
		if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) && !strings.Contains(err.Error(), "reset") {
			t.Fatalf("reading an answer: %v", err)
		}
		return true
	}

	// Two connections, idle after a request each; a third is answered,
	// and the first, idle longest, closed.
	a := dial()
	ra := bufio.NewReader(a)
	send(a, "/")
	if !answered(a, ra, 5*time.Second) {
		t.Fatal("first connection not answered")
	}
	b := dial()
	rb := bufio.NewReader(b)
	send(b, "/")
	if !answered(b, rb, 5*time.Second) {
		t.Fatal("second connection not answered")
	}
	c := dial()
	rc := bufio.NewReader(c)
	send(c, "/")
	if !answered(c, rc, 5*time.Second) {
		t.Fatal("a third connection, with two idle, not answered")
	}
	// The first, unless the server saw the second go idle first.
	switch ca, cb := closed(a, ra), closed(b, rb); {
	case ca && cb:
		t.Fatal("both idle connections closed for the third")
	case !ca && !cb:
		t.Fatal("no idle connection closed for the third")
	case cb:
		t.Log("the second connection was closed: the server saw it go idle first")
		b, rb = a, ra
	}

	// Both busy: a fourth waits until one of them is done.
	send(b, "/slow")
	send(c, "/slow")
	time.Sleep(100 * time.Millisecond) // for both to be under way
	d := dial()
	rd := bufio.NewReader(d)
	send(d, "/")
	if answered(d, rd, 300*time.Millisecond) {
		t.Error("a connection beyond the limit answered while the others were busy")
	}
	close(release)
	if !answered(b, rb, 5*time.Second) || !answered(c, rc, 5*time.Second) {
		t.Fatal("the busy connections not answered")
	}
	if !answered(d, rd, 5*time.Second) {
		t.Error("a connection beyond the limit not answered once the others were idle")
	}
}

// ConnLimit keeps connections below the open-file limit, and refuses a
// limit above it.
func TestConnLimit(t *testing.T) {
	n, err := server.ConnLimit(0)
	if err != nil || n < 1 || n > server.DefaultMaxConns {
		t.Errorf("ConnLimit(0) = %d, %v; want 1 to %d", n, err, server.DefaultMaxConns)
	}
	if n, err := server.ConnLimit(10); err != nil || n != 10 {
		t.Errorf("ConnLimit(10) = %d, %v; want 10", n, err)
	}
	if _, err := server.ConnLimit(-1); err == nil {
		t.Error("ConnLimit(-1) took it")
	}
	if _, err := server.ConnLimit(1 << 31); err == nil || !strings.Contains(err.Error(), "ulimit") {
		t.Errorf("ConnLimit(2³¹) = %v; want an error on the open-file limit", err)
	}
}
