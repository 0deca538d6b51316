// Package mastermind is the core of a toolkit for breaking Mastermind codes:
// the rules of a variant, codes and their feedback, candidate sets, the
// Strategy interface and the game loop.
//
// A variant is a Rules value, classic 6 colours × 4 pegs by default. Codes
// are Code values, parsed and written through an Alphabet. Score gives the
// feedback of a guess against a secret.
//
// Variants small enough to enumerate (at most MaxSpace codes) have a Space:
// every code, packed so that the feedback of two codes is a few ANDs and
// population counts. A Set is a subset of a Space, such as the candidates
// left in a game; Set.Count scores one guess against every member in one
// tight loop, and Set.Split divides a set by a guess's feedback.
//
// A State holds a game's history and its candidates. A Strategy picks the
// next guess from a State; Solve plays a strategy against a secret. The
// strategies themselves live in package strategy and the evaluation harness
// in package eval.
//
// The package prints nothing and reads no flags; it imports only the
// standard library and its own internal packages.
package mastermind
