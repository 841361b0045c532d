//go:build !linux

package storage

import bolt "go.etcd.io/bbolt"

// releaseMapped does nothing where madvise is not at hand: the pages the
// upgrade reads through bbolt's map stay resident until the kernel needs
// them (madvise_linux.go).
func releaseMapped(*bolt.DB, int64) {}
