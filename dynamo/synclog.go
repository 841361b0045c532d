package dynamo

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/domain"
)

// Change logs (see domain.SyncEntry). A log is a partition: its head, which holds the position
// of its last entry; its entries at positions 1, 2, 3, … with no position skipped, several to
// an item (the entries one transaction adds to the log, up to maxItemEntries); and a record
// per change already added, by which a change delivered twice adds nothing the second time.
// An item's key holds the position of its last entry, so a Query from any position finds the
// item that holds it first.
//
// Why positions and not times: the logs are written by stream consumers that may run in
// several processes, on shards read at different speeds, retried by Lambda, on machines whose
// clocks disagree. An entry's position is taken from the head in the same transaction that
// writes the entry, conditional on the head being where the writer read it, so two appends to
// one log are serialised and a late writer gets a later position, never an earlier one: a
// reader that has read up to position n has seen every entry at n or below, whenever it was
// written. A reader stops at a missing position (an append committing while a Query reads the
// log may show its entries in any order), and takes that entry at its next read.

// Attributes of change log items.
const (
	attrSyncSeq     = "seq"     // a head's last position
	attrSyncObject  = "object"  // an entry's object, as its global id
	attrSyncOp      = "op"      // an entry's operation: "upserted" or "deleted"
	attrSyncVersion = "version" // an entry's object version (absent: 0)
	attrSyncEntries = "entries" // an item of several entries: a list of maps of the three above
	attrSyncAt      = "at"      // when an entry was written, in milliseconds since the Unix epoch
	attrLogFrom     = "logFrom" // on a popular mark: the public log's head when the mark was written
)

// maxTransactItems is DynamoDB's limit on the actions of one TransactWriteItems.
const maxTransactItems = 100

// maxItemEntries bounds the entries of one item: about 100 bytes each, an item stays within a
// few of DynamoDB's 1 KB write units, far from its 400 KB limit on an item.
const maxItemEntries = 100

// MaxSyncAppend is the most entries of one append (domain.SyncAppend): one item's.
const MaxSyncAppend = maxItemEntries

// syncGrace is how much longer than the retention an entry stays: a cursor is refused as
// expired once older than the retention by the API server's clock, and the entries after it
// must outlive that by more than the clocks of the writers and the server may disagree.
const syncGrace = 24 * time.Hour

// syncSeenLife is how long the record of a change added to a log must outlive its writing: a
// stream keeps a record 24 hours (DynamoDB Streams, the embedded engine; the Lambda fan-out
// drops older ones), so a change is never delivered again later than that after its first
// delivery. Kept that long and syncGrace more, rather than the retention and syncGrace, they
// stay a quarter as long at the default retention.
const syncSeenLife = 24 * time.Hour

// AppendSync adds each append's entries to its log, at the next positions of the log, unless
// its change was added already; entries expire after retention. One TransactWriteItems per
// group of appends (at most 100 items: each log's head once, a record of each change, the
// entries the group adds to each log in as few items as maxItemEntries allows), after one
// strongly consistent read of every log's head (BatchGetItem, 100 a request, sent together).
// The appends are grouped by log, each log's in their order. A group whose head moved
// meanwhile reads its heads again and is sent again; a change found added already is dropped.
func (s *Store) AppendSync(ctx context.Context, appends []domain.SyncAppend, retention time.Duration) error {
	for _, a := range appends {
		if len(a.Entries) > MaxSyncAppend {
			return domain.Errorf(domain.Internal, "a change of %d entries to log %s: at most %d", len(a.Entries), syncLogName(a.Log), MaxSyncAppend)
		}
	}
	appends = slices.Clone(appends)
	slices.SortStableFunc(appends, func(a, b domain.SyncAppend) int {
		return strings.Compare(syncLogName(a.Log), syncLogName(b.Log))
	})
	heads, err := s.syncHeads(ctx, syncLogsOf(appends))
	if err != nil {
		return err
	}
	for _, group := range syncGroups(appends) {
		if err := s.appendGroup(ctx, group, heads, retention); err != nil {
			return err
		}
	}
	return nil
}

// syncGroups splits appends, sorted by log, into groups that fit a transaction: at most 100
// items, counting each log's head and entry items once.
func syncGroups(appends []domain.SyncAppend) [][]domain.SyncAppend {
	var groups [][]domain.SyncAppend
	var group []domain.SyncAppend
	items := 0
	var log domain.SyncLog
	logEntries := 0 // the entries the group adds to log
	for _, a := range appends {
		if len(a.Entries) == 0 {
			continue
		}
		// The items a adds: its record, and the items its entries take beyond those the
		// group's previous appends to the same log began (a new log adds its head too).
		n := 1
		if len(group) == 0 || a.Log != log {
			log, logEntries = a.Log, 0
			n++
		}
		n += entryItems(logEntries+len(a.Entries)) - entryItems(logEntries)
		if items+n > maxTransactItems {
			groups, group, items = append(groups, group), nil, 0
			log, logEntries = a.Log, 0
			n = 2 + entryItems(len(a.Entries))
		}
		group, items, logEntries = append(group, a), items+n, logEntries+len(a.Entries)
	}
	if len(group) > 0 {
		groups = append(groups, group)
	}
	return groups
}

