// Package play holds the interactive sessions of the mastermind command:
// Assist, which helps someone break a code on a physical board (it proposes
// guesses, reads the codemaker's answers and keeps track of the codes still
// possible), and Game, in which the computer holds a code and a person
// breaks it.
//
// # Sessions and front ends
//
// A session is game logic only: its Do method takes one line the person
// typed and returns the lines to show, and Board describes the game for a
// graphical view. Sessions do no I/O, so both front ends share them:
// RunLines plays a session in plain line mode over an io.Reader and an
// io.Writer (a transcript), and RunTUI plays it as a full-screen terminal
// program with coloured pegs (bubbletea and lipgloss). The terminal program's
// Model is exported so that tests can drive Update and View as pure
// functions.
//
// # Injected behaviour
//
// The package imports the core package mastermind and no strategy: the
// caller passes the strategy that proposes guesses (or plays the summary
// game) and, for hints with scores, a Ranker, in a Config.
//
// # Large variants
//
// Counting the codes left needs every code of the variant enumerated, which
// mastermind.SpaceOf does up to mastermind.MaxSpace codes. Beyond that the
// sessions show "?" for the count, and contradictory answers are caught when
// a bounded search of the answers' constraints (mastermind.Constraints)
// proves that no code fits them, which it does for plain contradictions;
// the answers blamed are then a set that conflicts but no longer does
// without any one of them, not always a smallest one.
package play
