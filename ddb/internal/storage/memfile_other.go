//go:build !linux

package storage

import "os"

// memoryFile returns a temporary file standing in for in-memory storage on
// systems without memfd_create; cleanup removes it once the engine has
// closed it. Without fsync its pages mostly stay in the page cache.
func memoryFile() (*os.File, func(), error) {
	f, err := os.CreateTemp("", "quickphotos-ddb-*.bolt")
	if err != nil {
		return nil, nil, err
	}
	name := f.Name()
	return f, func() { os.Remove(name) }, nil
}