// entryItems is how many items n entries of one log take.
func entryItems(n int) int { return (n + maxItemEntries - 1) / maxItemEntries }

// appendGroup writes one group in one transaction, retrying as AppendSync says.
// heads holds the logs' last positions as read, and is moved past what the group writes.
func (s *Store) appendGroup(ctx context.Context, group []domain.SyncAppend, heads map[domain.SyncLog]uint64, retention time.Duration) error {
	for attempt := 1; ; attempt++ {
		if attempt > 1 {
			read, err := s.syncHeads(ctx, syncLogsOf(group))
			if err != nil {
				return err
			}
			maps.Copy(heads, read)
		}
		writes, seenAt := syncWrites(group, heads, s.now(), retention)
		err := s.transactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: withTable(writes, &s.table)})
		if err == nil {
			for _, a := range group {
				heads[a.Log] += uint64(len(a.Entries))
			}
			return nil
		}
		reasons := cancellationReasons(err)
		if reasons == nil && !isTransactionInProgress(err) {
			return err
		}
		// Drop the changes already added; any other failure (a head moved, a conflict) sends
		// the rest again with the heads read anew.
		var rest []domain.SyncAppend
		for i, a := range group {
			if at := seenAt[i]; at < len(reasons) && reasons[at] == "ConditionalCheckFailed" {
				continue
			}
			rest = append(rest, a)
		}
		if group = rest; len(group) == 0 {
			return nil
		}
		if attempt >= syncRetry.attempts {
			return domain.Wrap(domain.Unavailable, err, "appending to change logs kept conflicting with other writes")
		}
		if !syncRetry.wait(ctx, attempt) {
			return ctx.Err()
		}
	}
}

// syncRetry bounds the retries of an append whose log moved meanwhile. Writers of one log
// (consumers of several shards, Lambda's concurrent batches) take turns by failing and trying
// again, so they retry more often, and for shorter waits, than a conflict between two
// mutations, which is rare.
var syncRetry = retryPolicy{attempts: 64, base: 2 * time.Millisecond, max: 100 * time.Millisecond}

func syncLogsOf(group []domain.SyncAppend) []domain.SyncLog {
	var logs []domain.SyncLog
	seen := map[domain.SyncLog]bool{}
	for _, a := range group {
		if !seen[a.Log] {
			seen[a.Log] = true
			logs = append(logs, a.Log)
		}
	}
	return logs
}

// syncWrites are the transaction's actions for group over heads: per append, the record of
// its change (seenAt[i] is its index, to find it among a cancellation's reasons); per log, the
// entries of its appends, in their order, in items of up to maxItemEntries, and its head moved
// to its new last position, conditional on the position read.
func syncWrites(group []domain.SyncAppend, heads map[domain.SyncLog]uint64, now time.Time, retention time.Duration) (writes []types.TransactWriteItem, seenAt []int) {
	expires := unixTime(now.Add(retention + syncGrace))
	seenExpires := unixTime(now.Add(syncSeenLife + syncGrace))
	at := strconv.FormatInt(now.UnixMilli(), 10)
	entries := make(map[domain.SyncLog][]domain.SyncEntry, len(heads))
	for _, a := range group {
		seen := syncSeenKey(a.Log, a.Change)
		seenAt = append(seenAt, len(writes))
		writes = append(writes, types.TransactWriteItem{Put: &types.Put{
			Item:                Item{attrPK: str(seen.PK), attrSK: str(seen.SK), attrExpiresAt: seenExpires},
			ConditionExpression: itemIsNew,
		}})
		entries[a.Log] = append(entries[a.Log], a.Entries...)
	}
	for _, l := range syncLogsOf(group) {
		last := heads[l]
		for es := range slices.Chunk(entries[l], maxItemEntries) {
			last += uint64(len(es))
			writes = append(writes, types.TransactWriteItem{Put: &types.Put{Item: syncEntryItem(l, last, es, at, expires)}})
		}
		k := syncHeadKey(l)
		item := Item{attrPK: str(k.PK), attrSK: str(k.SK), attrSyncSeq: seqValue(last)}
		put := &types.Put{Item: item, ConditionExpression: aws.String("attribute_not_exists(PK)")}
		if heads[l] > 0 {
			put.ConditionExpression = aws.String("#seq = :read")
			put.ExpressionAttributeNames = map[string]string{"#seq": attrSyncSeq}
			put.ExpressionAttributeValues = Item{":read": seqValue(heads[l])}
		}
		writes = append(writes, types.TransactWriteItem{Put: put})
	}
	return writes, seenAt
}

