package server

import (
	"runtime"
	"syscall"
)

// lowerPriority gives the calling goroutine a thread of its own at the
// lowest priority (nice 19), so that on a busy machine the kernel runs
// every other thread of the server first. The thread ends with the
// goroutine, which must not unlock it: the caller runs it in a goroutine
// of its own, to its end.
func lowerPriority() {
	runtime.LockOSThread()
	syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19) // at worst, it stays as it was
}
