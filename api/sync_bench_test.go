package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/feed"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

// BenchmarkSyncCatchUp: what a device pays to come back after 1% of a 10,000-object scope
// changed, beside reading the whole scope again. ann's scope: 4,000 photos of her own, 50
// users she follows (50 profiles, 50 follows) whose 5,000 photos are in her feed, and 900
// reactions she made; the change: 50 new photos in her feed, 25 reactions to her photos, 25
// profile edits of users she follows. Reported per operation: the catch-up's DynamoDB requests
// and response bytes (pages of 100 changes with the fields the full read asks for), the full
// read's, and the catch-up's bytes as a share of the full read's. Results and the command are
// in docs/benchmarks.md:
//
//	go test -run '^$' -bench BenchmarkSyncCatchUp -benchtime 3x ./api/
func BenchmarkSyncCatchUp(b *testing.B) {
	srv := apitest.NewServer(b, apitest.WithAuth(), apitest.WithFeed(feed.Config{}), apitest.WithStreamPoll(servesStreamPoll), servesBatchWait)
	ctx := context.Background()
	s := srv.Store
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	_, err := s.CreateUser(ctx, "ann", domain.Profile{})
	must(err)
	ts := func(i int) string {
		return fmt.Sprintf("2024-%02d-%02dT%02d:%02d:%02d", 1+i/(28*86400)%12, 1+i/86400%28, i/3600%24, i/60%60, i%60)
	}
	for i := range 4000 {
		_, err := s.UploadPhoto(ctx, domain.Photo{Owner: "ann", Timestamp: ts(i), URL: "https://cdn.example.com/ann.jpg"})
		must(err)
	}
	followed := make([]string, 50)
	for i := range followed {
		followed[i] = fmt.Sprintf("f%02d", i)
		_, err := s.CreateUser(ctx, followed[i], domain.Profile{})
		must(err)
		_, err = s.Follow(ctx, domain.FriendshipKey{Follower: "ann", Followed: followed[i]})
		must(err)
	}
	for i := range 5000 {
		owner := followed[i%50]
		_, err := s.UploadPhoto(ctx, domain.Photo{Owner: owner, Timestamp: ts(10000 + i), URL: "https://cdn.example.com/f.jpg"})
		must(err)
		if i < 900 {
			_, err = s.React(ctx, domain.ReactionKey{Username: "ann", Type: domain.ReactionHeart, Photo: domain.PhotoKey{Owner: owner, Timestamp: ts(10000 + i)}})
			must(err)
		}
	}
	ann := srv.As(b, "ann")
	apitest.Eventually(b, "ann's feed filled", func() (bool, string) {
		n := 0
		for p := (domain.PageRequest{First: 100}); ; {
			page, err := s.Feed(ctx, "ann", p)
			if err != nil {
				return false, err.Error()
			}
			n += len(page.Items)
			if !page.HasNextPage {
				break
			}
			p.After = page.Cursors[len(page.Cursors)-1]
		}
		return n == 5000, fmt.Sprint(n, " photos")
	})

	var full, catchUp measure
	for round := 0; round < b.N; round++ {
		// The full read: the profile, then every list of the scope, 100 at a time.
		full = measure{}
		full.add(b, ann, `query { viewer { username name version followerCount followingCount } }`, nil)
		for _, list := range []string{"photos", "feed", "following", "reactions"} {
			readAll(b, ann, &full, list)
		}
		start := postAsAnn(b, ann, `query { viewer { changes { cursor } } }`, nil)
		var c struct {
			Data struct {
				Viewer struct{ Changes struct{ Cursor string } }
			}
		}
		must(json.Unmarshal(start.body, &c))
		cursor := c.Data.Viewer.Changes.Cursor

		// 1% changes.
		for i := range 50 {
			_, err := s.UploadPhoto(ctx, domain.Photo{Owner: followed[i], Timestamp: ts(100000 + round*100 + i), URL: "https://cdn.example.com/new.jpg"})
			must(err)
		}
		for i := range 25 {
			u := fmt.Sprintf("r%d-%02d", round, i)
			_, err := s.CreateUser(ctx, u, domain.Profile{})
			must(err)
			_, err = s.React(ctx, domain.ReactionKey{Username: u, Type: domain.ReactionSmiley, Photo: domain.PhotoKey{Owner: "ann", Timestamp: ts(i)}})
			must(err)
			status := fmt.Sprintf("round %d", round)
			_, err = s.UpdateUser(ctx, followed[i], domain.ProfileChanges{Set: map[domain.ProfileField]any{domain.FieldStatus: status}})
			must(err)
		}
		// The feed's 50 photos, the 25 reactions, the 25 photos they count, the 25 edits.
		want := 50 + 25 + 25 + 25
		catchUp = measure{}
		apitest.Eventually(b, "the changes logged", func() (bool, string) {
			catchUp = measure{}
			n, more, after := 0, true, cursor
			for more {
				resp := catchUp.add(b, ann, syncPageQuery, map[string]any{"after": after})
				var p struct {
					Data struct {
						Viewer struct {
							Changes struct {
								Edges    []json.RawMessage
								PageInfo struct{ HasNextPage bool }
								Cursor   string
							}
						}
					}
				}
				must(json.Unmarshal(resp.body, &p))
				n += len(p.Data.Viewer.Changes.Edges)
				more, after = p.Data.Viewer.Changes.PageInfo.HasNextPage, p.Data.Viewer.Changes.Cursor
			}
			return n >= want, fmt.Sprint(n, " changes")
		})
	}
	b.ReportMetric(float64(full.requests), "full-requests")
	b.ReportMetric(float64(full.pages), "full-pages")
	b.ReportMetric(float64(full.bytes), "full-bytes")
	b.ReportMetric(float64(catchUp.requests), "catchup-requests")
	b.ReportMetric(float64(catchUp.pages), "catchup-pages")
	b.ReportMetric(float64(catchUp.bytes), "catchup-bytes")
	b.ReportMetric(100*float64(catchUp.bytes)/float64(full.bytes), "catchup-%-of-full")
}

