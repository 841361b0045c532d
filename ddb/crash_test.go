//go:build unix

package ddb

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// The crash test checks the promise of package storage's doc.go ("Durability"): a write is
// acknowledged only once it is durable; a transaction's items and index
// entries commit atomically; readers never see half a transaction.
//
// TestCrash re-executes the test binary as a writer process
// (TestCrashWriter, selected with -test.run and activated by the
// environment variable crashWriterDirEnv), lets it write for a random time,
// kills it with SIGKILL, reopens the engine on the same directory and checks
// what survived against what the writer reported. SIGKILL leaves the
// kernel's page cache intact, so this exercises process-crash consistency
// (bbolt's meta-page switch, recovery on Open, the engine acknowledging only
// after commit), not power loss; fsync itself cannot be verified without
// cutting power under the page cache.
const (
	// crashWriterDirEnv carries the data directory to the writer process.
	// Without it TestCrashWriter returns at once: it is the child half of
	// TestCrash, not a test of its own.
	crashWriterDirEnv = "QUICKPHOTOS_CRASH_WRITER_DIR"
	// crashWriterRoundEnv carries the round number, which makes the ids
	// of every round distinct on the shared directory.
	crashWriterRoundEnv = "QUICKPHOTOS_CRASH_WRITER_ROUND"
	// crashSeedEnv, when set, replays a run (the seed is logged).
	crashSeedEnv = "QUICKPHOTOS_CRASH_SEED"

	crashTable   = "crash"
	crashIndex   = "byTx"
	crashCounter = "counter"
	crashRounds  = 5
	// crashWriters is the number of writer goroutines of the writer
	// process: concurrent writes share group commits (internal/storage/groupcommit.go), so
	// the acknowledgements checked after SIGKILL include writes that were
	// committed together.
	crashWriters = 6
	// crashTxSize is the number of Puts in each TransactWriteItems.
	crashTxSize = 3
	// crashWriterLifetime bounds the writer should the parent die without
	// killing it.
	crashWriterLifetime = 20 * time.Second
)

// crashBody is the deterministic content of the item with key pk: between
// 16 bytes and about 6 KB, so that a commit often spans several bbolt pages
// and a torn commit would be visible.
func crashBody(pk string) string {
	h := fnv.New32a()
	h.Write([]byte(pk))
	n := 16 + int(h.Sum32()%6000)
	return strings.Repeat(pk+"|", n/(len(pk)+1)+1)[:n]
}

// crashTxKeys returns the keys of the items of transaction id; they share
// the GSI hash key "tx#"+id.
func crashTxKeys(id string) []string {
	keys := make([]string, crashTxSize)
	for j := range keys {
		keys[j] = fmt.Sprintf("tx#%s#%d", id, j)
	}
	return keys
}

// crashPutKey returns the key of the item of plain PutItem id.
func crashPutKey(id string) string { return "put#" + id }

