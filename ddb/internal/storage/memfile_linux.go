package storage

import (
	"os"

	"golang.org/x/sys/unix"
)

// memoryFile returns an anonymous file that lives in memory (memfd_create):
// it has no path on any file system, its pages are never written to disk,
// and the kernel frees them when the last descriptor closes, so cleanup has
// nothing left to do.
func memoryFile() (*os.File, func(), error) {
	fd, err := unix.MemfdCreate("quickphotos-ddb", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, nil, err
	}
	return os.NewFile(uintptr(fd), "memfd:quickphotos-ddb"), func() {}, nil
}
