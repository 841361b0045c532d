package api_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/feed"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/live"
)

// Benchmarks of the feed and of live updates on the embedded engine, with serve's stream
// polling (servesStreamPoll). Lags include the upload's own round trip. Results and their
// command are in docs/benchmarks.md:
//
//	go test -run '^$' -bench 'BenchmarkFeed|BenchmarkLive' -benchtime 100x ./api/

// servesStreamPoll is serve's stream polling on the embedded store (its --stream-poll default
// there; stream.DefaultPoll is DynamoDB Streams').
const servesStreamPoll = 50 * time.Millisecond

// servesBatchWait gives a benchmark's server serve's dataloader window on the embedded store
// (--batch-wait's default there), not the tests' longer one.
var servesBatchWait = apitest.WithConfig(func(c *api.Config) { c.BatchWait = time.Millisecond })

// newFeedServer is a server with 50 followers of "author", and reader00's feed filled with
// 20 of author's photos.
func newFeedServer(b *testing.B, opts ...apitest.Option) *apitest.Server {
	srv := apitest.NewServer(b, append([]apitest.Option{apitest.WithFeed(feed.Config{}), apitest.WithStreamPoll(servesStreamPoll), servesBatchWait}, opts...)...)
	srv.MustCreateUser(b, "author")
	for i := 0; i < 50; i++ {
		reader := fmt.Sprintf("reader%02d", i)
		srv.MustCreateUser(b, reader)
		srv.MustFollow(b, reader, "author")
	}
	for i := 0; i < 20; i++ {
		srv.MustUploadPhoto(b, "author", fmt.Sprintf("2024-01-01T00:00:%02dZ", i))
	}
	apitest.Eventually(b, "reader00's feed filled", func() (bool, string) {
		page, err := srv.Store.Feed(context.Background(), "reader00", domain.PageRequest{First: 20})
		return err == nil && len(page.Items) == 20, fmt.Sprint(len(page.Items), err)
	})
	return srv
}

// reportLags reports the p50 and p99 of lags.
func reportLags(b *testing.B, lags []time.Duration) {
	slices.Sort(lags)
	b.ReportMetric(float64(lags[len(lags)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lags[len(lags)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkFeedPage reads a page of 20 photos of a feed with their owners and reaction counts
// (1 Query, 2 BatchGetItems), reporting its latency.
func BenchmarkFeedPage(b *testing.B) {
	srv := newFeedServer(b)
	q := `{ user(username: "reader00") { feed(first: 20) { edges { node { url timestamp owner { name } reactionCounts { total } } } } } }`
	lags := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		resp := srv.Query(b, q, nil)
		lags = append(lags, time.Since(start))
		if len(resp.Errors) > 0 {
			b.Fatal(resp.Errors)
		}
	}
	b.StopTimer()
	reportLags(b, lags)
}

// BenchmarkFeedLag uploads a photo of a user with 50 followers and reads one follower's feed
// every millisecond until the photo is there (the goal: p99 under 1 s).
func BenchmarkFeedLag(b *testing.B) {
	srv := newFeedServer(b)
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
	reportLags(b, lags)
}

// BenchmarkLiveLag uploads a photo and waits for a follower's feedPhotoAdded subscription over
// graphql-ws to deliver it: upload, stream, fan-out, stream again, hub, WebSocket.
func BenchmarkLiveLag(b *testing.B) {
	srv := newFeedServer(b, apitest.WithAuth(), apitest.WithLive(live.Config{}))
	ws := srv.DialWS(b, srv.Token(b, "reader07"))
	ws.Subscribe(b, "f", `subscription { feedPhotoAdded { timestamp } }`, nil)
	author := srv.As(b, "author")
	lags := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ts := fmt.Sprintf("2025-02-01T00:%02d:%02dZ", i/60%60, i%60)
		start := time.Now()
		author.MustUploadPhoto(b, "author", ts)
		for {
			resp, ended := ws.Next(b, "f")
			if ended {
				b.Fatal("the subscription ended")
			}
			var got struct{ FeedPhotoAdded struct{ Timestamp string } }
			resp.Decode(b, &got)
			if got.FeedPhotoAdded.Timestamp == ts {
				break
			}
		}
		lags = append(lags, time.Since(start))
	}
	b.StopTimer()
	reportLags(b, lags)
}

// BenchmarkLiveEvents measures how many events one instance delivers a second: 100 graphql-ws
// subscribers of one profile, which b.N updates change; it reports events/s delivered to
// clients, counted when every subscriber has every event.
func BenchmarkLiveEvents(b *testing.B) {
	srv := apitest.NewServer(b, apitest.WithLive(live.Config{}), apitest.WithStreamPoll(servesStreamPoll))
	srv.MustCreateUser(b, "star")
	const subscribers = 100
	var wg sync.WaitGroup
	clients := make([]*apitest.WS, subscribers)
	for i := range clients {
		clients[i] = srv.DialWS(b, "")
		clients[i].Subscribe(b, "u", `subscription { userChanged(username: "star") { kind user { status } } }`, nil)
	}
	b.ResetTimer()
	start := time.Now()
	for _, ws := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < b.N; i++ {
				if _, ended := ws.Next(b, "u"); ended {
					b.Error("a subscription ended")
					return
				}
			}
		}()
	}
	for i := 0; i < b.N; i++ {
		srv.Query(b, `mutation($s: String!) { updateUser(username: "star", input: {status: $s}) { status } }`, map[string]any{"s": fmt.Sprint(i)})
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(subscribers*b.N)/time.Since(start).Seconds(), "events/s")
}