// syncPageQuery is a page of changes with the fields the full read asks for.
const syncPageQuery = `query($after: String) { viewer { changes(after: $after, first: 100) {
  edges { node { objectId operation node { id
    ... on User { username name status version followerCount followingCount }
    ... on Photo { url timestamp reactionCounts { total } owner { username } }
    ... on Reaction { type timestamp photo { id } }
    ... on Friendship { timestamp followed { username name status version } } } } }
  pageInfo { hasNextPage } cursor } } }`

// readAll pages through one list of the viewer's scope, 100 at a time.
func readAll(b *testing.B, srv *apitest.Server, m *measure, list string) {
	fields := map[string]string{
		"photos":    `url timestamp reactionCounts { total }`,
		"feed":      `url timestamp reactionCounts { total } owner { username }`,
		"following": `timestamp followed { username name status version }`,
		"reactions": `type timestamp photo { id }`,
	}[list]
	q := fmt.Sprintf(`query($after: String) { viewer { %s(first: 100, after: $after) { edges { node { id %s } } pageInfo { hasNextPage endCursor } } } }`, list, fields)
	for after := ""; ; {
		vars := map[string]any{}
		if after != "" {
			vars["after"] = after
		}
		resp := m.add(b, srv, q, vars)
		var p struct {
			Data struct {
				Viewer map[string]struct {
					PageInfo struct {
						HasNextPage bool
						EndCursor   string
					}
				}
			}
		}
		if err := json.Unmarshal(resp.body, &p); err != nil {
			b.Fatal(err)
		}
		info := p.Data.Viewer[list].PageInfo
		if !info.HasNextPage {
			return
		}
		after = info.EndCursor
	}
}

// measure adds up what a series of requests cost.
type measure struct {
	requests, pages, bytes int
}

type rawResponse struct {
	body     []byte
	requests int
}

func (m *measure) add(b *testing.B, srv *apitest.Server, query string, vars map[string]any) rawResponse {
	r := postAsAnn(b, srv, query, vars)
	m.requests += r.requests
	m.pages++
	m.bytes += len(r.body)
	return r
}

// postAsAnn sends an operation as ann and returns the raw body, failing on errors.
func postAsAnn(b *testing.B, srv *apitest.Server, query string, vars map[string]any) rawResponse {
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest(http.MethodPost, srv.URL+api.Endpoint, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+srv.Token(b, "ann"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		b.Fatal(err)
	}
	if bytes.Contains(raw, []byte(`"errors"`)) {
		b.Fatalf("%s: %s", query, raw)
	}
	// The cost extension would add to the bytes measured: the requests are counted by
	// sending the operation again with it.
	return rawResponse{body: raw, requests: requestsOf(b, srv, query, vars)}
}

// requestsOf sends the operation again with the cost header and returns its request count.
func requestsOf(b *testing.B, srv *apitest.Server, query string, vars map[string]any) int {
	return srv.As(b, "ann").Query(b, query, vars).Cost(b).Requests
}
