// Package spacedata lets the scoring engine read a Space's packed codes,
// which the mastermind package keeps to itself, without a copy of its own.
package spacedata

// Packed returns the packed codes of a *mastermind.Space: for each code in
// index order, its position bits then its unary colour counts, ⌈pegs ×
// colours / 64⌉ words each (bit i·colours + k when peg i has colour k;
// bits k·pegs … k·pegs + n − 1 when colour k occurs n times). The slice is
// the space's own and must not be modified. The mastermind package sets it
// when it is initialised.
var Packed func(space any) []uint64
