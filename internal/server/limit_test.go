package server

import (
	"net/http/httptest"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

func TestClientKey(t *testing.T) {
	tests := []struct{ remote, want string }{
		{"192.0.2.7:4312", "192.0.2.7"},
		{"[::ffff:192.0.2.7]:4312", "192.0.2.7"},
		{"[2001:db8:1:2:3:4:5:6]:80", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:ffff:ffff:ffff:ffff]:80", "2001:db8:1:2::/64"},
		{"[2001:db8:1:3::1]:80", "2001:db8:1:3::/64"},
		{"[fe80::1%eth0]:80", "fe80::/64"},
		{"[::1]:80", "::/64"},
		{"not an address", "not an address"},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tt.remote
		if got := clientKey(r); got != tt.want {
			t.Errorf("clientKey(%s) = %s; want %s", tt.remote, got, tt.want)
		}
	}
}

// A charge puts the client into debt, which it pays off at its rate; a
// client in debt is not forgotten by the sweep until it is paid.
func TestLimiterCharge(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	l := newLimiter(rate.Limit(10), 5, func() time.Time { return now })
	if d := l.reserve("a"); d != 0 {
		t.Fatalf("first request waits %v", d)
	}
	l.charge("a", 24) // 4 tokens left: 20 in debt
	if d := l.reserve("a"); d < 2*time.Second || d > 2100*time.Millisecond {
		t.Errorf("after a charge of 24 tokens at 10/s, wait %v; want 2.1 s", d)
	}
	if d := l.reserve("b"); d != 0 {
		t.Errorf("another client waits %v", d)
	}
	now = now.Add(90 * time.Second) // the sweep runs, b is full again and forgotten
	l.charge("a", 2000)             // 200 s of debt
	now = now.Add(90 * time.Second)
	if d := l.reserve("c"); d != 0 {
		t.Fatalf("new client waits %v", d)
	}
	if _, ok := l.clients["b"]; ok {
		t.Error("an idle client with a full bucket is remembered")
	}
	if d := l.reserve("a"); d < 100*time.Second {
		t.Errorf("a client 110 s in debt waits %v after being idle; want it remembered", d)
	}
}
