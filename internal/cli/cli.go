// Package cli is the mastermind command: its command tree, flags, tables
// and exit statuses, shared by the two binaries that run it.
//
// cmd/mastermind links only what the commands that compute need (the core,
// the strategies, the harness), so that its start does not pay for the
// initialisation of the rest; cmd/mastermind-full links the rest as well: the game server and
// its SQLite store, the client, the terminal UI of play and assist, and the
// plots. Both build the same command tree, so help, completion and the
// manual page list every command; a command that needs a part the running
// binary lacks (serve, client, play, assist, --plot) runs in mastermind-full
// instead, which replaces the process (see Full).
//
// Errors are one line on stderr; bad input exits with status 2, a command
// that ran but failed (a game not solved, a game lost, an internal error)
// with status 1.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	_ "github.com/mastermind-toolkit/mastermind/deep" // registers the deep strategy
	"github.com/mastermind-toolkit/mastermind/exact"
)

// Exit statuses.
const (
	ExitOK      = 0
	ExitFailure = 1 // the command ran but did not succeed (a game not solved, an internal error)
	ExitUsage   = 2 // bad input: flags, codes, feedback, rules, sizes
	ExitPending = 3 // the work is not finished: run it again to go on (optima)
	// A command stopped by a signal exits with 128 plus the signal's
	// number: 130 for an interrupt (Ctrl-C), 143 for SIGTERM.
	ExitInterrupt = 128 + int(syscall.SIGINT)
	ExitTerm      = 128 + int(syscall.SIGTERM)
)

// Main runs the process's command line with the parts full links in (nil
// for none) and returns the exit status.
//
// An interrupt (Ctrl-C) or SIGTERM cancels the context the command runs
// under; a command whose work stops on it exits with ExitInterrupt or
// ExitTerm, and what it had done so far is not reported as a result. A
// command that finishes its work regardless, such as serve draining its
// requests, exits as it would have. A second signal ends the process at
// once.
//
// Main asks for the signals only once the command has run for
// signalGrace, or sooner when the command asks (Env.CatchSignals); a
// signal before that takes its default action and ends the process at
// once, which a shell reports with the same status, 130 or 143, and
// nothing more is written.
func Main(full *Full) int {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	catch := sync.OnceFunc(func() {
		signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
		go func() {
			if s, ok := <-sigs; ok {
				signal.Stop(sigs) // a second signal takes its default action
				cancel(&Signalled{Signal: s})
			}
		}()
	})
	watch := time.AfterFunc(signalGrace, catch)
	e := newEnv(os.Stdin, os.Stdout, os.Stderr, full)
	e.replace = true
	e.catchSignals = catch
	err := e.run(ctx, os.Args[1:])
	watch.Stop()
	signal.Stop(sigs)
	// Whatever stopped after a signal stopped because of it: the error may
	// be context.Canceled, or the signal itself as the cause a request
	// gave up with ("Post …: interrupted").
	var sg *Signalled
	if err != nil && errors.As(context.Cause(ctx), &sg) {
		err = sg
	}
	cancel(nil)
	return Report(os.Stderr, err)
}

// signalGrace is how long Main lets SIGINT and SIGTERM keep their default
// action. Asking for them costs the runtime a thread blocked on their
// queue and the switches to and from it: on a 2-core VM, 1.5 ms of the
// 11 ms that "mastermind version" takes, and 3% of an optimal 6 × 4 bench
// (2026-11-23, paired runs), which a command that ends sooner no longer
// pays. A tenth of a second is too short for anyone to tell the
// difference.
const signalGrace = 100 * time.Millisecond

// Signalled is the error of a command stopped by a signal; Report gives
// it the exit status 128 plus the signal's number.
type Signalled struct {
	Signal os.Signal
}

func (s *Signalled) Error() string {
	if s.Signal == syscall.SIGTERM {
		return "terminated"
	}
	return "interrupted"
}

// status returns the exit status of a process stopped by s.Signal.
func (s *Signalled) status() int {
	if n, ok := s.Signal.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return ExitInterrupt
}

// Run executes the command line args with the parts full links in (nil for
// none). A command that needs a part full lacks runs mastermind-full as a
// child process with the same arguments and streams.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, full *Full) error {
	return newEnv(stdin, stdout, stderr, full).run(ctx, args)
}

// Report writes err as one line on stderr and returns the exit status.
func Report(stderr io.Writer, err error) int {
	if err == nil {
		return ExitOK
	}
	var x *exitStatus
	if errors.As(err, &x) {
		return x.code // the child process has said why
	}
	fmt.Fprintln(stderr, oneLine(err))
	var sg *Signalled
	if errors.As(err, &sg) {
		return sg.status()
	}
	var pd *pending
	if errors.As(err, &pd) {
		return ExitPending
	}
	var f *failure
	if errors.As(err, &f) || errors.Is(err, exact.ErrInternal) {
		// A search that contradicts itself is a defect, whatever
		// command met it, not bad input: the same input may be fine
		// once it is fixed.
		return ExitFailure
	}
	return ExitUsage
}

// pending marks an error that says the work is not finished but kept:
// running the command again goes on with it.
type pending struct{ err error }

func (p *pending) Error() string { return p.err.Error() }
func (p *pending) Unwrap() error { return p.err }

// Pending marks err as work left for the next run (exit status 3).
func Pending(err error) error { return &pending{err} }

// failure marks an error that is not bad input: the work ran and failed.
type failure struct{ err error }

func (f *failure) Error() string { return f.err.Error() }
func (f *failure) Unwrap() error { return f.err }

// Failure marks err as a failure of work that ran (exit status 1) rather
// than bad input (status 2). Failure(nil) is nil.
func Failure(err error) error {
	if err == nil {
		return nil
	}
	return &failure{err}
}

// IsFailure reports whether err is marked by Failure.
func IsFailure(err error) bool {
	var f *failure
	return errors.As(err, &f)
}

// exitStatus is the exit status of a child process that has already
// written its own error message.
type exitStatus struct{ code int }

func (x *exitStatus) Error() string {
	return fmt.Sprintf("mastermind-full exited with status %d", x.code)
}
