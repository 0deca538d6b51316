//go:build !slow

// Package slow reports whether the tests were built with the tag slow, the
// second tier of the test suite: go test ./... runs a cheap sample of the
// checks whose cost is inherent (replaying a shipped book over every code,
// golden totals of the larger variants, proofs of a few seconds), and
// go test -tags slow runs them in full. CI runs both (.ci/run), so every
// check still runs there; the default run stays within a few minutes on
// two busy cores.
package slow

// Enabled is true when the tests were built with -tags slow.
const Enabled = false
