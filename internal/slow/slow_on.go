//go:build slow

package slow

// Enabled is true when the tests were built with -tags slow.
const Enabled = true
