package api_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

// Writes that touch the same counter or parent race here, many rounds, and the store's own
// consistency check runs afterwards: no reaction without its photo, no counter that differs
// from its items, none below zero, whatever the interleaving.

// raceRounds is how many rounds each race runs.
const raceRounds = 25

// race sends every request at once and fails the test on any answer but success or one of
// the codes a lost race may give.
func race(t *testing.T, requests []func() *apitest.Response, allowed ...string) {
	t.Helper()
	answers := make([]*apitest.Response, len(requests))
	var wg sync.WaitGroup
	for i, send := range requests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = send()
		}()
	}
	wg.Wait()
	for i, resp := range answers {
		if code := resp.Code(); code != "" && !contains(allowed, code) {
			t.Fatalf("request %d answered %q (%+v), want success or one of %v", i, code, resp.Errors, allowed)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestDeletePhotoRacingReactions: deletePhoto sent together with reactions, removals and a
// re-upload of the same photo.
func TestDeletePhotoRacingReactions(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "owner")
	fans := make([]string, 8)
	for i := range fans {
		fans[i] = fmt.Sprintf("fan%d", i)
		srv.MustCreateUser(t, fans[i])
	}
	for round := 0; round < raceRounds; round++ {
		ts := apitest.Timestamp(round)
		srv.MustUploadPhoto(t, "owner", ts)
		srv.MustReact(t, fans[0], "owner", ts, "SMILEY")
		srv.MustReact(t, fans[1], "owner", ts, "SMILEY")
		requests := []func() *apitest.Response{
			func() *apitest.Response { return srv.DeletePhoto(t, "owner", ts) },
			func() *apitest.Response { return srv.UploadPhoto(t, "owner", ts) },
			func() *apitest.Response { return srv.RemoveReaction(t, fans[0], "owner", ts, "SMILEY") },
			func() *apitest.Response { return srv.RemoveReaction(t, fans[1], "owner", ts, "SMILEY") },
		}
		for _, fan := range fans {
			requests = append(requests, func() *apitest.Response { return srv.React(t, fan, "owner", ts, "HEART") })
		}
		race(t, requests, "NOT_FOUND", "CONFLICT")
	}
	srv.MustBeConsistent(t)
}

// TestRemoveReactionRacingItself: of identical removals, one succeeds and the counter stops at
// zero.
func TestRemoveReactionRacingItself(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "owner")
	srv.MustCreateUser(t, "fan")
	ts := apitest.Timestamp(1)
	srv.MustUploadPhoto(t, "owner", ts)
	for round := 0; round < raceRounds; round++ {
		srv.MustReact(t, "fan", "owner", ts, "HEART")
		var requests []func() *apitest.Response
		for i := 0; i < 4; i++ {
			requests = append(requests, func() *apitest.Response { return srv.RemoveReaction(t, "fan", "owner", ts, "HEART") })
		}
		race(t, requests, "NOT_FOUND")
	}
	srv.MustBeConsistent(t)
}

// TestFollowRacingUnfollow: follows and unfollows of the same pair, both ways, at once.
func TestFollowRacingUnfollow(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "ann")
	srv.MustCreateUser(t, "bob")
	for round := 0; round < raceRounds; round++ {
		var requests []func() *apitest.Response
		for i := 0; i < 3; i++ {
			requests = append(requests,
				func() *apitest.Response { return srv.Follow(t, "ann", "bob") },
				func() *apitest.Response { return srv.Unfollow(t, "ann", "bob") },
				func() *apitest.Response { return srv.Follow(t, "bob", "ann") },
				func() *apitest.Response { return srv.Unfollow(t, "bob", "ann") },
			)
		}
		race(t, requests, "NOT_FOUND", "CONFLICT")
	}
	srv.MustBeConsistent(t)
}

// photoWithReactions sets up a photo of "owner" with fans×4 reactions, more than one
// transaction holds when fans > 24.
func photoWithReactions(t *testing.T, srv *apitest.Server, fans int) domain.PhotoKey {
	t.Helper()
	srv.MustCreateUser(t, "owner")
	photo := domain.PhotoKey{Owner: "owner", Timestamp: apitest.Timestamp(1)}
	srv.MustUploadPhoto(t, photo.Owner, photo.Timestamp)
	for i := 0; i < fans; i++ {
		fan := fmt.Sprintf("fan%02d", i)
		srv.MustCreateUser(t, fan)
		for _, typ := range []string{"HEART", "SMILEY", "THUMBS_UP", "SUNGLASSES"} {
			srv.MustReact(t, fan, photo.Owner, photo.Timestamp, typ)
		}
	}
	return photo
}

