//go:build !linux

package server

// lowerPriority does nothing where threads have no priority of their own
// that the server can lower.
func lowerPriority() {}
