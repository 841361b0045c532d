package ddb

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb/internal/storage"
	"github.com/quickphotos/quickphotos/internal/testkit/testtools"
)

// The sync-order tests check what a power cut would keep. crash_test.go's
// SIGKILL leaves the page cache intact, so it cannot see a missing fsync;
// these trace the system calls of a child engine with strace and check their
// order instead:
//   - an acknowledged write: every page write of the data file before the
//     acknowledgement is followed by an fdatasync of the file that ends before
//     the acknowledgement leaves;
//   - an upgrade: the new file is fdatasync'd after its last page write and
//     before it is renamed over the old one, and the directory is fsynced
//     after the rename and before Open returns.

const (
	// syncOrderDirEnv names the data directory of TestSyncOrderChild, which
	// does nothing without it.
	syncOrderDirEnv = "QUICKPHOTOS_SYNC_ORDER_DIR"
	// syncOrderModeEnv says what the child does: "writes" or "upgrade".
	syncOrderModeEnv = "QUICKPHOTOS_SYNC_ORDER_MODE"
	// ackMarker and openedMarker begin the child's lines to stdout, each one
	// write(2) that the trace shows.
	ackMarker    = "sync-order-ack "
	openedMarker = "sync-order-opened"
)

// TestSyncOrderChild is the child process of the sync-order tests: it
// returns at once unless syncOrderDirEnv is set. In mode "writes" it opens
// the engine with fsync on and acknowledges, one at a time, a PutItem, an
// UpdateItem and a TransactWriteItems, a line to stdout after each; in mode
// "upgrade" it opens (and so upgrades) the directory and says so.
func TestSyncOrderChild(t *testing.T) {
	dir := os.Getenv(syncOrderDirEnv)
	if dir == "" {
		return
	}
	e, err := Open(dir, &Options{TTLSweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if os.Getenv(syncOrderModeEnv) == "upgrade" {
		sayToParent(t, openedMarker)
		return
	}
	c, ctx := dynamodbClient(e), context.Background()
	if _, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("sync-order"),
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}},
		BillingMode:          types.BillingModePayPerRequest,
	}); err != nil {
		t.Fatal(err)
	}
	key := func(pk string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: pk}}
	}
	for i := range 3 {
		var err error
		switch pk := fmt.Sprint(i); i % 3 {
		case 0:
			_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("sync-order"), Item: key(pk)})
		case 1:
			_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("sync-order"), Key: key(pk),
				UpdateExpression:          aws.String("ADD n :one"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}}})
		case 2:
			_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: aws.String("sync-order"), Item: key(pk + "a")}},
				{Put: &types.Put{TableName: aws.String("sync-order"), Item: key(pk + "b")}},
			}})
		}
		if err != nil {
			t.Fatal(err)
		}
		sayToParent(t, fmt.Sprintf("%s%d", ackMarker, i))
	}
}

// sayToParent writes line to stdout in one write(2).
func sayToParent(t *testing.T, line string) {
	if _, err := os.Stdout.WriteString(line + "\n"); err != nil {
		t.Fatal(err)
	}
}

// TestSyncOrder_AcknowledgedWritesAreSynced: no write is acknowledged before
// the data file's pages it wrote are fdatasync'd.
func TestSyncOrder_AcknowledgedWritesAreSynced(t *testing.T) {
	dir := t.TempDir()
	trace := traceChild(t, dir, "writes")
	file := filepath.Join(dir, FileName)
	acks, written, durable := 0, -1, -1 // durable: the last page write a finished sync covers
	syncFrom := map[string]int{}        // a sync in flight, by thread: the last page write before it
	for i, c := range trace {
		switch {
		case c.isWrite() && c.path == file && c.exit:
			written = i
		case c.call == "fdatasync" && c.path == file && !c.exit:
			syncFrom[c.pid] = written
		case c.call == "fdatasync" && c.path == file && c.exit:
			from, ok := syncFrom[c.pid]
			if ok && c.ret == "0" {
				durable = max(durable, from)
			}
			delete(syncFrom, c.pid)
		case c.call == "write" && c.path == "" && strings.HasPrefix(c.text, ackMarker) && !c.exit:
			acks++
			if written < 0 {
				t.Fatalf("%q with no write of %s traced before it", c.text, file)
			}
			if durable < written {
				t.Errorf("%q acknowledged before the file's last page write (trace event %d) was synced", c.text, written)
			}
		}
	}
	if acks != 3 {
		t.Fatalf("%d acknowledgements traced, want 3", acks)
	}
}

