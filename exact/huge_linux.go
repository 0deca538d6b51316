package exact

import "syscall"

const hugePages = true

// adviseHuge asks for huge pages to back b, whole huge pages from a huge
// page's boundary. It is only advice: an error leaves ordinary pages.
func adviseHuge(b []byte) { _ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) }
