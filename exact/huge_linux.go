package exact

import (
	"fmt"
	"sync"
	"syscall"
	"unsafe"
)

// mappings holds the mapping of every table mapHuge returned, by the
// table's first byte, for unmapHuge.
var mappings struct {
	sync.Mutex
	m map[*byte][]byte
}

// mapHuge maps n zero bytes outside the Go heap, from a huge page's
// boundary, and advises the kernel to back them with huge pages (only
// advice: an error leaves ordinary pages). The mapping has a huge page more
// than the table's, for the alignment; its pages are never touched.
func mapHuge(n int) []byte {
	r := (n + hugePage - 1) &^ (hugePage - 1)
	m, err := syscall.Mmap(-1, 0, r+hugePage, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		// As the runtime does when the heap cannot grow.
		panic(fmt.Sprintf("exact: out of memory mapping %d bytes: %v", r+hugePage, err))
	}
	off := int(-uintptr(unsafe.Pointer(unsafe.SliceData(m)))) & (hugePage - 1)
	_ = syscall.Madvise(m[off:off+r], syscall.MADV_HUGEPAGE)
	b := m[off : off+n : off+n]
	mappings.Lock()
	if mappings.m == nil {
		mappings.m = make(map[*byte][]byte)
	}
	mappings.m[unsafe.SliceData(b)] = m
	mappings.Unlock()
	return b
}

// unmapHuge unmaps b, a table of mapHuge's.
func unmapHuge(b []byte) {
	k := unsafe.SliceData(b)
	mappings.Lock()
	m, ok := mappings.m[k]
	delete(mappings.m, k)
	mappings.Unlock()
	if !ok {
		panic("exact: unmapping a table that is not mapped")
	}
	if err := syscall.Munmap(m); err != nil {
		panic(fmt.Sprintf("exact: unmapping a table: %v", err))
	}
}

// mapped returns how many tables are mapped.
func mapped() int {
	mappings.Lock()
	defer mappings.Unlock()
	return len(mappings.m)
}
