//go:build !linux

package gametest

import "time"

// ThreadCPU returns 0: only Linux gives a thread's own CPU time.
func ThreadCPU() time.Duration { return 0 }
