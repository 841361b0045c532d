package api_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/feed"
	"github.com/quickphotos/quickphotos/internal/apitest"
	"github.com/quickphotos/quickphotos/stream"
)

// BenchmarkFeedLag measures how long an uploaded photo takes to reach a follower's feed, on
// the embedded engine with serve's stream polling (stream.DefaultPoll): each iteration uploads
// a photo of a user with 50 followers and reads one follower's feed every millisecond until
// the photo is there. It reports the p50 and p99 of that lag (the goal: p99 under 1 s).
//
//	go test -run '^$' -bench BenchmarkFeedLag -benchtime 100x ./api/
func BenchmarkFeedLag(b *testing.B) {
	srv := apitest.NewServer(b, apitest.WithFeed(feed.Config{}), apitest.WithStreamPoll(stream.DefaultPoll))
	srv.MustCreateUser(b, "author")
	for i := 0; i < 50; i++ {
		reader := fmt.Sprintf("reader%02d", i)
		srv.MustCreateUser(b, reader)
		srv.MustFollow(b, reader, "author")
	}
	q := `{ user(username: "reader49") { feed(first: 1) { edges { node { timestamp } } } } }`
	lags := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ts := fmt.Sprintf("2025-01-01T00:%02d:%02dZ", i/60%60, i%60)
		start := time.Now()
		srv.MustUploadPhoto(b, "author", ts)
		for {
			var got struct {
				User struct {
					Feed struct {
						Edges []struct{ Node struct{ Timestamp string } }
					}
				}
			}
			srv.Query(b, q, nil).Decode(b, &got)
			if e := got.User.Feed.Edges; len(e) == 1 && e[0].Node.Timestamp == ts {
				break
			}
			if time.Since(start) > 30*time.Second {
				b.Fatalf("photo %s not in the feed after 30s", ts)
			}
			time.Sleep(time.Millisecond)
		}
		lags = append(lags, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lags)
	b.ReportMetric(float64(lags[len(lags)/2].Milliseconds()), "p50-ms")
	b.ReportMetric(float64(lags[len(lags)*99/100].Milliseconds()), "p99-ms")
}
