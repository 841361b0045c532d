package api_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

// TestConcurrentWritesKeepCountersExact races writes on the same counters: transactions
// (retried on conflict) must neither lose nor double an increment.
func TestConcurrentWritesKeepCountersExact(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "star")
	const n = 16
	for i := 0; i < n; i++ {
		srv.MustCreateUser(t, fmt.Sprintf("fan%02d", i))
	}
	ts := apitest.Timestamp(1)
	srv.MustUploadPhoto(t, "star", ts)

	var wg sync.WaitGroup
	errs := make(chan string, 4*n)
	for i := 0; i < n; i++ {
		fan := fmt.Sprintf("fan%02d", i)
		wg.Add(2)
		go func() {
			defer wg.Done()
			if resp := srv.Query(t, follow, map[string]any{"a": fan, "b": "star"}); len(resp.Errors) > 0 {
				errs <- fmt.Sprintf("follow %s: %+v", fan, resp.Errors)
			}
		}()
		go func() {
			defer wg.Done()
			if resp := srv.React(t, fan, "star", ts, "HEART"); len(resp.Errors) > 0 {
				errs <- fmt.Sprintf("react %s: %+v", fan, resp.Errors)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	assertCounts(t, srv, "star", n, 0)
	var got struct {
		Photo struct{ ReactionCounts counts }
	}
	srv.Query(t, `query($t: String!) { photo(owner: "star", timestamp: $t) { reactionCounts { heart total } } }`, map[string]any{"t": ts}).Decode(t, &got)
	if got.Photo.ReactionCounts.Heart != n {
		t.Fatalf("hearts %d, want %d", got.Photo.ReactionCounts.Heart, n)
	}

	t.Run("SameReactionRacingOnlyOneWins", func(t *testing.T) {
		results := make(chan string, n)
		var wg sync.WaitGroup
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results <- srv.React(t, "fan00", "star", ts, "SMILEY").Code()
			}()
		}
		wg.Wait()
		close(results)
		ok, conflicts := 0, 0
		for code := range results {
			switch code {
			case "":
				ok++
			case "CONFLICT":
				conflicts++
			default:
				t.Errorf("unexpected code %q", code)
			}
		}
		if ok != 1 || conflicts != n-1 {
			t.Fatalf("%d succeeded and %d conflicted, want 1 and %d", ok, conflicts, n-1)
		}
		var got struct {
			Photo struct{ ReactionCounts counts }
		}
		srv.Query(t, `query($t: String!) { photo(owner: "star", timestamp: $t) { reactionCounts { smiley } } }`, map[string]any{"t": ts}).Decode(t, &got)
		if got.Photo.ReactionCounts.Smiley != 1 {
			t.Fatalf("smileys %d, want 1", got.Photo.ReactionCounts.Smiley)
		}
	})
}