// TestCrashWriter is the writer process of TestCrash. It returns at once
// unless crashWriterDirEnv is set (that is, unless TestCrash started it);
// this is not a skipped test. It opens the engine (with fsync: NoSync
// false), creates the table if missing, prints "ready" and then runs
// crashWriters goroutines, each looping until killed over crashWriteOnce: a
// TransactWriteItems of crashTxSize Puts, a plain PutItem and an UpdateItem
// "ADD n :one" on the shared counter item. Before each request a goroutine
// prints "try <kind> <id>", after its acknowledgement "ack <kind> <id>"; ids
// name the round and the goroutine. os.Stdout is unbuffered: each line is
// one write(2) into the pipe, so it survives the SIGKILL that follows. A
// reader goroutine checks meanwhile that the transactions in flight are
// never half visible, printing "bad …" lines otherwise.
func TestCrashWriter(t *testing.T) {
	dir := os.Getenv(crashWriterDirEnv)
	if dir == "" {
		return
	}
	round := os.Getenv(crashWriterRoundEnv)
	var outMu sync.Mutex
	say := func(format string, args ...any) {
		outMu.Lock()
		defer outMu.Unlock()
		if _, err := fmt.Fprintf(os.Stdout, format+"\n", args...); err != nil {
			os.Exit(3)
		}
	}
	fail := func(format string, args ...any) {
		say("fail "+format, args...)
		os.Exit(2)
	}

	e, err := Open(dir, &Options{NoSync: false, TTLSweepInterval: -1})
	if err != nil {
		fail("open: %v", err)
	}
	c := e.Client()
	ctx := context.Background()
	_, err = c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String(crashTable),
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("TX"), AttributeType: types.ScalarAttributeTypeS},
		},
		BillingMode:         types.BillingModePayPerRequest,
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String(crashIndex),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("TX"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
	})
	if code, _ := apiError(err); err != nil && code != "ResourceInUseException" {
		fail("create table: %v", err)
	}

	// current[w] is the id of writer w's transaction in flight (or last
	// written).
	current := make([]atomic.Pointer[string], crashWriters)
	go func() {
		for {
			for w := range current {
				id := current[w].Load()
				if id == nil {
					continue
				}
				if msg := crashHalfVisible(ctx, c, *id); msg != "" {
					say("bad %s", msg)
				}
			}
			// Leave the writers most of the CPU (and bbolt's remap lock).
			time.Sleep(500 * time.Microsecond)
		}
	}()

	deadline := time.Now().Add(crashWriterLifetime)
	say("ready")
	var wg sync.WaitGroup
	for w := range crashWriters {
		wg.Go(func() {
			for seq := 0; time.Now().Before(deadline); seq++ {
				crashWriteOnce(ctx, c, fmt.Sprintf("r%s-w%d-%d", round, w, seq), &current[w], say, fail)
			}
		})
	}
	wg.Wait()
	say("timeout")
	os.Exit(4)
}

// crashWriteOnce is one iteration of a writer goroutine of TestCrashWriter:
// a TransactWriteItems of crashTxSize Puts, a plain PutItem and an
// UpdateItem "ADD n :one" on the shared counter item, each announced by a
// "try" line before the call and by an "ack" line only after the call
// returned success.
func crashWriteOnce(ctx context.Context, c *dynamodb.Client, id string, current *atomic.Pointer[string],
	say func(string, ...any), fail func(string, ...any)) {
	current.Store(&id)
	say("try tx %s", id)
	var tws []types.TransactWriteItem
	for _, k := range crashTxKeys(id) {
		tws = append(tws, types.TransactWriteItem{Put: &types.Put{
			TableName: aws.String(crashTable),
			Item:      crashItem(k, "tx#"+id),
		}})
	}
	if _, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: tws}); err != nil {
		fail("tx %s: %v", id, err)
	}
	say("ack tx %s", id)

	say("try put %s", id)
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(crashTable), Item: crashItem(crashPutKey(id), "")}); err != nil {
		fail("put %s: %v", id, err)
	}
	say("ack put %s", id)

	say("try incr %s", id)
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(crashTable),
		Key:                       map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: crashCounter}},
		UpdateExpression:          aws.String("ADD n :one"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}},
	})
	if err != nil {
		fail("incr %s: %v", id, err)
	}
	say("ack incr %s", id)
}

// crashItem builds the item with key pk, its body and, unless tx is "",
// the GSI key attribute TX.
func crashItem(pk, tx string) map[string]types.AttributeValue {
	it := map[string]types.AttributeValue{
		"PK":   &types.AttributeValueMemberS{Value: pk},
		"Body": &types.AttributeValueMemberS{Value: crashBody(pk)},
	}
	if tx != "" {
		it["TX"] = &types.AttributeValueMemberS{Value: tx}
	}
	return it
}

// crashHalfVisible reads transaction id twice, through the GSI (one Query)
// and through the table (one TransactGetItems), and describes what it sees
// if either read shows only part of the transaction; each read is a single
// snapshot, so it must see all of the items or none.
func crashHalfVisible(ctx context.Context, c *dynamodb.Client, id string) string {
	q, err := crashQueryTx(ctx, c, id)
	if err != nil {
		return fmt.Sprintf("query %s: %v", id, err)
	}
	if len(q) != 0 && len(q) != crashTxSize {
		return fmt.Sprintf("query %s: %d of %d items", id, len(q), crashTxSize)
	}
	var gets []types.TransactGetItem
	for _, k := range crashTxKeys(id) {
		gets = append(gets, types.TransactGetItem{Get: &types.Get{
			TableName: aws.String(crashTable),
			Key:       map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: k}},
		}})
	}
	out, err := c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: gets})
	if err != nil {
		return fmt.Sprintf("transact get %s: %v", id, err)
	}
	found := 0
	for _, r := range out.Responses {
		if r.Item != nil {
			found++
		}
	}
	if found != 0 && found != crashTxSize {
		return fmt.Sprintf("transact get %s: %d of %d items", id, found, crashTxSize)
	}
	return ""
}

