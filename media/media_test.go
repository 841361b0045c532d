package media_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/ddb"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/media"
	"github.com/quickphotos/quickphotos/media/blob"
	"github.com/quickphotos/quickphotos/media/imaging"
)

// clock is a clock a test moves.
type clock struct{ now atomic.Int64 }

func (c *clock) Now() time.Time          { return time.Unix(0, c.now.Load()) }
func (c *clock) Advance(d time.Duration) { c.now.Add(int64(d)) }

// fixture is the service over real parts: the embedded engine in memory and a file store in a
// temporary directory.
type fixture struct {
	svc     *media.Service
	records *dynamo.Store
	files   *blob.FileStore
	clock   *clock
}

func newFixture(t *testing.T, cfg media.Config) fixture {
	t.Helper()
	engine, err := ddb.OpenMemory(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { engine.Close() })
	records := dynamo.New(engine.API(), "media-test")
	if err := records.CreateTable(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := records.CreateUser(context.Background(), "ada", domain.Profile{}); err != nil {
		t.Fatal(err)
	}
	files, err := blob.OpenFileStore(t.TempDir(), func() string { return "http://127.0.0.1:1" }, blob.WithImmutable(media.Immutable))
	if err != nil {
		t.Fatal(err)
	}
	c := &clock{}
	c.now.Store(time.Now().UnixNano())
	cfg.Now = c.Now
	svc, err := media.New(files, records, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return fixture{svc: svc, records: records, files: files, clock: c}
}

func (f fixture) keys(t *testing.T) []string {
	t.Helper()
	var keys []string
	if err := f.files.List(context.Background(), "", func(k string, _ time.Time) error { keys = append(keys, k); return nil }); err != nil {
		t.Fatal(err)
	}
	sort.Strings(keys)
	return keys
}

// stage uploads file to a new upload of ada's, as a client's POST would.
func (f fixture) stage(t *testing.T, file []byte) media.Ticket {
	t.Helper()
	ticket, err := f.svc.CreateUpload(context.Background(), "ada", "image/jpeg", int64(len(file)), blob.PostSuccess{})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.files.Write(context.Background(), ticket.Form.Fields["key"], "image/jpeg", file); err != nil {
		t.Fatal(err)
	}
	return ticket
}

func TestValidateUploadID(t *testing.T) {
	for id, ok := range map[string]bool{
		"0123456789abcdef0123456789abcdef":  true,
		"0123456789ABCDEF0123456789abcdef":  false, // only as the server spells them
		"0123456789abcdef0123456789abcde":   false,
		"0123456789abcdef0123456789abcdef0": false,
		"../456789abcdef0123456789abcdef":   false,
		"0123456789abcdef/123456789abcdef":  false,
		"..":                                false,
		"":                                  false,
	} {
		if err := media.ValidateUploadID(id); (err == nil) != ok || (err != nil && domain.ErrorCode(err) != domain.Invalid) {
			t.Errorf("ValidateUploadID(%q) = %v", id, err)
		}
	}
}

func TestService_CreateUpload(t *testing.T) {
	f := newFixture(t, media.Config{MaxBytes: 1000})
	for name, tc := range map[string]struct {
		owner, contentType string
		size               int64
		success            blob.PostSuccess
		code               domain.Code
	}{
		"OK":                   {"ada", "image/webp", 1000, blob.PostSuccess{}, ""},
		"ErrOverLimit":         {"ada", "image/jpeg", 1001, blob.PostSuccess{}, domain.Invalid},
		"ErrEmpty":             {"ada", "image/jpeg", 0, blob.PostSuccess{}, domain.Invalid},
		"ErrSVG":               {"ada", "image/svg+xml", 10, blob.PostSuccess{}, domain.Invalid},
		"ErrGIF":               {"ada", "image/gif", 10, blob.PostSuccess{}, domain.Invalid},
		"ErrOwnerSlash":        {"a/b", "image/jpeg", 10, blob.PostSuccess{}, domain.Invalid},
		"OKStatus201":          {"ada", "image/jpeg", 10, blob.PostSuccess{Status: 201}, ""},
		"OKRedirect":           {"ada", "image/jpeg", 10, blob.PostSuccess{Status: 200, Redirect: "https://app.example.com/uploaded?x=1"}, ""},
		"ErrStatus204":         {"ada", "image/jpeg", 10, blob.PostSuccess{Status: 204}, domain.Invalid},
		"ErrStatus302":         {"ada", "image/jpeg", 10, blob.PostSuccess{Status: 302}, domain.Invalid},
		"ErrRedirectRelative":  {"ada", "image/jpeg", 10, blob.PostSuccess{Redirect: "/uploaded"}, domain.Invalid},
		"ErrRedirectScript":    {"ada", "image/jpeg", 10, blob.PostSuccess{Redirect: "javascript:alert(1)"}, domain.Invalid},
		"ErrRedirectBidiTrick": {"ada", "image/jpeg", 10, blob.PostSuccess{Redirect: "https://app.example.com/\u202edone"}, domain.Invalid},
	} {
		t.Run(name, func(t *testing.T) {
			ticket, err := f.svc.CreateUpload(context.Background(), tc.owner, tc.contentType, tc.size, tc.success)
			if got := domain.ErrorCode(err); got != tc.code {
				t.Fatalf("got %v, want %q", err, tc.code)
			}
			if err != nil {
				return
			}
			if ticket.Form.MaxBytes != tc.size || ticket.Form.Fields["key"] != "staging/"+ticket.Upload.ID || !ticket.Form.Expires.Equal(ticket.Upload.Expires) {
				t.Fatalf("ticket %+v", ticket)
			}
			// The success fields travel in the form, and are signed with it.
			if got := ticket.Form.Fields["success_action_status"]; (tc.success.Status == 0 && got != "") || (tc.success.Status != 0 && got != fmt.Sprint(tc.success.Status)) {
				t.Errorf("success_action_status field %q, want %d", got, tc.success.Status)
			}
			if got := ticket.Form.Fields["success_action_redirect"]; got != tc.success.Redirect {
				t.Errorf("success_action_redirect field %q, want %q", got, tc.success.Redirect)
			}
			u, err := f.records.GetUpload(context.Background(), ticket.Upload.ID)
			if err != nil || u != ticket.Upload {
				t.Fatalf("record %+v (%v), want %+v", u, err, ticket.Upload)
			}
		})
	}
}

// TestService_ImageURL: within one URL lifetime every call signs the same URL, which caches
// can keep; the next window signs a new one, and every URL lives at least one lifetime.
func TestService_ImageURL(t *testing.T) {
	f := newFixture(t, media.Config{URLLifetime: time.Hour})
	ticket := f.stage(t, imaging.Sample("url", 400, 300))
	p, err := f.svc.Finish(context.Background(), domain.Photo{Owner: "ada", Timestamp: "2024-05-01T10:00:00"}, ticket.Upload.ID)
	if err != nil {
		t.Fatal(err)
	}
	f.clock.now.Store(time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC).UnixNano())
	first, err := f.svc.Image(context.Background(), p, domain.ImageThumbnail)
	if err != nil || first == nil || first.Width != 320 || first.Height != 240 {
		t.Fatalf("thumbnail %+v, %v", first, err)
	}
	f.clock.Advance(59 * time.Minute)
	again, _ := f.svc.Image(context.Background(), p, domain.ImageThumbnail)
	f.clock.Advance(2 * time.Minute)
	next, _ := f.svc.Image(context.Background(), p, domain.ImageThumbnail)
	if again.URL != first.URL || next.URL == first.URL {
		t.Fatalf("URLs %q, %q, %q: want the first two the same, the third new", first.URL, again.URL, next.URL)
	}
	if url, _ := f.svc.URL(context.Background(), p); !strings.Contains(url, p.Images[domain.ImageDisplay].Key) {
		t.Fatalf("url %q is not the display size's", url)
	}
	hosted := domain.Photo{Owner: "ada", Timestamp: "2024-05-01T10:00:01", URL: "https://cdn.example.com/a.jpg"}
	if img, err := f.svc.Image(context.Background(), hosted, domain.ImageDisplay); img != nil || err != nil {
		t.Fatalf("a hosted photo's image: %+v, %v", img, err)
	}
	if url, _ := f.svc.URL(context.Background(), hosted); url != hosted.URL {
		t.Fatalf("a hosted photo's url: %q", url)
	}
}

// TestService_ImageURLsSignedOncePerLifetime: within a lifetime, every read of an image gets the
// URL the store signed for it the first time, from any goroutine; the next lifetime signs anew.
func TestService_ImageURLsSignedOncePerLifetime(t *testing.T) {
	f := newFixture(t, media.Config{URLLifetime: time.Hour})
	counted := &countingSigner{Store: f.files}
	svc, err := media.New(counted, f.records, media.Config{URLLifetime: time.Hour, Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	var photos []domain.Photo
	for i := range 3 {
		ticket := f.stage(t, imaging.Sample(fmt.Sprint("once", i), 400, 300))
		p, err := svc.Finish(context.Background(), domain.Photo{Owner: "ada", Timestamp: fmt.Sprintf("2024-05-01T10:00:0%d", i)}, ticket.Upload.ID)
		if err != nil {
			t.Fatal(err)
		}
		photos = append(photos, p)
	}
	f.clock.now.Store(time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC).UnixNano())
	read := func() {
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				for range 50 {
					for _, p := range photos {
						url, err := svc.URL(context.Background(), p)
						expires := f.clock.Now().Truncate(time.Hour).Add(2 * time.Hour)
						want, _ := f.files.SignedURL(context.Background(), p.Images[domain.ImageDisplay].Key, expires)
						if err != nil || url != want {
							t.Errorf("url %q, %v: want the store's %q", url, err, want)
							return
						}
					}
				}
			})
		}
		wg.Wait()
	}
	read()
	if n := counted.signed.Load(); n < 3 || n > 3*8 {
		t.Fatalf("%d signatures for 3 images read 400 times each: want one each, or one per goroutine racing the first", n)
	}
	before := counted.signed.Load()
	read()
	if n := counted.signed.Load(); n != before {
		t.Fatalf("%d more signatures for images already signed", n-before)
	}
	f.clock.Advance(time.Hour)
	read()
	if n := counted.signed.Load() - before; n < 3 {
		t.Fatalf("%d signatures in the next lifetime: want the 3 images signed anew", n)
	}
}

