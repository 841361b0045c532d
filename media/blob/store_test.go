package blob_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/internal/testkit/versitygw"
	"github.com/quickphotos/quickphotos/media/blob"
)

// stores are the stores under test, each reachable over real HTTP on 127.0.0.1: the embedded
// store behind an httptest server, and an S3Store over a versitygw gateway, which checks SigV4
// signatures and POST policies itself. Each subtest opens its own, so a missing versitygw skips
// only the S3 half.
var stores = []struct {
	name string
	open func(t *testing.T) blob.Store
}{
	{"file", func(t *testing.T) blob.Store { return openFileStore(t, t.TempDir()) }},
	{"s3", func(t *testing.T) blob.Store { return openS3Store(t) }},
}

func openFileStore(t testing.TB, dir string, opts ...blob.FileStoreOption) *blob.FileStore {
	t.Helper()
	var base string
	fs, err := blob.OpenFileStore(dir, func() string { return base }, opts...)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle(blob.FileStorePath, fs.Handler())
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	base = srv.URL
	return fs
}

func openS3Store(t *testing.T) *blob.S3Store {
	t.Helper()
	gw := versitygw.Start(t)
	bucket := gw.CreateBucket(t, "photos")
	return blob.NewS3Store(gw.Client(), bucket, "quickphotos/")
}

// post sends form as a browser does: multipart/form-data, the fields, then the file last.
// edit, if not nil, changes the fields first.
func post(t *testing.T, form blob.PostForm, data []byte, edit func(fields map[string]string)) (status int, body string) {
	t.Helper()
	resp, b := postNoFollow(t, form, data, edit)
	return resp.StatusCode, string(b)
}

