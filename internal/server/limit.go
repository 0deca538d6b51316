package server

import (
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// maxClients bounds the clients a limiter remembers; past it, it forgets
// them all, which at worst lets a client burst again.
const maxClients = 100_000

// limiter holds a token bucket per client address.
type limiter struct {
	rate  rate.Limit
	burst int
	now   func() time.Time

	mu      sync.Mutex
	clients map[string]*client
	swept   time.Time
}

type client struct {
	lim  *rate.Limiter
	seen time.Time
}

func newLimiter(r rate.Limit, burst int, now func() time.Time) *limiter {
	return &limiter{rate: r, burst: burst, now: now, clients: make(map[string]*client), swept: now()}
}

// reserve takes a token for addr, and returns 0 if the request may go
// ahead or else how long the client should wait.
func (l *limiter) reserve(addr string) time.Duration {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.swept) > time.Minute || len(l.clients) >= maxClients {
		l.sweep(now)
	}
	c := l.clients[addr]
	if c == nil {
		c = &client{lim: rate.NewLimiter(l.rate, l.burst)}
		l.clients[addr] = c
	}
	c.seen = now
	r := c.lim.ReserveN(now, 1)
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

// sweep forgets the clients idle for a minute, or all of them if there are
// still too many.
func (l *limiter) sweep(now time.Time) {
	for a, c := range l.clients {
		if now.Sub(c.seen) > time.Minute {
			delete(l.clients, a)
		}
	}
	if len(l.clients) >= maxClients {
		clear(l.clients)
	}
	l.swept = now
}

// rateLimit answers 429 Too Many Requests, with Retry-After, to a client
// that exceeds its rate. A client is a remote IP address.
func rateLimit(next http.Handler, l *limiter) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			host = r.RemoteAddr
		}
		if wait := l.reserve(host); wait > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
			writeJSON(w, http.StatusTooManyRequests, Error{Error: "mastermind: too many requests; slow down"})
			return
		}
		next.ServeHTTP(w, r)
	})
}