// countingSigner is a store that counts the URLs it signs.
type countingSigner struct {
	blob.Store
	signed atomic.Int64
}

func (s *countingSigner) SignedURL(ctx context.Context, key string, expires time.Time) (string, error) {
	s.signed.Add(1)
	return s.Store.SignedURL(ctx, key, expires)
}

// TestService_Sweep: an upload expired past the grace leaves nothing: its staged file, the
// images a refused Finish left and its record go; a used upload's images stay with its photo.
func TestService_Sweep(t *testing.T) {
	f := newFixture(t, media.Config{})
	ctx := context.Background()
	file := imaging.Sample("sweep", 400, 300)
	used := f.stage(t, file)
	photo, err := f.svc.Finish(ctx, domain.Photo{Owner: "ada", Timestamp: "2024-05-01T10:00:00"}, used.Upload.ID)
	if err != nil {
		t.Fatal(err)
	}
	// A Finish refused at the transaction (a photo at that timestamp already) leaves its
	// renditions for the sweeper.
	refused := f.stage(t, imaging.Sample("sweep-2", 400, 300))
	if _, err := f.svc.Finish(ctx, domain.Photo{Owner: "ada", Timestamp: "2024-05-01T10:00:00"}, refused.Upload.ID); domain.ErrorCode(err) != domain.Conflict {
		t.Fatalf("finish at a taken timestamp: %v", err)
	}
	never := f.stage(t, file)
	if n, err := f.svc.Sweep(ctx); n != 0 || err != nil {
		t.Fatalf("swept %d (%v) before anything expired", n, err)
	}
	f.clock.Advance(media.DefaultUploadLifetime + media.SweepGrace + time.Second)
	if n, err := f.svc.Sweep(ctx); n != 3 || err != nil {
		t.Fatalf("swept %d (%v), want 3", n, err)
	}
	var want []string
	for _, img := range photo.Images {
		want = append(want, img.Key)
	}
	sort.Strings(want)
	want = compact(want)
	if got := f.keys(t); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("after the sweep: %v, want the photo's images %v", got, want)
	}
	for _, id := range []string{used.Upload.ID, refused.Upload.ID, never.Upload.ID} {
		if _, err := f.records.GetUpload(ctx, id); domain.ErrorCode(err) != domain.NotFound {
			t.Errorf("record of %s: %v", id, err)
		}
	}
	// Forgetting the photo, as its removal from the stream does, leaves nothing.
	if err := f.svc.Forget(ctx, []domain.Change{{Op: domain.Removed, Old: photo}}); err != nil {
		t.Fatal(err)
	}
	if got := f.keys(t); len(got) != 0 {
		t.Fatalf("after Forget: %v", got)
	}
}

