// Command mastermind breaks Mastermind codes: it scores guesses, prints
// partition tables, solves games with any strategy, benchmarks strategies
// over every secret or seeded samples, and more. Run "mastermind help" for
// the list of commands and "mastermind help COMMAND" for one.
//
// Every command takes the rules of the variant: --colors C --pegs P
// [--distinct] (classic 6 × 4 by default) and --alphabet to write colours
// with other symbols than 123456789ABC…. Errors are one line on stderr;
// bad input exits with status 2, a command that ran but failed (a game not
// solved) with status 1.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	_ "github.com/mastermind-toolkit/mastermind/deep" // registers the deep strategy
)

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1 // the command ran but did not succeed (a game not solved)
	exitUsage   = 2 // bad input: flags, codes, feedback, rules, sizes
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(report(os.Stderr, err))
}

// report writes err as one line on stderr and returns the exit status.
func report(stderr io.Writer, err error) int {
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(stderr, oneLine(err))
	var f *failure
	if errors.As(err, &f) {
		return exitFailure
	}
	return exitUsage
}

// failure marks an error that is not bad input: the work ran and failed.
type failure struct{ err error }

func (f *failure) Error() string { return f.err.Error() }
func (f *failure) Unwrap() error { return f.err }
