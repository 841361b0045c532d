package dynamo

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"golang.org/x/sync/errgroup"

	"github.com/quickphotos/quickphotos/domain"
)

// syncSettle is how long an append may take to commit: a position still missing after an
// entry written this long ago was never going to come (the log lost entries, to a hand
// deletion or a retention shortened since), and the reader says so rather than wait for ever.
const syncSettle = time.Minute

// SyncChanges returns the changes to caller's scope after cursor after, up to first entries,
// oldest first, from the caller's own log and the public logs of the popular users they
// follow (at most MaxPopularFollows, as the feed merges). With no cursor it returns none, and
// the cursor of now, to keep before reading the scope.
//
// Requests: one Query of the caller's log and one Query of the caller's popular marks, sent
// together, then one Query per public log; for no cursor, the marks' Query and one
// BatchGetItem of the heads. (The first call of a process also reads the cursor key: one
// GetItem.)
func (s *Store) SyncChanges(ctx context.Context, caller, after string, first int, retention time.Duration) (domain.SyncPage, error) {
	now := s.now()
	own := domain.SyncLog{User: caller}
	if after == "" {
		return s.syncStart(ctx, caller, now)
	}
	c, err := s.decodeSyncCursor(ctx, after, caller)
	if err != nil {
		return domain.SyncPage{}, err
	}
	if now.Sub(c.since()) > retention {
		return domain.SyncPage{}, domain.Errorf(domain.CursorExpired,
			"after: the cursor is from %s, older than the %s the changes are kept; read your scope again and start a new sync", c.since().UTC().Format(time.RFC3339), retention)
	}
	var marks map[string]uint64
	var reads = map[domain.SyncLog][]loggedEntry{}
	var more = map[domain.SyncLog]bool{}
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		marks, err = s.popularMarks(gctx, caller)
		return err
	})
	g.Go(func() (err error) {
		reads[own], more[own], err = s.readSyncLog(gctx, own, c.Own, first, now, false)
		return err
	})
	if err := g.Wait(); err != nil {
		return domain.SyncPage{}, err
	}
	positions := map[domain.SyncLog]uint64{own: c.Own}
	fromMark := map[domain.SyncLog]bool{}
	for u, from := range marks {
		l := domain.SyncLog{User: u, Public: true}
		p, ok := c.Popular[u]
		if !ok {
			p, fromMark[l] = from, true
		}
		positions[l] = p
	}
	type result struct {
		entries []loggedEntry
		more    bool
	}
	results := make(map[domain.SyncLog]*result, len(marks))
	g, gctx = errgroup.WithContext(ctx)
	for _, l := range sortedLogs(positions) {
		if l == own {
			continue
		}
		r := &result{}
		results[l] = r
		g.Go(func() (err error) {
			r.entries, r.more, err = s.readSyncLog(gctx, l, positions[l], first, now, fromMark[l])
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return domain.SyncPage{}, err
	}
	for l, r := range results {
		reads[l], more[l] = r.entries, r.more
	}
	return s.mergeSync(ctx, c, positions, reads, more, first, now)
}

// syncStart is the page of no cursor: no entries, and the cursor at every log's head.
func (s *Store) syncStart(ctx context.Context, caller string, now time.Time) (domain.SyncPage, error) {
	marks, err := s.popularMarks(ctx, caller)
	if err != nil {
		return domain.SyncPage{}, err
	}
	logs := []domain.SyncLog{{User: caller}}
	for u := range marks {
		logs = append(logs, domain.SyncLog{User: u, Public: true})
	}
	heads, err := s.syncHeads(ctx, logs)
	if err != nil {
		return domain.SyncPage{}, err
	}
	c := syncCursor{Caller: caller, Own: heads[logs[0]], Since: now.UnixMilli()}
	for _, l := range logs[1:] {
		if c.Popular == nil {
			c.Popular = map[string]uint64{}
		}
		c.Popular[l.User] = heads[l]
	}
	end, err := s.encodeSyncCursor(ctx, c)
	return domain.SyncPage{End: end}, err
}

// mergeSync takes up to first entries from the logs read, oldest first by when they were
// written (each log in its own order), and the cursor after each. An object that comes more
// than once in the page is given once, at its last place: the client reads it as it is now
// either way.
func (s *Store) mergeSync(ctx context.Context, c syncCursor, positions map[domain.SyncLog]uint64, reads map[domain.SyncLog][]loggedEntry, more map[domain.SyncLog]bool, first int, now time.Time) (domain.SyncPage, error) {
	logs := sortedLogs(positions)
	taken := make(map[domain.SyncLog]int, len(logs))
	lastAt := make(map[domain.SyncLog]time.Time, len(logs))
	var page domain.SyncPage
	var cursors []syncCursor
	for len(page.Entries) < first {
		var pick *domain.SyncLog
		for i, l := range logs {
			if taken[l] == len(reads[l]) {
				continue
			}
			if pick == nil || reads[l][taken[l]].At.Before(reads[*pick][taken[*pick]].At) {
				pick = &logs[i]
			}
		}
		if pick == nil {
			break
		}
		e := reads[*pick][taken[*pick]]
		taken[*pick]++
		positions[*pick], lastAt[*pick] = e.seq, e.At
		page.Entries = append(page.Entries, e.SyncEntry)
		cursors = append(cursors, cursorAt(c, positions, nil, lastAt))
	}
	done := map[domain.SyncLog]bool{}
	for _, l := range logs {
		left := taken[l] < len(reads[l]) || more[l]
		page.More = page.More || left
		done[l] = !left
	}
	end := cursorAt(c, positions, done, lastAt)
	end.Since = max(end.Since, c.Since)
	if len(done) > 0 && allDone(done) {
		end.Since = now.UnixMilli()
	}
	key, err := s.signingKey(ctx)
	if err != nil {
		return domain.SyncPage{}, err
	}
	page.Entries, cursors = foldSync(page.Entries, cursors)
	page.Cursors = make([]string, len(cursors))
	for i, cc := range cursors {
		page.Cursors[i] = signCursor(key, cc)
	}
	page.End = signCursor(key, end)
	return page, nil
}

// cursorAt is the cursor at positions. Its time is the earliest of, for each log, when the
// last entry taken from it was written (the entries after it were written later), or the
// previous cursor's time for a log none was taken from; a log read to its end (done) sets no
// bound, since what comes after was written after this read.
func cursorAt(prev syncCursor, positions map[domain.SyncLog]uint64, done map[domain.SyncLog]bool, lastAt map[domain.SyncLog]time.Time) syncCursor {
	c := syncCursor{Caller: prev.Caller, Since: -1}
	for l, p := range positions {
		if l.Public {
			if c.Popular == nil {
				c.Popular = map[string]uint64{}
			}
			c.Popular[l.User] = p
		} else {
			c.Own = p
		}
		if done[l] {
			continue
		}
		bound := prev.Since
		if at, ok := lastAt[l]; ok {
			bound = at.UnixMilli()
		}
		if c.Since < 0 || bound < c.Since {
			c.Since = bound
		}
	}
	if c.Since < 0 {
		c.Since = prev.Since
	}
	return c
}

func allDone(done map[domain.SyncLog]bool) bool {
	for _, d := range done {
		if !d {
			return false
		}
	}
	return true
}

// foldSync keeps, of the entries of one object, the last, with its cursor; but an unfollow
// (a Friendship deleted) followed by a new follow comes as both, deletion first: the deletion
// tells the follower that the followed user's photos left the feed, which the new follow
// does not undo (it brings only the latest).
func foldSync(entries []domain.SyncEntry, cursors []syncCursor) ([]domain.SyncEntry, []syncCursor) {
	later := make(map[domain.NodeKey]domain.SyncOp, len(entries))
	keep := make([]bool, len(entries))
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		op, seen := later[e.Object]
		_, friendship := e.Object.(domain.FriendshipKey)
		if !seen || friendship && e.Op == domain.Deleted && op == domain.Upserted {
			keep[i], later[e.Object] = true, e.Op
		}
	}
	var outE []domain.SyncEntry
	var outC []syncCursor
	for i, e := range entries {
		if keep[i] {
			outE, outC = append(outE, e), append(outC, cursors[i])
		}
	}
	return outE, outC
}

// popularMarks returns the popular users caller follows, each with the position of their
// public log to read from when the cursor has none: where it was when caller's mark was
// written. One Query, of at most MaxPopularFollows marks.
func (s *Store) popularMarks(ctx context.Context, caller string) (map[string]uint64, error) {
	items, err := s.queryItems(ctx, &dynamodb.QueryInput{
		KeyConditionExpression:    aws.String("PK = :feed AND begins_with(SK, :popular)"),
		ExpressionAttributeValues: Item{":feed": str(feedPK(caller)), ":popular": str(popularMarks)},
		ProjectionExpression:      aws.String("SK, " + attrLogFrom),
	}, MaxPopularFollows)
	if err != nil {
		return nil, err
	}
	marks := make(map[string]uint64, len(items))
	for _, item := range items {
		sk, _ := getString(item, attrSK)
		if u, ok := popularFromSK(sk); ok {
			marks[u] = getUint(item, attrLogFrom)
		}
	}
	return marks, nil
}