func compact(s []string) []string {
	var out []string
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// TestService_SampleImages: the sample's photos get real, deterministic pictures, which
// deleting one of them leaves for the others.
func TestService_SampleImages(t *testing.T) {
	f := newFixture(t, media.Config{})
	ctx := context.Background()
	photos := []domain.Photo{{Owner: "ada", Timestamp: "2024-05-01T10:00:00"}, {Owner: "bob", Timestamp: "2024-05-01T10:00:00"}}
	if err := f.svc.AttachSampleImages(ctx, photos); err != nil {
		t.Fatal(err)
	}
	again := []domain.Photo{{Owner: "ada", Timestamp: "2024-05-01T10:00:00"}}
	if err := f.svc.AttachSampleImages(ctx, again); err != nil {
		t.Fatal(err)
	}
	if again[0].Images[domain.ImageDisplay] != photos[0].Images[domain.ImageDisplay] {
		t.Fatalf("the same photo got %+v, then %+v", photos[0].Images, again[0].Images)
	}
	for _, p := range photos {
		thumb := p.Images[domain.ImageThumbnail]
		r, err := f.files.NewReader(ctx, thumb.Key, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		_, _ = b.ReadFrom(r)
		r.Close()
		if _, err := imaging.Sniff(b.Bytes()); err != nil || thumb.Width != 320 {
			t.Fatalf("thumbnail %+v: %v", thumb, err)
		}
	}
	before := f.keys(t)
	if err := f.svc.Forget(ctx, []domain.Change{{Op: domain.Removed, Old: photos[0]}}); err != nil {
		t.Fatal(err)
	}
	if after := f.keys(t); len(after) != len(before) {
		t.Fatalf("forgetting a sample photo deleted shared pictures: %v → %v", before, after)
	}
}

// TestService_FinishWaitsForASlot: with every slot taken, a Finish whose request ends while it
// waits is Unavailable and writes nothing.
func TestService_FinishWaitsForASlot(t *testing.T) {
	f := newFixture(t, media.Config{Finishes: 1})
	ticket := f.stage(t, imaging.Sample("slot", 64, 48))
	release := f.svc.Occupy()
	defer release()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := f.svc.Finish(ctx, domain.Photo{Owner: "ada", Timestamp: "2024-05-01T10:00:00"}, ticket.Upload.ID)
	if domain.ErrorCode(err) != domain.Unavailable || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want Unavailable", err)
	}
	release()
	if _, err := f.svc.Finish(context.Background(), domain.Photo{Owner: "ada", Timestamp: "2024-05-01T10:00:00"}, ticket.Upload.ID); err != nil {
		t.Fatalf("once the slot is free: %v", err)
	}
}
