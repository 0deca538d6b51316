//go:build !unix

package cli

import "time"

// cpuTime returns the user and system time the process has used, and
// whether the system can tell: here it cannot.
func cpuTime() (time.Duration, bool) { return 0, false }
