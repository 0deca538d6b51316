package server

import (
	"context"
	"errors"
	"log"
	"net"
	"net/http"
	"time"
)

// Timeouts of the HTTP server of Serve. WriteTimeout also bounds the wait
// for the requests under way when it stops.
const (
	ReadHeaderTimeout = 5 * time.Second
	ReadTimeout       = 10 * time.Second
	WriteTimeout      = 30 * time.Second
	IdleTimeout       = 2 * time.Minute
)

// ServeOptions configure Serve; nil means the zero ServeOptions.
type ServeOptions struct {
	// MaxConns bounds the connections held open at once (ConnLimit): one
	// beyond it closes the connection idle longest, or, with none idle,
	// waits for room in the kernel's queue. 0 means DefaultMaxConns, or
	// fewer if the process's open-file limit calls for it.
	MaxConns int
	// Logger, if not nil, receives the errors of the HTTP server.
	Logger *log.Logger
}

// Serve serves h on ln until ctx is done, then stops: it closes ln and the
// idle connections, waits for the requests under way to be answered, up to
// WriteTimeout, closes what is left, and returns nil. It returns an error
// only if serving fails before ctx is done, or if o.MaxConns is more than
// the open-file limit allows (ConnLimit).
func Serve(ctx context.Context, ln net.Listener, h http.Handler, o *ServeOptions) error {
	if o == nil {
		o = &ServeOptions{}
	}
	conns, err := ConnLimit(o.MaxConns)
	if err != nil {
		return err
	}
	logger := o.Logger
	limited := newConnLimiter(ln, conns)
	hs := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxBody,
		ErrorLog:          logger,
		ConnState:         limited.connState,
	}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(limited) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	// Requests under way finish; none takes longer than WriteTimeout to
	// answer, since its writes fail after it.
	stop, cancel := context.WithTimeout(context.Background(), WriteTimeout)
	defer cancel()
	if err := hs.Shutdown(stop); err != nil {
		if logger != nil {
			logger.Printf("mastermind: stopping: %v; closing the connections still busy", err)
		}
		hs.Close()
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