// TestDeletePhoto_ManyReactionsRacingReactions: a delete in steps (more reactions than one
// transaction holds) while users keep reacting and removing reactions.
func TestDeletePhoto_ManyReactionsRacingReactions(t *testing.T) {
	srv := apitest.NewServer(t)
	photo := photoWithReactions(t, srv, 30)
	requests := []func() *apitest.Response{
		func() *apitest.Response { return srv.DeletePhoto(t, photo.Owner, photo.Timestamp) },
	}
	for i := 0; i < 8; i++ {
		late := fmt.Sprintf("late%d", i)
		srv.MustCreateUser(t, late)
		fan := fmt.Sprintf("fan%02d", i)
		requests = append(requests,
			func() *apitest.Response { return srv.React(t, late, photo.Owner, photo.Timestamp, "HEART") },
			func() *apitest.Response {
				return srv.RemoveReaction(t, fan, photo.Owner, photo.Timestamp, "SMILEY")
			},
		)
	}
	race(t, requests, "NOT_FOUND")
	srv.MustBeConsistent(t)
	if resp := srv.DeletePhoto(t, photo.Owner, photo.Timestamp); resp.Code() != "NOT_FOUND" {
		t.Fatalf("photo still there after its delete succeeded: %q", resp.Code())
	}
}

// interrupter cancels a context once the store has committed a number of transactions: a
// delete cut off there is what a crash between two of its steps leaves.
type interrupter struct {
	mu     sync.Mutex
	left   int
	cancel context.CancelFunc
}

func (i *interrupter) BeginRequest(ctx context.Context, operation, _ string) (context.Context, func(dynamo.RequestOutcome)) {
	return ctx, func(o dynamo.RequestOutcome) {
		i.mu.Lock()
		defer i.mu.Unlock()
		if operation == "TransactWriteItems" && o.Err == nil && i.cancel != nil {
			if i.left--; i.left == 0 {
				i.cancel()
			}
		}
	}
}

// interruptedDeletion leaves a photo with 108 reactions deleted halfway: marked, its first
// 98 reactions gone, as a crash between two steps would.
func interruptedDeletion(t *testing.T) (*apitest.Server, domain.PhotoKey) {
	t.Helper()
	cut := &interrupter{}
	srv := apitest.NewServer(t, apitest.WithStoreObserver(cut))
	photo := photoWithReactions(t, srv, 27)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cut.mu.Lock()
	cut.left, cut.cancel = 2, cancel // the mark, then one step
	cut.mu.Unlock()
	if _, err := srv.Store.DeletePhoto(ctx, photo); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted delete: %v, want it cut off", err)
	}
	return srv, photo
}

