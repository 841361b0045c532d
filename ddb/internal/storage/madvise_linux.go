package storage

import (
	bolt "go.etcd.io/bbolt"
	"golang.org/x/sys/unix"
)

// releaseMapped gives back the pages of db's memory map (of a file of size
// bytes) that the process has read: bbolt reads through a shared,
// read-only map of the file, and every page read stays counted in the
// process's resident memory until the kernel needs it. MADV_DONTNEED drops
// them from the map only; they stay in the page cache, and a later read
// maps them again with the same bytes, so values read before remain valid.
// An upgrade calls it every releaseBytes it reads: it reads the whole old
// file once, which would otherwise leave all of it resident. Errors are
// ignored: this only saves memory.
func releaseMapped(db *bolt.DB, size int64) {
	if size <= 0 {
		return
	}
	// The map starts at Info().Data and covers at least the file; a
	// uintptr system call needs no unsafe.Pointer.
	_, _, _ = unix.Syscall(unix.SYS_MADVISE, db.Info().Data, uintptr(size), unix.MADV_DONTNEED)
}
