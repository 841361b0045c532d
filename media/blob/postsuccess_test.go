package blob_test

import (
	"context"
	"encoding/xml"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/media/blob"
)

// TestStore_UploadSuccess: a form asks how its POST is answered once the file is stored, as
// S3's success_action_redirect and success_action_status do, and both stores answer alike: a
// 303 to the page with the bucket, key and ETag in its query, a 200 with no body, a 201 with
// S3's PostResponse, or, unasked, 204. The fields are in the policy: a client that changes or
// adds one is refused, and nothing is stored.
func TestStore_UploadSuccess(t *testing.T) {
	ctx := context.Background()
	const redirect = "https://app.example.com/uploaded?upload=u1"
	for _, sc := range stores {
		t.Run(sc.name, func(t *testing.T) {
			s := sc.open(t)
			presign := func(t *testing.T, key string, success blob.PostSuccess) blob.PostForm {
				t.Helper()
				form, err := s.PresignPost(ctx, key, "image/jpeg", 100, time.Now().Add(10*time.Minute), success)
				if err != nil {
					t.Fatal(err)
				}
				return form
			}
			// quotedETag is the stored object's ETag as S3 writes it in its answers.
			quotedETag := func(t *testing.T, key string) string {
				t.Helper()
				a, err := s.Attributes(ctx, key)
				if err != nil {
					t.Fatalf("the upload stored nothing: %v", err)
				}
				return `"` + a.ETag + `"`
			}

			for _, tc := range []struct {
				name    string
				success blob.PostSuccess
				status  int
			}{
				{"Unasked", blob.PostSuccess{}, http.StatusNoContent},
				{"Status200", blob.PostSuccess{Status: 200}, http.StatusOK},
				{"Status201", blob.PostSuccess{Status: 201}, http.StatusCreated},
				{"Redirect", blob.PostSuccess{Redirect: redirect}, http.StatusSeeOther},
				{"RedirectOverStatus", blob.PostSuccess{Status: 201, Redirect: redirect}, http.StatusSeeOther},
			} {
				t.Run(tc.name, func(t *testing.T) {
					key := "staging/alice/" + strings.ToLower(tc.name)
					resp, body := postNoFollow(t, presign(t, key, tc.success), photo(10), nil)
					if resp.StatusCode != tc.status {
						t.Fatalf("answered %d %s, want %d", resp.StatusCode, body, tc.status)
					}
					etag := quotedETag(t, key)
					switch tc.status {
					case http.StatusSeeOther:
						loc, err := url.Parse(resp.Header.Get("Location"))
						if err != nil || !strings.HasPrefix(loc.String(), "https://app.example.com/uploaded?") {
							t.Fatalf("Location %q, want the redirect's page", resp.Header.Get("Location"))
						}
						q := loc.Query()
						if q.Get("upload") != "u1" || !strings.HasSuffix(q.Get("key"), key) || q.Get("etag") != etag || !q.Has("bucket") {
							t.Errorf("redirected to %s: want its own query, and bucket, key ending in %s, etag %s", loc, key, etag)
						}
					case http.StatusCreated:
						var r struct {
							XMLName                     xml.Name `xml:"PostResponse"`
							Location, Bucket, Key, ETag string
						}
						if err := xml.Unmarshal(body, &r); err != nil {
							t.Fatalf("201 body %q: %v", body, err)
						}
						if r.Location == "" || !strings.HasSuffix(r.Key, key) || r.ETag != etag {
							t.Errorf("PostResponse %+v: want a Location, the key ending in %s, ETag %s", r, key, etag)
						}
					default:
						if len(body) != 0 {
							t.Errorf("%d with a body %q, want none", resp.StatusCode, body)
						}
						if got := resp.Header.Get("ETag"); got != etag {
							t.Errorf("ETag %q, want %s", got, etag)
						}
					}
				})
			}

			for _, tc := range []struct {
				name    string
				success blob.PostSuccess
				edit    func(f map[string]string)
			}{
				{"ErrAlteredStatus", blob.PostSuccess{Status: 201}, func(f map[string]string) { f["success_action_status"] = "200" }},
				{"ErrAddedStatus", blob.PostSuccess{}, func(f map[string]string) { f["success_action_status"] = "201" }},
				{"ErrAlteredRedirect", blob.PostSuccess{Redirect: redirect}, func(f map[string]string) { f["success_action_redirect"] = "https://evil.example/" }},
				{"ErrAddedRedirect", blob.PostSuccess{Status: 200}, func(f map[string]string) { f["success_action_redirect"] = "https://evil.example/" }},
			} {
				t.Run(tc.name, func(t *testing.T) {
					key := "staging/alice/" + strings.ToLower(tc.name)
					resp, body := postNoFollow(t, presign(t, key, tc.success), photo(10), tc.edit)
					if resp.StatusCode != http.StatusForbidden || errorCode(string(body)) != "AccessDenied" {
						t.Errorf("answered %d %s, want 403 AccessDenied", resp.StatusCode, body)
					}
					assertAbsent(t, s, key)
				})
			}

			t.Run("ErrArguments", func(t *testing.T) {
				for _, success := range []blob.PostSuccess{{Status: 204}, {Status: 302}, {Redirect: "/uploaded"}, {Redirect: "javascript:alert(1)"}} {
					if _, err := s.PresignPost(ctx, "staging/alice/args", "image/jpeg", 10, time.Now().Add(time.Minute), success); !errors.Is(err, blob.ErrInvalidArgument) {
						t.Errorf("PresignPost with %+v: %v, want ErrInvalidArgument", success, err)
					}
				}
			})
		})
	}
}