// crashQueryTx returns the items of transaction id found through the GSI.
func crashQueryTx(ctx context.Context, c *dynamodb.Client, id string) ([]map[string]types.AttributeValue, error) {
	out, err := c.Query(ctx, &dynamodb.QueryInput{
		TableName:                 aws.String(crashTable),
		IndexName:                 aws.String(crashIndex),
		KeyConditionExpression:    aws.String("TX = :tx"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":tx": &types.AttributeValueMemberS{Value: "tx#" + id}},
	})
	if err != nil {
		return nil, err
	}
	if out.LastEvaluatedKey != nil {
		return nil, errors.New("query paginated")
	}
	return out.Items, nil
}

// crashLog is what one writer process reported.
type crashLog struct {
	tried, acked map[string][]string // kind -> ids, in the order printed
	pending      map[string]bool     // "kind id" tried and not yet acknowledged
	bad          []string            // "bad" and "fail" lines
	ready        bool
	lines        int
}

// TestCrash kills a writer process (TestCrashWriter) with SIGKILL after a
// random time, crashRounds times on the same directory (so recovery also
// runs on a file recovered before), and after each kill reopens the engine
// and checks that:
//
//   - every acknowledged item is present with its exact content, and every
//     item present after an earlier round is still there;
//   - no item is present that the writer never attempted;
//   - every transaction attempted is all-or-nothing, in the table and in
//     the GSI (acknowledged ones all), with the same content in both;
//   - the counter grew by at least the acknowledged increments and at most
//     the tried ones (one in flight per writer goroutine);
//   - the storage invariants hold (checkInvariants: index entries match
//     items, stored counters match data, the stream agrees with the table);
//   - the table's stream holds exactly one record per item present and one
//     per increment of the counter, none for a write that did not commit,
//     and a transaction's records are consecutive;
//   - the writer's own reader never saw half a transaction.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("starts writer processes; skipped in -short mode")
	}
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv(crashSeedEnv); v != "" {
		var err error
		if seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			t.Fatalf("%s: %v", crashSeedEnv, err)
		}
	}
	t.Logf("seed %d (replay with %s=%d)", seed, crashSeedEnv, seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	dir := t.TempDir()

	known := map[string]string{} // pk -> Body of every item known to be durable
	counter := 0
	for round := range crashRounds {
		wait := time.Duration(150+rng.IntN(451)) * time.Millisecond
		log := crashRunWriter(t, dir, round, wait)
		t.Logf("round %d: killed after %v, %d tx, %d put, %d incr acknowledged", round, wait,
			len(log.acked["tx"]), len(log.acked["put"]), len(log.acked["incr"]))
		for i, b := range log.bad {
			if i == 10 {
				t.Errorf("round %d: writer: … and %d more", round, len(log.bad)-i)
				break
			}
			t.Errorf("round %d: writer: %s", round, b)
		}
		if !log.ready {
			t.Fatalf("round %d: writer never became ready (%d lines)", round, log.lines)
		}
		counter = crashVerify(t, dir, round, log, known, counter)
		if t.Failed() {
			t.Fatalf("round %d failed; replay with %s=%d", round, crashSeedEnv, seed)
		}
	}
}

// crashRunWriter runs one writer process on dir, kills it wait after it
// reports ready, and returns what it printed.
func crashRunWriter(t *testing.T, dir string, round int, wait time.Duration) *crashLog {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashWriter$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashWriterDirEnv+"="+dir, crashWriterRoundEnv+"="+strconv.Itoa(round))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}

	log := &crashLog{tried: map[string][]string{}, acked: map[string][]string{}, pending: map[string]bool{}}
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- crashReadLog(stdout, log, ready) }()

	select {
	case <-ready:
		time.Sleep(wait)
	case <-time.After(10 * time.Second):
		// A writer that never gets ready is killed and reported below.
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("round %d: kill: %v", round, err)
	}
	if err := <-done; err != nil {
		t.Errorf("round %d: reading writer output: %v", round, err)
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Errorf("round %d: writer ended with %v, not by SIGKILL; stderr:\n%s", round, err, stderr.String())
	}
	return log
}