func withTable(writes []types.TransactWriteItem, table *string) []types.TransactWriteItem {
	for i := range writes {
		setTable(&writes[i], table)
	}
	return writes
}

func seqValue(n uint64) *types.AttributeValueMemberN {
	return &types.AttributeValueMemberN{Value: strconv.FormatUint(n, 10)}
}

// syncEntryItem is the item of entries es, whose last is at position last. One entry is
// written in the item's own attributes; several as a list of maps of the same attributes.
func syncEntryItem(l domain.SyncLog, last uint64, es []domain.SyncEntry, at string, expires types.AttributeValue) Item {
	k := syncEntryKey(l, last)
	item := Item{
		attrPK:        str(k.PK),
		attrSK:        str(k.SK),
		attrSyncAt:    &types.AttributeValueMemberN{Value: at},
		attrExpiresAt: expires,
	}
	if len(es) == 1 {
		maps.Copy(item, syncEntryAttributes(es[0]))
		return item
	}
	list := make([]types.AttributeValue, len(es))
	for i, e := range es {
		list[i] = &types.AttributeValueMemberM{Value: syncEntryAttributes(e)}
	}
	item[attrSyncEntries] = &types.AttributeValueMemberL{Value: list}
	return item
}

func syncEntryAttributes(e domain.SyncEntry) Item {
	m := Item{
		attrSyncObject: str(domain.NodeID(canonicalObject(e.Object))),
		attrSyncOp:     str(e.Op.String()),
	}
	if e.Version != 0 {
		m[attrSyncVersion] = num(e.Version)
	}
	return m
}

// canonicalObject is k with its timestamps in canonical form: the stream may carry an item of
// an earlier release's key form (see migratetimestamps.go), and clients know each object by
// its canonical id only.
func canonicalObject(k domain.NodeKey) domain.NodeKey {
	switch v := k.(type) {
	case domain.PhotoKey:
		if c, err := domain.CanonicalPhotoKey(v); err == nil {
			return c
		}
	case domain.ReactionKey:
		if c, err := domain.CanonicalReactionKey(v); err == nil {
			return c
		}
	}
	return k
}

// syncEntriesFromItem reads an item's entries and the position of its last.
func syncEntriesFromItem(item Item) ([]domain.SyncEntry, uint64, error) {
	sk, _ := getString(item, attrSK)
	last, ok := syncSeqFromSK(sk)
	if !ok {
		return nil, 0, fmt.Errorf("change log entry %q: malformed key", sk)
	}
	ms, err := strconv.ParseInt(numString(item, attrSyncAt), 10, 64)
	if err != nil {
		return nil, 0, fmt.Errorf("change log entry %q: time: %w", sk, err)
	}
	at := time.UnixMilli(ms).UTC()
	fields := []Item{item}
	if l, ok := item[attrSyncEntries]; ok {
		list, _ := l.(*types.AttributeValueMemberL)
		if list == nil || len(list.Value) == 0 || uint64(len(list.Value)) > last {
			return nil, 0, fmt.Errorf("change log entry %q: malformed %s", sk, attrSyncEntries)
		}
		fields = fields[:0]
		for _, v := range list.Value {
			m, ok := v.(*types.AttributeValueMemberM)
			if !ok {
				return nil, 0, fmt.Errorf("change log entry %q: malformed %s", sk, attrSyncEntries)
			}
			fields = append(fields, m.Value)
		}
	}
	es := make([]domain.SyncEntry, len(fields))
	for i, f := range fields {
		e, err := syncEntryFromAttributes(f)
		if err != nil {
			return nil, 0, fmt.Errorf("change log entry %q: %w", sk, err)
		}
		e.At = at
		es[i] = e
	}
	return es, last, nil
}

func syncEntryFromAttributes(f Item) (domain.SyncEntry, error) {
	id, _ := getString(f, attrSyncObject)
	object, err := domain.ParseNodeID(attrSyncObject, id)
	if err != nil {
		return domain.SyncEntry{}, err
	}
	e := domain.SyncEntry{Object: object, Version: getInt(f, attrSyncVersion)}
	switch op, _ := getString(f, attrSyncOp); op {
	case domain.Upserted.String():
		e.Op = domain.Upserted
	case domain.Deleted.String():
		e.Op = domain.Deleted
	default:
		return domain.SyncEntry{}, fmt.Errorf("operation %q", op)
	}
	return e, nil
}

