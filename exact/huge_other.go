//go:build !linux

package exact

const hugePages = false

func adviseHuge([]byte) {}
