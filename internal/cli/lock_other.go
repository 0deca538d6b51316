//go:build !unix

package cli

// lockDir does nothing where there is no flock(2): one run at a time is
// the user's to see to.
func lockDir(string, bool) (unlock func(), err error) { return func() {}, nil }
