//go:build !linux

package exact

// mapHuge is make elsewhere than on Linux: the garbage collector's memory.
func mapHuge(n int) []byte { return make([]byte, n) }

// unmapHuge leaves b to the garbage collector.
func unmapHuge([]byte) {}

// mapped returns how many tables are mapped: none here.
func mapped() int { return 0 }
