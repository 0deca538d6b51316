package mastermind

import (
	"errors"
	"fmt"
)

// Errors that callers test for with errors.Is. Functions wrap them with
// details; the text of a wrapped error is a single line.
var (
	ErrInvalidRules    = errors.New("mastermind: invalid rules")
	ErrInvalidCode     = errors.New("mastermind: invalid code")
	ErrInvalidFeedback = errors.New("mastermind: invalid feedback")
	ErrTooLarge        = errors.New("mastermind: space too large")
	ErrInconsistent    = errors.New("mastermind: no code is consistent with the feedback")
	ErrGameOver        = errors.New("mastermind: game over")
	// ErrAmbiguousFeedback is wrapped by ParseFeedback for two digits
	// together on a board of 10 or more pegs that read two ways: "10" is
	// 10 black, or 1 black and 0 white. It wraps ErrInvalidFeedback.
	ErrAmbiguousFeedback = fmt.Errorf("%w: ambiguous", ErrInvalidFeedback)
	// ErrUnsupported is wrapped by strategies asked to play a variant they
	// are not made for, such as one-colour probes under distinct colours.
	ErrUnsupported = errors.New("mastermind: strategy does not support these rules")
)

// A ParseError reports text that is not a code or not a feedback.
type ParseError struct {
	What  string // "code" or "feedback"
	Input string // the text as given
	Pos   int    // offset in runes of the offending symbol, or -1
	Msg   string // what is wrong
}

func (e *ParseError) Error() string {
	if e.Pos >= 0 {
		return fmt.Sprintf("mastermind: %s %q: %s at position %d", e.What, e.Input, e.Msg, e.Pos+1)
	}
	return fmt.Sprintf("mastermind: %s %q: %s", e.What, e.Input, e.Msg)
}

// Unwrap returns ErrInvalidCode or ErrInvalidFeedback.
func (e *ParseError) Unwrap() error {
	if e.What == "feedback" {
		return ErrInvalidFeedback
	}
	return ErrInvalidCode
}
