package bench_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// BenchmarkDiskSync measures the disk's part of a durable bbolt commit with
// no database around it: four 4 KiB pages written at random places of a
// 64 MiB file, fdatasync, one meta page written, fdatasync, which is what a
// small bbolt commit asks of the disk. Its cpu-µs/op is the kernel's CPU for
// that, which no group of writers smaller than the whole load can hide.
//
//	go test ./ddb/bench/ -run '^$' -bench DiskSync
func BenchmarkDiskSync(b *testing.B) {
	const fileSize, pageSize = 64 << 20, 4096
	f, err := os.Create(filepath.Join(b.TempDir(), "sync"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	// Written through once, as a bbolt file's pages are, so that no write
	// below allocates blocks.
	if _, err := f.Write(make([]byte, fileSize)); err != nil {
		b.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		b.Fatal(err)
	}
	page := make([]byte, pageSize)
	r := rand.New(rand.NewPCG(1, 2))
	sync := func() {
		if err := syscall.Fdatasync(int(f.Fd())); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	stop := reportCPU(b)
	for i := 0; b.Loop(); i++ {
		for range 4 {
			if _, err := f.WriteAt(page, int64(2+r.IntN(fileSize/pageSize-2))*pageSize); err != nil {
				b.Fatal(err)
			}
		}
		sync()
		if _, err := f.WriteAt(page, int64(i%2)*pageSize); err != nil {
			b.Fatal(err)
		}
		sync()
	}
	stop()
}