func numString(item Item, name string) string {
	if n, ok := item[name].(*types.AttributeValueMemberN); ok {
		return n.Value
	}
	return ""
}

func getUint(item Item, name string) uint64 {
	n, _ := strconv.ParseUint(numString(item, name), 10, 64)
	return n
}

// syncHeads reads the last position of each log (0 for a log with no entry yet) with one
// strongly consistent BatchGetItem per 100 logs: an append conditional on a stale head would
// only fail and read again.
func (s *Store) syncHeads(ctx context.Context, logs []domain.SyncLog) (map[domain.SyncLog]uint64, error) {
	heads := make(map[domain.SyncLog]uint64, len(logs))
	keys := make([]Key, len(logs))
	for i, l := range logs {
		heads[l] = 0
		keys[i] = syncHeadKey(l)
	}
	items, err := s.batchGetConsistent(ctx, keys)
	if err != nil {
		return nil, err
	}
	for _, item := range items {
		pk, _ := getString(item, attrPK)
		if l, ok := syncLogFromPK(pk); ok {
			heads[l] = getUint(item, attrSyncSeq)
		}
	}
	return heads, nil
}

// syncHeadFromItem reads a log's head.
func syncHeadFromItem(item Item) (domain.SyncHead, error) {
	pk, _ := getString(item, attrPK)
	l, ok := syncLogFromPK(pk)
	if !ok {
		return domain.SyncHead{}, fmt.Errorf("change log head %q: malformed key", pk)
	}
	return domain.SyncHead{Log: l, Seq: getUint(item, attrSyncSeq)}, nil
}

// SyncHead returns the last position of log l.
func (s *Store) SyncHead(ctx context.Context, l domain.SyncLog) (uint64, error) {
	heads, err := s.syncHeads(ctx, []domain.SyncLog{l})
	return heads[l], err
}

// loggedEntry is an entry with its position.
type loggedEntry struct {
	domain.SyncEntry
	seq uint64
}

// readSyncLog returns up to want entries of log l after position after, in order, with a
// strongly consistent Query; more when the log held more. It stops before a missing position
// (see the top of this file), or fails with CursorExpired when that position is lost.
//
// fromStart is for a position no cursor gave (a popular mark's logFrom): entries missing at
// the start of the log expired before the reader came to it, and the reader begins at the
// first entry there, rather than calling its cursor expired.
func (s *Store) readSyncLog(ctx context.Context, l domain.SyncLog, after uint64, want int, now time.Time, fromStart bool) (entries []loggedEntry, more bool, err error) {
	// An item holds up to maxItemEntries entries, and the Query's limit counts items: the
	// range ends with the item that holds the entry after the page, so that no more than a
	// page and an item is read. From a position no cursor gave, the first entries kept may be
	// anywhere after it.
	var through uint64
	if !fromStart {
		through = after + uint64(want) + maxItemEntries
	}
	low, high := syncEntryRange(l, after, through)
	items, err := s.queryItems(ctx, &dynamodb.QueryInput{
		KeyConditionExpression:    aws.String("PK = :pk AND SK BETWEEN :low AND :high"),
		ExpressionAttributeValues: Item{":pk": str(syncPK(l)), ":low": str(low), ":high": str(high)},
		ConsistentRead:            aws.Bool(true),
	}, want+1)
	if err != nil {
		return nil, false, err
	}
	next := after + 1
	for i, item := range items {
		es, last, err := syncEntriesFromItem(item)
		if err != nil {
			return nil, false, domain.Wrap(domain.Internal, err, "reading a change log")
		}
		at, seq := es[0].At, last+1-uint64(len(es))
		if i == 0 && fromStart && seq > next && now.Sub(at) > syncSettle {
			next = seq
		}
		if i == 0 && seq < next {
			// The cursor is within the item: its first entries were read before.
			es, seq = es[next-seq:], next
		}
		if seq != next {
			// A missing position: an append still committing, whose entries will come, or,
			// past syncSettle, entries lost for good.
			if now.Sub(at) > syncSettle {
				return nil, false, domain.Errorf(domain.CursorExpired, "after: changes after the cursor are no longer kept; read your scope again and start a new sync")
			}
			return entries, true, nil
		}
		for _, e := range es {
			if len(entries) == want {
				return entries, true, nil
			}
			entries = append(entries, loggedEntry{e, seq})
			seq++
		}
		next = seq
	}
	return entries, false, nil
}

// sortedLogs orders logs by their spelling in keys, for output that does not depend on map
// order.
func sortedLogs(logs map[domain.SyncLog]uint64) []domain.SyncLog {
	out := make([]domain.SyncLog, 0, len(logs))
	for l := range logs {
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return syncLogName(out[i]) < syncLogName(out[j]) })
	return out
}
