//go:build !unix

package records_test

import "time"

// cpuTime is not known here: -update records no CPU time.
func cpuTime() (time.Duration, bool) { return 0, false }