// postNoFollow sends form as post does, but returns the answer as it is, a redirect unfollowed
// (the redirect's page is no part of the store).
func postNoFollow(t *testing.T, form blob.PostForm, data []byte, edit func(fields map[string]string)) (*http.Response, []byte) {
	t.Helper()
	fields := map[string]string{}
	for k, v := range form.Fields {
		fields[k] = v
	}
	if edit != nil {
		edit(fields)
	}
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, k := range names {
		mw.WriteField(k, fields[k])
	}
	fw, err := mw.CreateFormFile("file", "photo.jpg")
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	mw.Close()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Post(form.URL, mw.FormDataContentType(), &buf)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

func get(t *testing.T, u string, header http.Header) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

func errorCode(body string) string {
	var e struct{ Code string }
	xml.Unmarshal([]byte(body), &e)
	return e.Code
}

func readAll(t *testing.T, s blob.Store, key string) []byte {
	t.Helper()
	r, err := s.NewReader(context.Background(), key, 1<<20)
	if err != nil {
		t.Fatalf("NewReader(%s): %v", key, err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func assertAbsent(t *testing.T, s blob.Store, key string) {
	t.Helper()
	if _, err := s.Attributes(context.Background(), key); !errors.Is(err, blob.ErrNotFound) {
		t.Errorf("Attributes(%s) = %v, want ErrNotFound: a refused upload must store nothing", key, err)
	}
}

// photo is a recognisable payload of n bytes.
func photo(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/251)
	}
	return b
}

// TestStore_Upload runs every upload scenario against both stores: what one accepts and
// refuses, the other does too, so a client cannot tell them apart.
func TestStore_Upload(t *testing.T) {
	ctx := context.Background()
	for _, sc := range stores {
		t.Run(sc.name, func(t *testing.T) {
			s := sc.open(t)
			const max = 4096
			presign := func(t *testing.T, key string) blob.PostForm {
				t.Helper()
				form, err := s.PresignPost(ctx, key, "image/jpeg", max, time.Now().Add(10*time.Minute), blob.PostSuccess{})
				if err != nil {
					t.Fatal(err)
				}
				if form.MaxBytes != max || form.Fields["Content-Type"] != "image/jpeg" || form.Fields["key"] == "" {
					t.Fatalf("form = %+v", form)
				}
				return form
			}

			t.Run("OK", func(t *testing.T) {
				key := "staging/alice/upload-ok"
				data := photo(max)
				if status, body := post(t, presign(t, key), data, nil); status/100 != 2 {
					t.Fatalf("upload: %d %s", status, body)
				}
				a, err := s.Attributes(ctx, key)
				if err != nil {
					t.Fatal(err)
				}
				if a.Size != max || a.ContentType != "image/jpeg" || len(a.ETag) < 32 {
					t.Errorf("Attributes = %+v", a)
				}
				if got := readAll(t, s, key); !bytes.Equal(got, data) {
					t.Errorf("read back %d bytes, not the %d uploaded", len(got), len(data))
				}
				u, err := s.SignedURL(ctx, key, time.Now().Add(time.Hour))
				if err != nil {
					t.Fatal(err)
				}
				resp, body := get(t, u, nil)
				if resp.StatusCode != http.StatusOK || !bytes.Equal(body, data) || resp.Header.Get("Content-Type") != "image/jpeg" {
					t.Errorf("signed GET: %d %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
				}
				if etag := resp.Header.Get("ETag"); strings.Trim(etag, `"`) != a.ETag {
					t.Errorf("signed GET ETag %s, Attributes %s", etag, a.ETag)
				}
				// A URL depends on its key and expiry alone, whenever it is asked for: the media
				// service asks for one expiry per window, and browsers and CDNs cache by URL.
				expires := time.Now().Add(time.Hour).Truncate(time.Second)
				first, err := s.SignedURL(ctx, key, expires)
				if err != nil {
					t.Fatal(err)
				}
				time.Sleep(1100 * time.Millisecond) // into the next second, which a signing date counts
				if again, err := s.SignedURL(ctx, key, expires); err != nil || again != first {
					t.Errorf("the same key and expiry a second later: %q, %v; want %q", again, err, first)
				}
				if resp, _ := get(t, first, nil); resp.StatusCode != http.StatusOK {
					t.Errorf("signed GET of a URL for a fixed expiry: %d", resp.StatusCode)
				}
			})

			refusals := []struct {
				name   string
				data   []byte
				edit   func(f map[string]string)
				status int
				code   string
			}{
				{"ErrTooLarge", photo(max + 1), nil, 400, "EntityTooLarge"},
				{"ErrEmpty", nil, nil, 400, "EntityTooSmall"},
				{"ErrAlteredSignature", photo(10), func(f map[string]string) { f[sigField(f)] = flipHex(f[sigField(f)]) }, 403, "SignatureDoesNotMatch"},
				{"ErrAlteredPolicy", photo(10), func(f map[string]string) {
					doc, _ := base64.StdEncoding.DecodeString(f["policy"])
					f["policy"] = base64.StdEncoding.EncodeToString(bytes.Replace(doc, []byte("4096"), []byte("9999"), 1))
				}, 403, "SignatureDoesNotMatch"},
				{"ErrOtherKey", photo(10), func(f map[string]string) { f["key"] = strings.Replace(f["key"], "alice", "mallory", 1) }, 403, "AccessDenied"},
				{"ErrDotDotKey", photo(10), func(f map[string]string) { f["key"] = "staging/alice/../mallory/errdotdotkey" }, 403, "AccessDenied"},
				{"ErrSlashInKey", photo(10), func(f map[string]string) { f["key"] += "/more" }, 403, "AccessDenied"},
				{"ErrWrongContentType", photo(10), func(f map[string]string) { f["Content-Type"] = "text/html" }, 403, "AccessDenied"},
				{"ErrExtraField", photo(10), func(f map[string]string) { f["x-amz-meta-owner"] = "mallory" }, 403, "AccessDenied"},
				{"ErrNoSignature", photo(10), func(f map[string]string) { delete(f, sigField(f)) }, 400, "InvalidArgument"},
			}
			for _, tc := range refusals {
				t.Run(tc.name, func(t *testing.T) {
					key := "staging/alice/" + strings.ToLower(tc.name)
					status, body := post(t, presign(t, key), tc.data, tc.edit)
					if status != tc.status || errorCode(body) != tc.code {
						t.Errorf("upload answered %d %s, want %d %s", status, body, tc.status, tc.code)
					}
					assertAbsent(t, s, key)
					assertAbsent(t, s, strings.Replace(key, "alice", "mallory", 1))
				})
			}

			t.Run("ErrExpired", func(t *testing.T) {
				key := "staging/alice/expired"
				expires := time.Now().Add(time.Second)
				form, err := s.PresignPost(ctx, key, "image/jpeg", max, expires, blob.PostSuccess{})
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Write(ctx, "photos/expired-get", "image/jpeg", photo(10)); err != nil {
					t.Fatal(err)
				}
				u, err := s.SignedURL(ctx, "photos/expired-get", expires)
				if err != nil {
					t.Fatal(err)
				}
				// Both stores round an expiry up to the next whole second.
				time.Sleep(time.Until(expires) + 2*time.Second)
				if status, body := post(t, form, photo(10), nil); status != http.StatusBadRequest && status != http.StatusForbidden {
					t.Errorf("expired upload answered %d %s", status, body)
				}
				assertAbsent(t, s, key)
				if resp, _ := get(t, u, nil); resp.StatusCode != http.StatusForbidden {
					t.Errorf("expired signed GET answered %d, want 403", resp.StatusCode)
				}
			})

			t.Run("ErrForgedGet", func(t *testing.T) {
				if err := s.Write(ctx, "photos/a", "image/jpeg", photo(10)); err != nil {
					t.Fatal(err)
				}
				if err := s.Write(ctx, "photos/b", "image/jpeg", photo(20)); err != nil {
					t.Fatal(err)
				}
				u, err := s.SignedURL(ctx, "photos/a", time.Now().Add(time.Hour))
				if err != nil {
					t.Fatal(err)
				}
				forged := map[string]string{
					"other key": strings.Replace(u, "/photos/a?", "/photos/b?", 1),
					"altered signature": alterQuery(t, u, func(q url.Values) {
						for k := range q {
							if strings.EqualFold(k, "signature") || strings.EqualFold(k, "X-Amz-Signature") {
								q.Set(k, flipHex(q.Get(k)))
							}
						}
					}),
					"longer expiry": alterQuery(t, u, func(q url.Values) {
						for k := range q {
							if strings.EqualFold(k, "expires") || strings.EqualFold(k, "X-Amz-Expires") {
								q.Set(k, q.Get(k)+"0")
							}
						}
					}),
				}
				// Each is refused with 403, a signature that does not match, but for one: an S3
				// URL already lives the week SigV4 allows, and S3 answers a longer X-Amz-Expires
				// with 400 before it checks the signature.
				refusal := map[string]int{}
				// An S3 URL is signed for that week from a date before its expiry: a later date
				// would move the expiry on.
				if p, err := url.Parse(u); err == nil && p.Query().Has("X-Amz-Date") {
					refusal["longer expiry"] = http.StatusBadRequest
					forged["later date"] = alterQuery(t, u, func(q url.Values) {
						d, err := time.Parse("20060102T150405Z", q.Get("X-Amz-Date"))
						if err != nil {
							t.Fatal(err)
						}
						q.Set("X-Amz-Date", d.Add(time.Hour).Format("20060102T150405Z"))
					})
				}
				for name, f := range forged {
					if f == u {
						t.Fatalf("%s: the URL did not change", name)
					}
					want := cmp.Or(refusal[name], http.StatusForbidden)
					if resp, _ := get(t, f, nil); resp.StatusCode != want {
						t.Errorf("%s: GET answered %d, want %d", name, resp.StatusCode, want)
					}
				}
			})

			t.Run("WriteReadDeleteList", func(t *testing.T) {
				for _, k := range []string{"sweep/x/1", "sweep/x/2", "sweep/y/3", "sweepless/4"} {
					if err := s.Write(ctx, k, "image/webp", []byte(k)); err != nil {
						t.Fatal(err)
					}
				}
				// A content-addressed key written twice holds the same bytes.
				if err := s.Write(ctx, "sweep/x/1", "image/webp", []byte("sweep/x/1")); err != nil {
					t.Fatal(err)
				}
				a1, err := s.Attributes(ctx, "sweep/x/1")
				if err != nil {
					t.Fatal(err)
				}
				if a2, _ := s.Attributes(ctx, "sweep/x/2"); a2.ETag == a1.ETag {
					t.Errorf("different content, same ETag %s", a1.ETag)
				}
				if err := s.Write(ctx, "sweep/x/1", "image/webp", []byte("sweep/x/1")); err != nil {
					t.Fatal(err)
				}
				if again, _ := s.Attributes(ctx, "sweep/x/1"); again != a1 {
					t.Errorf("rewriting the same bytes changed the attributes: %+v, then %+v", a1, again)
				}
				if got := readAll(t, s, "sweep/x/2"); string(got) != "sweep/x/2" {
					t.Errorf("read %q", got)
				}
				if _, err := s.NewReader(ctx, "sweep/x/2", 3); !errors.Is(err, blob.ErrTooLarge) {
					t.Errorf("NewReader past its limit: %v, want ErrTooLarge", err)
				}
				if _, err := s.NewReader(ctx, "sweep/none", 3); !errors.Is(err, blob.ErrNotFound) {
					t.Errorf("NewReader of an absent key: %v, want ErrNotFound", err)
				}
				list := func(prefix string) []string {
					var keys []string
					err := s.List(ctx, prefix, func(key string, modified time.Time) error {
						if time.Since(modified) > time.Hour || time.Until(modified) > time.Minute {
							t.Errorf("%s modified %s", key, modified)
						}
						keys = append(keys, key)
						return nil
					})
					if err != nil {
						t.Fatal(err)
					}
					slices.Sort(keys)
					return keys
				}
				if got, want := list("sweep/"), []string{"sweep/x/1", "sweep/x/2", "sweep/y/3"}; !slices.Equal(got, want) {
					t.Errorf("List(sweep/) = %v, want %v", got, want)
				}
				if got, want := list("sweep/x/"), []string{"sweep/x/1", "sweep/x/2"}; !slices.Equal(got, want) {
					t.Errorf("List(sweep/x/) = %v, want %v", got, want)
				}
				if got, want := list("sweep"), []string{"sweep/x/1", "sweep/x/2", "sweep/y/3", "sweepless/4"}; !slices.Equal(got, want) {
					t.Errorf("List(sweep) = %v, want %v", got, want)
				}
				if got := list("nothing/"); len(got) != 0 {
					t.Errorf("List(nothing/) = %v", got)
				}
				stop := errors.New("stop")
				if err := s.List(ctx, "sweep/", func(string, time.Time) error { return stop }); !errors.Is(err, stop) {
					t.Errorf("List returned %v, not fn's error", err)
				}
				if err := s.Delete(ctx, "sweep/x/1"); err != nil {
					t.Fatal(err)
				}
				assertAbsent(t, s, "sweep/x/1")
				if err := s.Delete(ctx, "sweep/x/1"); err != nil {
					t.Errorf("deleting an absent key: %v", err)
				}
				if got, want := list("sweep/x/"), []string{"sweep/x/2"}; !slices.Equal(got, want) {
					t.Errorf("after Delete, List = %v, want %v", got, want)
				}
			})

			// A write whose request has ended stores nothing: uploadPhoto's sweep counts on no
			// images being written under an upload once its request is over.
			t.Run("ErrWriteAfterItsContextEnded", func(t *testing.T) {
				ended, cancel := context.WithCancel(ctx)
				cancel()
				if err := s.Write(ended, "ended/1", "image/jpeg", photo(100)); !errors.Is(err, context.Canceled) {
					t.Errorf("Write with an ended context: %v, want context.Canceled", err)
				}
				assertAbsent(t, s, "ended/1")
			})

			t.Run("ErrInvalidKey", func(t *testing.T) {
				for _, key := range []string{"", "../x", "a/../b", "/abs", "a//b", "a/", "a/./b", "a b", "a\\b", "ü"} {
					if _, err := s.PresignPost(ctx, key, "image/jpeg", 10, time.Now().Add(time.Minute), blob.PostSuccess{}); !errors.Is(err, blob.ErrInvalidKey) {
						t.Errorf("PresignPost(%q, blob.PostSuccess{}): %v", key, err)
					}
					if err := s.Write(ctx, key, "image/jpeg", nil); !errors.Is(err, blob.ErrInvalidKey) {
						t.Errorf("Write(%q): %v", key, err)
					}
					if _, err := s.Attributes(ctx, key); !errors.Is(err, blob.ErrInvalidKey) {
						t.Errorf("Attributes(%q): %v", key, err)
					}
					if _, err := s.SignedURL(ctx, key, time.Now().Add(time.Minute)); !errors.Is(err, blob.ErrInvalidKey) {
						t.Errorf("SignedURL(%q): %v", key, err)
					}
					if err := s.Delete(ctx, key); !errors.Is(err, blob.ErrInvalidKey) {
						t.Errorf("Delete(%q): %v", key, err)
					}
					if _, err := s.NewReader(ctx, key, 10); !errors.Is(err, blob.ErrInvalidKey) {
						t.Errorf("NewReader(%q): %v", key, err)
					}
				}
				for _, prefix := range []string{"../", "a/../", "/a", "a//", "a b"} {
					if err := s.List(ctx, prefix, func(string, time.Time) error { return nil }); !errors.Is(err, blob.ErrInvalidKey) {
						t.Errorf("List(%q): %v", prefix, err)
					}
				}
			})

			t.Run("ErrInvalidArgument", func(t *testing.T) {
				for name, call := range map[string]func() error{
					"content type with parameters": func() error {
						_, err := s.PresignPost(ctx, "k", "image/jpeg; x=1", 10, time.Now().Add(time.Minute), blob.PostSuccess{})
						return err
					},
					"no size": func() error {
						_, err := s.PresignPost(ctx, "k", "image/jpeg", 0, time.Now().Add(time.Minute), blob.PostSuccess{})
						return err
					},
					"past expiry": func() error {
						_, err := s.PresignPost(ctx, "k", "image/jpeg", 10, time.Now().Add(-time.Minute), blob.PostSuccess{})
						return err
					},
					"expiry past 7 days": func() error {
						_, err := s.PresignPost(ctx, "k", "image/jpeg", 10, time.Now().Add(8*24*time.Hour), blob.PostSuccess{})
						return err
					},
				} {
					if err := call(); !errors.Is(err, blob.ErrInvalidArgument) {
						t.Errorf("%s: %v, want ErrInvalidArgument", name, err)
					}
				}
			})
		})
	}
}

func sigField(f map[string]string) string {
	for k := range f {
		if strings.EqualFold(k, "x-amz-signature") {
			return k
		}
	}
	return "x-amz-signature"
}

// flipHex changes the first hex digit of s.
func flipHex(s string) string {
	if s == "" {
		return "0"
	}
	c := byte('0')
	if s[0] == '0' {
		c = '1'
	}
	return string(c) + s[1:]
}

func alterQuery(t *testing.T, u string, edit func(url.Values)) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	q := p.Query()
	edit(q)
	p.RawQuery = q.Encode()
	return p.String()
}
