package tokens

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on the platforms Go
// supports with Linux.
const hugePage = 2 << 20

// newSlotTables maps the slot caches in memory of their own, aligned to huge
// pages and marked for them: the caches are written at random places, and
// with ordinary 4 KiB pages each first write to one of their ~800 pages is a
// page fault. The kernel may decline huge pages (transparent huge pages set
// to never); the memory then behaves as ordinary pages. release unmaps it.
func newSlotTables() (t *slotTables, release func()) {
	size := (int(unsafe.Sizeof(slotTables{})) + hugePage - 1) &^ (hugePage - 1)
	mem, err := syscall.Mmap(-1, 0, size+hugePage, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return new(slotTables), nil
	}
	off := (hugePage - int(uintptr(unsafe.Pointer(&mem[0]))%hugePage)) % hugePage
	const madvHugepage = 14 // MADV_HUGEPAGE
	_ = syscall.Madvise(mem[off:off+size], madvHugepage)
	return (*slotTables)(unsafe.Pointer(&mem[off])), func() { _ = syscall.Munmap(mem) }
}
