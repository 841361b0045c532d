package floor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"golang.org/x/sync/errgroup"

	"github.com/quickphotos/quickphotos/loadtest"
)

// Recording is a server's answers to the load tool's requests.
type Recording struct {
	// reads are the answers to reads, by request body.
	reads map[string]Answer
	// writes are one answer to each mutation's document, by documentKey.
	writes map[string]Answer
}

// Answer is one recorded HTTP answer.
type Answer struct {
	ContentType string
	Body        []byte
}

// Len is how many answers the recording holds.
func (r *Recording) Len() int { return len(r.reads) + len(r.writes) }

// recorders is how many reads Record has in flight at once.
const recorders = 8

// Record sends every request of reqs to the GraphQL endpoint at target, which must be on a
// loopback address, and keeps each answer: the reads a few at a time, then the mutations one
// by one in order. Every one must succeed: an HTTP status other than 200, or a GraphQL error,
// ends the recording with an error naming the request.
func Record(ctx context.Context, hc *http.Client, target string, reqs []loadtest.Request) (*Recording, error) {
	if err := loopbackOnly(target); err != nil {
		return nil, err
	}
	answers := make([]Answer, len(reqs))
	record := func(i int) error {
		a, err := fetch(ctx, hc, target, reqs[i].Body)
		if err != nil {
			return fmt.Errorf("recording %s %.200s: %w", reqs[i].Op, reqs[i].Body, err)
		}
		answers[i] = a
		return nil
	}
	var g errgroup.Group
	g.SetLimit(recorders)
	for i, req := range reqs {
		if !req.Write {
			g.Go(func() error { return record(i) })
		}
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	rec := &Recording{reads: map[string]Answer{}, writes: map[string]Answer{}}
	for i, req := range reqs {
		if !req.Write {
			rec.reads[string(req.Body)] = answers[i]
			continue
		}
		if err := record(i); err != nil {
			return nil, err
		}
		key, ok := documentKey(req.Body)
		if !ok {
			return nil, fmt.Errorf("recording %s: no query at the start of %.200s", req.Op, req.Body)
		}
		rec.writes[string(key)] = answers[i]
	}
	return rec, nil
}

// fetch posts body to target and returns its answer, an error unless it is a GraphQL answer
// without errors.
func fetch(ctx context.Context, hc *http.Client, target string, body []byte) (Answer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return Answer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return Answer{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return Answer{}, err
	}
	if resp.StatusCode != http.StatusOK {
		return Answer{}, fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, raw)
	}
	var r struct {
		Data   json.RawMessage `json:"data"`
		Errors []any           `json:"errors"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || len(r.Data) == 0 || len(r.Errors) > 0 {
		return Answer{}, fmt.Errorf("not an answer without errors: %.200s", raw)
	}
	return Answer{ContentType: resp.Header.Get("Content-Type"), Body: raw}, nil
}