// crashReadLog parses the writer's output until EOF into log, closing ready
// at the "ready" line. log is complete only once it returns.
func crashReadLog(r io.Reader, log *crashLog, ready chan struct{}) error {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		log.lines++
		f := strings.Fields(line)
		switch {
		case line == "ready":
			log.ready = true
			close(ready)
		case len(f) == 3 && f[0] == "try":
			log.tried[f[1]] = append(log.tried[f[1]], f[2])
			log.pending[f[1]+" "+f[2]] = true
		case len(f) == 3 && f[0] == "ack":
			if !log.pending[f[1]+" "+f[2]] {
				log.bad = append(log.bad, "ack without try: "+line)
			}
			delete(log.pending, f[1]+" "+f[2])
			log.acked[f[1]] = append(log.acked[f[1]], f[2])
		case len(f) > 0 && (f[0] == "bad" || f[0] == "fail" || f[0] == "timeout"):
			log.bad = append(log.bad, line)
		}
		// Anything else is the testing package's own output.
	}
	return sc.Err()
}

// crashVerify reopens the engine on dir after round and checks its content
// against log and against known (the items durable after the earlier
// rounds, which it updates). counter is the counter's value after the
// earlier rounds; crashVerify returns its new value.
func crashVerify(t *testing.T, dir string, round int, log *crashLog, known map[string]string, counter int) int {
	t.Helper()
	e, err := Open(dir, &Options{TTLSweepInterval: -1})
	if err != nil {
		t.Fatalf("round %d: reopen after SIGKILL: %v", round, err)
	}
	defer func() {
		if err := e.Close(); err != nil {
			t.Errorf("round %d: close: %v", round, err)
		}
	}()
	if err := checkInvariants(e); err != nil {
		t.Errorf("round %d: invariants after SIGKILL: %v", round, err)
	}
	ctx := context.Background()
	c := e.Client()

	// Every item, one snapshot per page; nothing else writes now.
	present := map[string]map[string]types.AttributeValue{}
	var start map[string]types.AttributeValue
	for {
		out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(crashTable), ExclusiveStartKey: start})
		if err != nil {
			t.Fatalf("round %d: scan: %v", round, err)
		}
		for _, it := range out.Items {
			present[crashStr(it["PK"])] = it
		}
		if start = out.LastEvaluatedKey; start == nil {
			break
		}
	}

	// Items this round may have written: acked must be there, tried may.
	mayWrite := map[string]bool{} // pk -> acknowledged
	for _, id := range log.tried["tx"] {
		for _, k := range crashTxKeys(id) {
			mayWrite[k] = false
		}
	}
	for _, id := range log.tried["put"] {
		mayWrite[crashPutKey(id)] = false
	}
	for _, id := range log.acked["tx"] {
		for _, k := range crashTxKeys(id) {
			mayWrite[k] = true
		}
	}
	for _, id := range log.acked["put"] {
		mayWrite[crashPutKey(id)] = true
	}

	for pk := range known {
		if present[pk] == nil {
			t.Errorf("round %d: %s, durable after an earlier round, is gone", round, pk)
		}
	}
	for pk, acked := range mayWrite {
		if acked && present[pk] == nil {
			t.Errorf("round %d: acknowledged %s is missing", round, pk)
		}
	}
	for pk, it := range present {
		if pk == crashCounter {
			continue
		}
		if _, ok := mayWrite[pk]; !ok && known[pk] == "" {
			t.Errorf("round %d: %s is present but was never attempted", round, pk)
			continue
		}
		if got := crashStr(it["Body"]); got != crashBody(pk) {
			t.Errorf("round %d: %s has a Body of %d bytes, want %d (content differs)", round, pk, len(got), len(crashBody(pk)))
		}
		if got, want := crashStr(it["TX"]), crashTxOf(pk); got != want {
			t.Errorf("round %d: %s has TX %q, want %q", round, pk, got, want)
		}
		known[pk] = crashBody(pk)
	}

	// Transactions of this round: all or nothing, in the table and in the GSI.
	for _, id := range log.tried["tx"] {
		inTable := 0
		for _, k := range crashTxKeys(id) {
			if present[k] != nil {
				inTable++
			}
		}
		if inTable != 0 && inTable != crashTxSize {
			t.Errorf("round %d: transaction %s is torn: %d of %d items in the table", round, id, inTable, crashTxSize)
		}
		q, err := crashQueryTx(ctx, c, id)
		if err != nil {
			t.Fatalf("round %d: query %s: %v", round, id, err)
		}
		if len(q) != inTable {
			t.Errorf("round %d: transaction %s: %d items in the GSI, %d in the table", round, id, len(q), inTable)
		}
		for _, it := range q {
			pk := crashStr(it["PK"])
			if crashStr(it["Body"]) != crashBody(pk) {
				t.Errorf("round %d: GSI entry of %s has the wrong content", round, pk)
			}
		}
	}

	// The counter: every acknowledged increment, perhaps the one in flight.
	got := 0
	if it := present[crashCounter]; it != nil {
		nv, ok := it["n"].(*types.AttributeValueMemberN)
		if !ok {
			t.Fatalf("round %d: counter item without number n: %v", round, it)
		}
		if got, err = strconv.Atoi(nv.Value); err != nil {
			t.Fatalf("round %d: counter: %v", round, err)
		}
	}
	lo, hi := counter+len(log.acked["incr"]), counter+len(log.tried["incr"])
	if got < lo || got > hi {
		t.Errorf("round %d: counter = %d, want %d..%d (%d acknowledged increments, %d tried)", round, got, lo, hi,
			len(log.acked["incr"]), len(log.tried["incr"]))
	}
	crashVerifyStream(t, e, round, present, got)
	return got
}

