package server

import (
	"container/list"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"sync"
)

// DefaultMaxConns is the most connections Serve holds open at once when
// asked for none in particular, within the process's open-file limit: an
// idle connection costs the server about 16 KB, and 10,000 of them held
// for the idle timeout took 160 MB and, at 20,000, every file the process
// could open.
const DefaultMaxConns = 4096

// ConnLimit returns the most connections Serve holds open at once when
// asked for n (0 for DefaultMaxConns): n, or DefaultMaxConns, but always
// fewer than the process's open-file limit, so that its database and log
// keep files to open (fileReserve). It fails if n is more than the limit
// allows, saying how many it does.
func ConnLimit(n int) (int, error) {
	if n < 0 {
		return 0, fmt.Errorf("mastermind: %d connections: want 1 or more, or 0 for the default", n)
	}
	most := -1 // no limit known
	if files := openFileLimit(); files > 0 {
		most = max(1, files-fileReserve())
	}
	switch {
	case n == 0 && most > 0:
		return min(DefaultMaxConns, most), nil
	case n == 0:
		return DefaultMaxConns, nil
	case most > 0 && n > most:
		return 0, fmt.Errorf("mastermind: the process may open %d files, and keeps %d for its database and log: "+
			"ask for at most %d connections, or raise its limit (ulimit -n)",
			openFileLimit(), fileReserve(), most)
	}
	return n, nil
}

// fileReserve is the files the server keeps beside its connections: the
// store's database, its write-ahead log and shared memory on each of its
// connections (a writer and two readers a core), its locks, the
// listener, standard input and output, and the connection that Accept
// holds while it waits for room.
func fileReserve() int { return 64 + 8*runtime.GOMAXPROCS(0) }

// A connLimiter is a listener that holds at most max connections open at
// once. A connection accepted beyond them closes the one that has been
// idle (between requests, or before its first) the longest; with none
// idle, Accept waits for one to close or go idle, and the connections
// still to be accepted wait in the kernel's queue, holding no file of the
// process. Its connState must be the http.Server's ConnState.
type connLimiter struct {
	net.Listener
	max int

	mu      sync.Mutex
	open    int
	idle    *list.List    // of *limitConn, idle longest first
	changed chan struct{} // signalled when a connection closes or goes idle
	done    chan struct{} // closed by Close
	once    sync.Once
}

func newConnLimiter(ln net.Listener, max int) *connLimiter {
	return &connLimiter{Listener: ln, max: max, idle: list.New(),
		changed: make(chan struct{}, 1), done: make(chan struct{})}
}

// A limitConn is a connection of a connLimiter.
type limitConn struct {
	net.Conn
	l      *connLimiter
	elem   *list.Element // in l.idle while idle; guarded by l.mu
	closed bool          // guarded by l.mu
}

// Accept accepts a connection, and makes room for it if there are max
// open: it closes the connection idle longest, or waits for one to close
// or go idle.
func (l *connLimiter) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	for {
		l.mu.Lock()
		if l.open < l.max {
			l.open++
			l.mu.Unlock()
			return &limitConn{Conn: c, l: l}, nil
		}
		var oldest *limitConn
		if e := l.idle.Front(); e != nil {
			oldest = e.Value.(*limitConn)
		}
		l.mu.Unlock()
		if oldest != nil {
			oldest.Close()
			continue
		}
		select {
		case <-l.changed:
		case <-l.done:
			c.Close()
			return nil, net.ErrClosed
		}
	}
}

// Close closes the listener, and stops an Accept waiting for room.
func (l *connLimiter) Close() error {
	l.once.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// signal tells an Accept waiting for room that there may be some.
func (l *connLimiter) signal() {
	select {
	case l.changed <- struct{}{}:
	default:
	}
}

// connState follows the connections' states: a connection new or idle
// may be closed to make room, one active or hijacked may not.
func (l *connLimiter) connState(c net.Conn, state http.ConnState) {
	lc, ok := c.(*limitConn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if lc.elem != nil {
		l.idle.Remove(lc.elem)
		lc.elem = nil
	}
	if (state == http.StateNew || state == http.StateIdle) && !lc.closed {
		lc.elem = l.idle.PushBack(lc)
		l.signal()
	}
}

// Close closes the connection and gives its room back.
func (c *limitConn) Close() error {
	err := c.Conn.Close()
	l := c.l
	l.mu.Lock()
	if !c.closed {
		c.closed = true
		l.open--
		if c.elem != nil {
			l.idle.Remove(c.elem)
			c.elem = nil
		}
		l.signal()
	}
	l.mu.Unlock()
	return err
}
