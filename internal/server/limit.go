package server

import (
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// maxClients bounds the clients a limiter remembers; past it, it forgets
// them all, which at worst lets a client burst again.
const maxClients = 100_000

// limiter holds a token bucket per client (clientKey).
type limiter struct {
	rate  rate.Limit
	burst int
	now   func() time.Time

	mu      sync.Mutex
	clients map[string]*bucket
	swept   time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

func newLimiter(r rate.Limit, burst int, now func() time.Time) *limiter {
	return &limiter{rate: r, burst: burst, now: now, clients: make(map[string]*bucket), swept: now()}
}

// reserve takes a token for client, and returns 0 if the request may go
// ahead or else how long the client should wait.
func (l *limiter) reserve(client string) time.Duration {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.get(client, now).ReserveN(now, 1)
	if !r.OK() {
		return time.Second
	}
	d := r.DelayFrom(now)
	if d == 0 {
		return 0
	}
	// Refused: give the token back and say when one will be there.
	r.CancelAt(now)
	return d
}

// charge takes n more tokens from client, into debt if need be: its next
// requests are refused until the debt is paid.
func (l *limiter) charge(client string, n int) {
	if n <= 0 {
		return
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	lim := l.get(client, now)
	for n > 0 {
		k := min(n, l.burst) // ReserveN takes at most a burst at once
		lim.ReserveN(now, k)
		n -= k
	}
}

// get returns the bucket of client, seen at now. l.mu must be held.
func (l *limiter) get(client string, now time.Time) *rate.Limiter {
	if now.Sub(l.swept) > time.Minute || len(l.clients) >= maxClients {
		l.sweep(now)
	}
	c := l.clients[client]
	if c == nil {
		c = &bucket{lim: rate.NewLimiter(l.rate, l.burst)}
		l.clients[client] = c
	}
	c.seen = now
	return c.lim
}

// sweep forgets the clients idle for a minute whose bucket is full again,
// as a new client's is, or all of them if there are still too many.
func (l *limiter) sweep(now time.Time) {
	for a, c := range l.clients {
		if now.Sub(c.seen) > time.Minute && c.lim.TokensAt(now) >= float64(l.burst) {
			delete(l.clients, a)
		}
	}
	if len(l.clients) >= maxClients {
		clear(l.clients)
	}
	l.swept = now
}

// rateLimit answers 429 Too Many Requests, with Retry-After, to a client
// that exceeds its rate, after a pause (hold).
func rateLimit(next http.Handler, l *limiter) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if wait := l.reserve(clientKey(r)); wait > 0 {
			if wait = hold(r, wait); wait < 0 {
				return // gone
			}
			secs := strconv.Itoa(int(math.Ceil(wait.Seconds())))
			w.Header().Set("Retry-After", secs)
			writeJSON(w, http.StatusTooManyRequests, Error{Error: "mastermind: too many requests; try again in " + secs + " s"})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// holdFor is the pause before a refusal that says when to try again (429,
// or 503 with Retry-After): a quarter of the second at least that
// Retry-After asks for, so that a client that waits as it is told loses
// little, and one that asks again at once sends a few requests a second
// rather than thousands (issue 46: 16 clients reading /api/stats, or 8
// asking for hints, as fast as they were refused, took a third of the
// guesses).
const holdFor = 250 * time.Millisecond

// hold pauses r's refusal, which asks it to wait for wait, for holdFor,
// and returns wait; or -1 if the client went away meanwhile.
func hold(r *http.Request, wait time.Duration) time.Duration {
	t := time.NewTimer(holdFor)
	defer t.Stop()
	select {
	case <-t.C:
		return wait
	case <-r.Context().Done():
		return -1
	}
}

// clientKey returns the client that r comes from, for the rate limit: its
// remote IPv4 address, or the /64 network of its IPv6 address, since one
// IPv6 host commonly has a whole /64 to itself.
func clientKey(r *http.Request) string {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	a := ap.Addr().Unmap()
	if a.Is4() {
		return a.String()
	}
	p, err := a.WithZone("").Prefix(64)
	if err != nil {
		return a.String()
	}
	return p.String()
}
