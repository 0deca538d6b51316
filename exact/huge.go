package exact

import "unsafe"

// The feedback table and the transposition table are megabytes that a
// search fills soon after it allocates them. Faulted in a 4 KiB page at a
// time they cost more than the whole search of a small variant: a page
// fault is several microseconds, tens on a virtual machine, and 6 × 4
// touches about 2 000 pages. Where the kernel can back memory with huge
// pages (Linux's transparent huge pages in "madvise" mode), the tables are
// allocated at a huge page's boundary and the kernel is asked to, and they
// cost a fault per 2 MiB.

// hugePage is the size of a huge page, the alignment of large tables.
const hugePage = 2 << 20

// hugeMin is the smallest table worth a huge page's alignment.
const hugeMin = 512 << 10

// makeBytes returns n zero bytes, aligned to a huge page and advised as
// such when n is at least hugeMin. The memory is the garbage collector's.
func makeBytes(n int) []byte {
	if n < hugeMin || !hugePages {
		return make([]byte, n)
	}
	// Whole huge pages, so that the advice can cover the last one too.
	r := (n + hugePage - 1) &^ (hugePage - 1)
	b := make([]byte, r+hugePage)
	off := int(-uintptr(unsafe.Pointer(unsafe.SliceData(b)))) & (hugePage - 1)
	adviseHuge(b[off : off+r])
	return b[off : off+n : off+n]
}

// makeBuckets is makeBytes for transposition table buckets, which hold
// no pointers.
func makeBuckets(n int) []bucket {
	size := int(unsafe.Sizeof(bucket{}))
	b := makeBytes(n * size)
	return unsafe.Slice((*bucket)(unsafe.Pointer(unsafe.SliceData(b))), n)
}
