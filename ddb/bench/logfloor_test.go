package bench_test

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/quickphotos/quickphotos/ddb"
)

// The log floor answers BenchmarkConcurrent's writes as http-floor does, but
// only after the least work any durable engine must do, whatever its storage
// layout: put the new images of the items the request writes on the disk,
// and wait for the disk to confirm them, once per group of concurrent
// writers. The images are appended to a log file written through beforehand
// (so that no append allocates blocks or changes the file's size, and an
// fdatasync flushes the data alone), with one fdatasync per commit, shared
// as the engine's group commit shares it. There is no tree, no page and no
// read. Its share of http-floor is the most the loopback target can get
// from any engine that acknowledges a write only once it is on the disk.
var logFloorTarget = &target{name: "log-floor", setup: openLogFloor}

// logFloorSize is the log floor's file; appends wrap around at its end.
const logFloorSize = 64 << 20

// openLogFloor serves replay backed by a log floor in a temporary directory.
func openLogFloor() (*dynamodb.Client, func(), error) {
	dir, err := os.MkdirTemp("", "ddb-log-floor-")
	if err != nil {
		return nil, nil, err
	}
	f, err := os.Create(filepath.Join(dir, "floor.log"))
	if err == nil {
		if _, err = f.Write(make([]byte, logFloorSize)); err == nil {
			err = f.Sync()
		}
	}
	var e *ddb.Engine
	if err == nil {
		e, err = ddb.OpenMemory(&ddb.Options{TTLSweepInterval: -1})
	}
	if err != nil {
		if f != nil {
			_ = f.Close()
		}
		_ = os.RemoveAll(dir)
		return nil, nil, err
	}
	floor := &logFloor{records: floorRecords()}
	floor.commits = &groupCommitter[[]byte]{commit: floor.appendSynced}
	floor.file = f
	c, stop := overHTTP(&replay{next: e, answers: map[string]recorded{}, work: floor.write}, e)
	return c, func() { stop(); _ = e.Close(); _ = f.Close(); _ = os.RemoveAll(dir) }, nil
}

// floorRecords are the log records of the pre-populated photos: floor key
// and stored item, as a storage floor keeps them.
func floorRecords() [][]byte {
	records := make([][]byte, 0, usersN*photosPerUser)
	for p := range prePopulated() {
		records = append(records, append(floorKey(p.pk, p.sk), p.json()...))
	}
	return records
}

// logFloor does the log floor's work for each replayed write.
type logFloor struct {
	commits *groupCommitter[[]byte]
	file    *os.File
	records [][]byte
	next    atomic.Int64 // cycles over records
	end     int64        // where the next commit appends; only a committer touches it
}

// write appends the records of as many items as a request of op writes,
// in a commit shared with concurrent writers; other operations need no
// storage work here.
func (f *logFloor) write(op string) error {
	n := itemsWritten[op]
	if n == 0 {
		return nil
	}
	first := int(f.next.Add(int64(n))) - n
	var rec []byte
	for j := range n {
		rec = append(rec, f.records[(first+j)%len(f.records)]...)
	}
	return f.commits.submit(rec)
}

// appendSynced writes a group's records at the end of the log in one write
// and waits for the disk to hold them.
func (f *logFloor) appendSynced(group [][]byte) error {
	var buf []byte
	for _, rec := range group {
		buf = append(buf, rec...)
	}
	if f.end+int64(len(buf)) > logFloorSize {
		f.end = 0
	}
	if _, err := f.file.WriteAt(buf, f.end); err != nil {
		return err
	}
	f.end += int64(len(buf))
	return syscall.Fdatasync(int(f.file.Fd()))
}
