package exact

import "unsafe"

// The feedback table, the transposition table and the slabs of guess
// pools are megabytes that a search fills soon after it allocates them.
// Faulted in a 4 KiB page at a time they cost more than the whole search of
// a small variant: a page fault is several microseconds, tens on a virtual
// machine, and 6 × 4 touches about 2 000 pages. Where the kernel can back
// memory with huge pages (Linux's transparent huge pages in "madvise"
// mode), the tables are mapped at a huge page's boundary and the kernel is
// asked to, and they cost a fault per 2 MiB.
//
// Where it can, the search also keeps these tables out of the Go heap. They
// hold no pointers, so the garbage collector never needs to scan them, but
// in the heap they count towards its goal: 6 × 4's 14 MiB of tables (half
// of it the slack of alignment, never touched) set off two collections,
// and mapped outside it the process takes 0.94 of the CPU (paired runs).
// Each table has one owner, which frees it (freeBytes) when it is done:
// the free lists below when they drop a table, and the pools of a variant
// when no search uses them (codes.go).

// hugePage is the size of a huge page, the alignment of large tables.
const hugePage = 2 << 20

// hugeMin is the smallest table worth a huge page's alignment and a
// mapping of its own.
const hugeMin = 512 << 10

// makeBytes returns n zero bytes. From hugeMin on, they are aligned to a
// huge page and advised as such, and they must be given back with
// freeBytes, once and when nothing reads them any more; smaller ones are
// the garbage collector's.
func makeBytes(n int) []byte {
	if n < hugeMin {
		return make([]byte, n)
	}
	return mapHuge(n)
}

// freeBytes gives back the memory of b, a slice of makeBytes's with its
// capacity unchanged.
func freeBytes(b []byte) {
	if cap(b) >= hugeMin {
		unmapHuge(b[:cap(b)])
	}
}

// makeBuckets is makeBytes for transposition table buckets, which hold
// no pointers.
func makeBuckets(n int) []bucket {
	b := makeBytes(n * int(unsafe.Sizeof(bucket{})))
	return unsafe.Slice((*bucket)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// freeBuckets is freeBytes for makeBuckets's buckets.
func freeBuckets(b []bucket) {
	size := cap(b) * int(unsafe.Sizeof(bucket{}))
	freeBytes(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(b))), size))
}

// makeInt32s is makeBytes for n indices.
func makeInt32s(n int) []int32 {
	b := makeBytes(4 * n)
	return unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// freeInt32s is freeBytes for makeInt32s's indices.
func freeInt32s(x []int32) {
	freeBytes(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(x))), 4*cap(x)))
}