// crashVerifyStream checks the crash table's stream after round against
// the items present: every item was written once, so it has exactly one
// record, an INSERT of its content; the counter has one record per unit;
// no other key has any; the records of a transaction are consecutive.
func crashVerifyStream(t *testing.T, e *Engine, round int, present map[string]map[string]types.AttributeValue, counter int) {
	t.Helper()
	ctx := context.Background()
	desc, err := e.Client().DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(crashTable)})
	if err != nil {
		t.Fatalf("round %d: describe: %v", round, err)
	}
	records, err := readAllRecords(ctx, e, aws.ToString(desc.Table.LatestStreamArn))
	if err != nil {
		t.Fatalf("round %d: reading the stream: %v", round, err)
	}
	perKey := map[string]int{}
	txSeqs := map[string][]uint64{}
	for _, r := range records {
		pk := r.Dynamodb.Keys["PK"].(*stypes.AttributeValueMemberS).Value
		perKey[pk]++
		if pk == crashCounter {
			continue
		}
		if present[pk] == nil {
			t.Errorf("round %d: stream has a record of %s, which is not in the table", round, pk)
			continue
		}
		body, _ := r.Dynamodb.NewImage["Body"].(*stypes.AttributeValueMemberS)
		if r.EventName != stypes.OperationTypeInsert || body == nil || body.Value != crashBody(pk) {
			t.Errorf("round %d: record of %s is %s with another image", round, pk, r.EventName)
		}
		if tx := crashTxOf(pk); tx != "" {
			seq, _ := engine.ParseSequenceNumber(aws.ToString(r.Dynamodb.SequenceNumber))
			txSeqs[tx] = append(txSeqs[tx], seq)
		}
	}
	for pk := range present {
		want := 1
		if pk == crashCounter {
			want = counter
		}
		if perKey[pk] != want {
			t.Errorf("round %d: %s has %d stream records, want %d", round, pk, perKey[pk], want)
		}
	}
	for tx, seqs := range txSeqs {
		if len(seqs) != crashTxSize || seqs[crashTxSize-1]-seqs[0] != crashTxSize-1 {
			t.Errorf("round %d: records of %s are not %d consecutive ones: %v", round, tx, crashTxSize, seqs)
		}
	}
}

// crashTxOf returns the GSI key attribute TX that item pk must hold: that of
// its transaction, or "" (none) for the items of plain PutItems.
func crashTxOf(pk string) string {
	if !strings.HasPrefix(pk, "tx#") {
		return ""
	}
	return pk[:strings.LastIndex(pk, "#")]
}

// crashStr returns the string in v, or "" when v is not a string.
func crashStr(v types.AttributeValue) string {
	if s, ok := v.(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}