// TestDeletePhoto_Interrupted: a delete cut off between its steps leaves consistent data,
// refuses new reactions, and is finished by the sweep or by deleting again.
func TestDeletePhoto_Interrupted(t *testing.T) {
	t.Run("LeavesConsistentDataAndRefusesReactions", func(t *testing.T) {
		srv, photo := interruptedDeletion(t)
		srv.MustBeConsistent(t, photo)
		var got struct {
			Photo struct{ ReactionCounts struct{ Total int } }
		}
		srv.Query(t, `query($o: ID!, $t: String!) { photo(owner: $o, timestamp: $t) { reactionCounts { total } } }`,
			map[string]any{"o": photo.Owner, "t": photo.Timestamp}).Decode(t, &got)
		if got.Photo.ReactionCounts.Total != 108-98 {
			t.Errorf("%d reactions left, want the 10 the first step did not delete", got.Photo.ReactionCounts.Total)
		}
		srv.MustCreateUser(t, "late")
		if code := srv.React(t, "late", photo.Owner, photo.Timestamp, "HEART").Code(); code != "NOT_FOUND" {
			t.Errorf("a reaction to a photo being deleted answered %q, want NOT_FOUND", code)
		}
		if code := srv.UploadPhoto(t, photo.Owner, photo.Timestamp).Code(); code != "CONFLICT" {
			t.Errorf("a re-upload of a photo being deleted answered %q, want CONFLICT", code)
		}
		srv.MustBeConsistent(t, photo)
	})
	t.Run("FinishedBySweep", func(t *testing.T) {
		srv, _ := interruptedDeletion(t)
		if n, err := srv.Store.FinishDeletions(context.Background(), dynamo.DeletionLease); err != nil || n != 0 {
			t.Fatalf("sweep within the lease finished %d (%v), want it left to its deleter", n, err)
		}
		if n, err := srv.Store.FinishDeletions(context.Background(), 0); err != nil || n != 1 {
			t.Fatalf("sweep finished %d (%v), want 1", n, err)
		}
		report := srv.MustBeConsistent(t)
		if report.Items != 1+27 {
			t.Fatalf("%d items left, want only the 28 profiles", report.Items)
		}
	})
	t.Run("FinishedByTheServersSweep", func(t *testing.T) {
		srv, _ := interruptedDeletion(t)
		ctx, stop := context.WithCancel(context.Background())
		defer stop()
		finished := make(chan int, 1)
		go srv.Store.SweepDeletions(ctx, time.Millisecond, 0, func(n int, err error) {
			if err != nil {
				t.Errorf("sweep: %v", err)
			}
			finished <- n
			stop()
		})
		if n := <-finished; n != 1 {
			t.Fatalf("the sweep finished %d deletions, want 1", n)
		}
		srv.MustBeConsistent(t)
	})
	t.Run("FinishedByDeletingAgain", func(t *testing.T) {
		srv, photo := interruptedDeletion(t)
		var got struct {
			DeletePhoto struct{ Timestamp string }
		}
		srv.DeletePhoto(t, photo.Owner, photo.Timestamp).Decode(t, &got)
		if got.DeletePhoto.Timestamp != photo.Timestamp {
			t.Fatalf("deleted %+v", got.DeletePhoto)
		}
		srv.MustBeConsistent(t)
		srv.MustUploadPhoto(t, photo.Owner, photo.Timestamp)
		srv.MustBeConsistent(t)
	})
}

// TestRemoveReaction_NeverDrivesACounterBelowZero: a reaction item the photo does not count
// (as the racing delete of earlier releases left, before the photo was uploaded again) is
// refused removal instead of taking the counter below zero.
func TestRemoveReaction_NeverDrivesACounterBelowZero(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "owner")
	srv.MustCreateUser(t, "fan")
	photo := domain.PhotoKey{Owner: "owner", Timestamp: apitest.Timestamp(1)}
	srv.WriteRaw(t, domain.Dataset{Reactions: []domain.Reaction{{Username: "fan", Type: domain.ReactionHeart, Photo: photo, Timestamp: photo.Timestamp}}})
	srv.MustUploadPhoto(t, photo.Owner, photo.Timestamp)

	if code := srv.RemoveReaction(t, "fan", photo.Owner, photo.Timestamp, "HEART").Code(); code == "" {
		t.Fatal("removing an uncounted reaction succeeded")
	}
	var got struct {
		Photo struct{ ReactionCounts struct{ Heart, Total int } }
	}
	srv.Query(t, `query($o: ID!, $t: String!) { photo(owner: $o, timestamp: $t) { reactionCounts { heart total } } }`,
		map[string]any{"o": photo.Owner, "t": photo.Timestamp}).Decode(t, &got)
	if got.Photo.ReactionCounts.Heart != 0 || got.Photo.ReactionCounts.Total != 0 {
		t.Fatalf("counters %+v, want them left at zero", got.Photo.ReactionCounts)
	}
	report, err := srv.Store.Check(context.Background())
	if err != nil || len(report.Problems) != 1 {
		t.Fatalf("check found %v (%v), want the one uncounted reaction", report.Problems, err)
	}
}

// TestUnfollow_NeverDrivesACounterBelowZero: the same for a friendship its profiles do not count.
func TestUnfollow_NeverDrivesACounterBelowZero(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "ann")
	srv.MustCreateUser(t, "bob")
	srv.WriteRaw(t, domain.Dataset{Friendships: []domain.Friendship{{Follower: "ann", Followed: "bob", Timestamp: apitest.Timestamp(1)}}})
	if code := srv.Unfollow(t, "ann", "bob").Code(); code == "" {
		t.Fatal("removing an uncounted friendship succeeded")
	}
	assertCounts(t, srv, "bob", 0, 0)
	assertCounts(t, srv, "ann", 0, 0)
}

