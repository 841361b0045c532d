package api_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/media"
	"github.com/quickphotos/quickphotos/media/imaging"
	"github.com/quickphotos/quickphotos/ratelimit"
	"github.com/quickphotos/quickphotos/telemetry"
)

// TestCORS_RefusalsAreReadableAcrossOrigins: a web app on another origin can read the headers
// it must act on from the answers it gets: Retry-After on a 429 (when to retry), the
// WWW-Authenticate of a 401 (the token is bad: sign in again) and the request id to report.
// A browser shows a script only the headers CORS exposes, beside the safelisted few.
func TestCORS_RefusalsAreReadableAcrossOrigins(t *testing.T) {
	const origin = "https://app.example.com"
	srv, _ := rateLimited(t, ratelimit.Limits{Capacity: 20, RefillPerSecond: 1}, withCORSOrigins(origin))
	srv.MustCreateUsers(t, "alice")

	exposed := func(t *testing.T, h http.Header) []string {
		t.Helper()
		if got := h.Get("Access-Control-Allow-Origin"); got != origin {
			t.Fatalf("Access-Control-Allow-Origin %q, want %q", got, origin)
		}
		return exposedHeaders(h)
	}
	for _, tc := range []struct {
		name string
		resp func(t *testing.T) http.Header
		want []string
	}{
		{"a 429", func(t *testing.T) http.Header {
			refused := spend(t, srv.As(t, "alice").WithHeader("Origin", origin))
			if refused.Status != http.StatusTooManyRequests || refused.Header.Get("Retry-After") == "" {
				t.Fatalf("status %d, Retry-After %q: want a 429 with Retry-After", refused.Status, refused.Header.Get("Retry-After"))
			}
			return refused.Header
		}, []string{"Retry-After", telemetry.RequestIDHeader}},
		{"a 401", func(t *testing.T) http.Header {
			resp := srv.WithHeader("Authorization", "Bearer not-a-token").WithHeader("Origin", origin).Query(t, profileOf, map[string]any{"u": "alice"})
			if resp.Status != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") == "" {
				t.Fatalf("status %d, WWW-Authenticate %q: want a 401 with WWW-Authenticate", resp.Status, resp.Header.Get("WWW-Authenticate"))
			}
			return resp.Header
		}, []string{"Www-Authenticate", telemetry.RequestIDHeader}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := exposed(t, tc.resp(t))
			for _, w := range tc.want {
				if !slices.Contains(got, http.CanonicalHeaderKey(w)) {
					t.Errorf("Access-Control-Expose-Headers %v lacks %s", got, w)
				}
			}
		})
	}
}

func withCORSOrigins(origins ...string) apitest.Option {
	return apitest.WithConfig(func(c *api.Config) { c.CORSOrigins = origins })
}

// TestCORS_UploadAnswersAreReadableAcrossOrigins: a web app that posts an upload form to the
// embedded store with fetch reads its answer as from S3 with the bucket's CORS rules
// (deploy/template.yaml exposes ETag): the origin is allowed and the ETag exposed.
func TestCORS_UploadAnswersAreReadableAcrossOrigins(t *testing.T) {
	const origin = "https://app.example.com"
	srv := apitest.NewServer(t, apitest.WithAuth(), apitest.WithMedia(media.Config{}), withCORSOrigins(origin))
	srv.MustCreateUser(t, "alice")
	file := imaging.Sample("alice#cors", 64, 48)
	form := srv.MustCreatePhotoUpload(t, "alice", "image/jpeg", len(file))
	resp, body := postUnfollowed(t, form, file, http.Header{"Origin": {origin}})
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("ETag") == "" {
		t.Fatalf("answered %d %s, ETag %q: want 204 with an ETag", resp.StatusCode, body, resp.Header.Get("ETag"))
	}
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != origin {
		t.Errorf("Access-Control-Allow-Origin %q, want %q", got, origin)
	}
	if got := exposedHeaders(resp.Header); !slices.Contains(got, http.CanonicalHeaderKey("ETag")) {
		t.Errorf("Access-Control-Expose-Headers %v lacks ETag", got)
	}
}

// exposedHeaders are the names Access-Control-Expose-Headers lists, canonical.
func exposedHeaders(h http.Header) []string {
	var names []string
	for _, v := range h.Values("Access-Control-Expose-Headers") {
		for _, name := range strings.Split(v, ",") {
			names = append(names, http.CanonicalHeaderKey(strings.TrimSpace(name)))
		}
	}
	return names
}
