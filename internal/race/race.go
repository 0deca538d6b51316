//go:build !race

// Package race reports whether the race detector is built in, so that a
// test can run its long searches at a smaller size under it: the detector
// makes code five to ten times slower, and a search's concurrency is the
// same at any size. A test that shrinks under the detector must run in
// full without it, as the plain go test ./... does.
package race

// Enabled is true when the program was built with -race.
const Enabled = false