// TestCheckAndRepair_WhatEarlierReleasesLeft: the check finds a reaction orphaned by the
// racing delete of earlier releases, a photo that does not count a reaction, and a profile
// that does not count a friendship; the repair fixes each, after which the undo paths work.
func TestCheckAndRepair_WhatEarlierReleasesLeft(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "owner")
	srv.MustCreateUser(t, "fan")
	gone := domain.PhotoKey{Owner: "owner", Timestamp: apitest.Timestamp(1)}
	kept := domain.PhotoKey{Owner: "owner", Timestamp: apitest.Timestamp(2)}
	srv.MustUploadPhoto(t, kept.Owner, kept.Timestamp)
	srv.WriteRaw(t, domain.Dataset{
		Reactions: []domain.Reaction{
			{Username: "fan", Type: domain.ReactionHeart, Photo: gone, Timestamp: apitest.Timestamp(3)},
			{Username: "fan", Type: domain.ReactionSmiley, Photo: kept, Timestamp: apitest.Timestamp(3)},
		},
		Friendships: []domain.Friendship{{Follower: "fan", Followed: "owner", Timestamp: apitest.Timestamp(3)}},
	})

	report, err := srv.Store.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []dynamo.Key{
		dynamo.ReactionKey(domain.ReactionKey{Username: "fan", Type: domain.ReactionHeart, Photo: gone}),
		dynamo.UserKey("fan"),
		dynamo.UserKey("owner"),
		dynamo.PhotoKey(kept),
	}
	var got []dynamo.Key
	for _, p := range report.Problems {
		if !p.Repairable() {
			t.Errorf("%s: not repairable", p)
		}
		got = append(got, p.Key)
	}
	if !slices.EqualFunc(sortedKeys(got), sortedKeys(want), func(a, b dynamo.Key) bool { return a == b }) {
		t.Fatalf("check found %v, want problems at %v", report.Problems, want)
	}
	if n, err := srv.Store.Repair(context.Background(), report); err != nil || n != len(want) {
		t.Fatalf("repaired %d (%v), want %d", n, err, len(want))
	}
	srv.MustBeConsistent(t)
	if resp := srv.RemoveReaction(t, "fan", kept.Owner, kept.Timestamp, "SMILEY"); len(resp.Errors) > 0 {
		t.Fatalf("remove the repaired reaction: %+v", resp.Errors)
	}
	if resp := srv.Unfollow(t, "fan", "owner"); len(resp.Errors) > 0 {
		t.Fatalf("unfollow the repaired friendship: %+v", resp.Errors)
	}
	srv.MustBeConsistent(t)

	t.Run("NeverUndoesAWriteMadeSinceTheCheck", func(t *testing.T) {
		srv := apitest.NewServer(t)
		srv.MustCreateUser(t, "owner")
		srv.MustCreateUser(t, "fan")
		srv.MustCreateUser(t, "other")
		srv.MustFollow(t, "other", "owner")
		srv.WriteRaw(t, domain.Dataset{Friendships: []domain.Friendship{{Follower: "fan", Followed: "owner", Timestamp: apitest.Timestamp(3)}}})
		report, err := srv.Store.Check(context.Background()) // owner: followers 1, followed by 2
		if err != nil {
			t.Fatal(err)
		}
		if resp := srv.Unfollow(t, "other", "owner"); len(resp.Errors) > 0 { // followers 0, followed by 1
			t.Fatalf("unfollow: %+v", resp.Errors)
		}
		if _, err := srv.Store.Repair(context.Background(), report); err != nil {
			t.Fatal(err)
		}
		// Setting followers to the 2 the check counted would undo the unfollow.
		assertCounts(t, srv, "owner", 0, 0)
	})
}

func sortedKeys(keys []dynamo.Key) []dynamo.Key {
	out := slices.Clone(keys)
	slices.SortFunc(out, func(a, b dynamo.Key) int {
		if a.PK != b.PK {
			return strings.Compare(a.PK, b.PK)
		}
		return strings.Compare(a.SK, b.SK)
	})
	return out
}