// TestSyncOrder_UpgradeSyncsBeforeAndAfterTheRename: an upgrade's new file
// is durable before it takes the old one's name, and the rename is durable
// before Open returns.
func TestSyncOrder_UpgradeSyncsBeforeAndAfterTheRename(t *testing.T) {
	f := newV3Fixture(t, func(uint64) string { return "local" })
	dir := t.TempDir()
	if err := copyDir(f.env.dir, dir, nil); err != nil {
		t.Fatal(err)
	}
	f.env.open() // for mustOpen's cleanup
	trace := traceChild(t, dir, "upgrade")
	tmp := filepath.Join(dir, FileName+storage.UpgradeSuffix)
	written, synced, renamed, dirSynced := -1, -1, -1, -1
	for i, c := range trace {
		switch {
		case c.isWrite() && c.path == tmp && c.exit:
			written = i
		case c.call == "fdatasync" && c.path == tmp && c.exit && c.ret == "0" && written >= 0 && synced < written:
			synced = i
		case strings.HasPrefix(c.call, "rename") && strings.Contains(c.text, tmp) && c.exit && c.ret == "0":
			renamed = i
			if written < 0 || synced < written {
				t.Errorf("the new file renamed with its page writes (the last at trace event %d) not synced", written)
			}
		case c.call == "fsync" && c.path == dir && c.exit && c.ret == "0" && renamed >= 0:
			dirSynced = i
		case c.call == "write" && c.path == "" && c.text == openedMarker+"\n" && !c.exit:
			if renamed < 0 {
				t.Fatal("Open returned with no rename of the upgraded file traced")
			}
			if dirSynced < renamed {
				t.Error("Open returned before the directory was synced after the rename")
			}
			return
		}
	}
	t.Fatalf("the child never said it opened the directory (%d calls traced)", len(trace))
}

// traced is one event of an strace -f -y trace: a system call's entry or
// its exit (a complete line is both).
type traced struct {
	pid, call string
	path      string // the file of the first argument, a descriptor; "" for a pipe
	text      string // the first string argument, unquoted
	exit      bool
	ret       string
}

// isWrite reports whether c writes pages of a file.
func (c traced) isWrite() bool {
	return c.call == "pwrite64" || c.call == "pwritev" || c.call == "pwritev2" || c.call == "write"
}

var (
	// straceLine splits a line of strace -f -o: the thread, then a call with
	// its arguments and result, its entry (unfinished) or its exit (resumed).
	straceLine  = regexp.MustCompile(`^(\d+)\s+(?:<\.\.\. (\w+) resumed>(.*)\)\s+= (\S+).*|(\w+)\((.*?)(?:\)\s+= (\S+).*| <unfinished \.\.\.>))$`)
	straceFD    = regexp.MustCompile(`^\d+<(.*?)>`)
	straceQuote = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)
)

// traceChild runs TestSyncOrderChild in mode on dir under strace and returns
// its trace: the calls that write, sync and rename, and the child's writes to
// stdout.
func traceChild(t *testing.T, dir, mode string) []traced {
	t.Helper()
	strace := testtools.Strace(t)
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
		t.Fatalf("%s is %s: strace names files by their real path", dir, real)
	}
	out := filepath.Join(t.TempDir(), "trace")
	cmd := exec.Command(strace, "-f", "-qq", "-y", "-s", "256", "-o", out,
		"-e", "trace=pwrite64,pwritev,pwritev2,write,fdatasync,fsync,rename,renameat,renameat2",
		os.Args[0], "-test.run=^TestSyncOrderChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), syncOrderDirEnv+"="+dir, syncOrderModeEnv+"="+mode)
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stdout
	if err := cmd.Run(); err != nil {
		t.Fatalf("strace of the child: %v\n%s", err, stdout.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return parseTrace(t, string(data))
}

// parseTrace reads an strace -f -y -o trace; a resumed call takes its
// arguments from its unfinished entry on the same thread.
func parseTrace(t *testing.T, data string) []traced {
	t.Helper()
	var calls []traced
	pending := map[string]traced{}
	for line := range strings.Lines(data) {
		line = strings.TrimRight(line, "\n")
		m := straceLine.FindStringSubmatch(line)
		if m == nil {
			continue // signals, exits
		}
		if m[2] != "" { // resumed
			c, ok := pending[m[1]]
			if !ok || c.call != m[2] {
				t.Fatalf("trace: %q resumes no call of its thread", line)
			}
			delete(pending, m[1])
			c.exit, c.ret = true, m[4]
			calls = append(calls, c)
			continue
		}
		c := traced{pid: m[1], call: m[5]}
		args := m[6]
		if fd := straceFD.FindStringSubmatch(args); fd != nil && !strings.HasPrefix(fd[1], "pipe:") {
			c.path = fd[1]
		}
		if q := straceQuote.FindStringSubmatch(args); q != nil {
			c.text = unquoteStrace(q[1])
		}
		if m[7] == "" { // unfinished
			pending[c.pid] = c
			calls = append(calls, c)
			continue
		}
		calls = append(calls, c) // entry
		c.exit, c.ret = true, m[7]
		calls = append(calls, c)
	}
	return calls
}

// unquoteStrace undoes strace's escapes of the few characters the tests'
// strings hold.
func unquoteStrace(s string) string {
	return strings.NewReplacer(`\n`, "\n", `\"`, `"`, `\\`, `\`).Replace(s)
}
