package media_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/media"
	"github.com/quickphotos/quickphotos/media/blob"
	"github.com/quickphotos/quickphotos/media/imaging"
	"github.com/quickphotos/quickphotos/media/internal/jpegtest"
)

// TestService_FinishRefusesAScanBomb: a 140 KB progressive JPEG of 500 scans over a
// 7000 x 7000 picture held the only finishing slot for about 15 seconds, past its request's
// end (25 MiB of such scans, for hours). It is refused as the client's mistake before it is
// decoded, and leaves no image.
func TestService_FinishRefusesAScanBomb(t *testing.T) {
	f := newFixture(t, media.Config{Finishes: 1})
	ticket := f.stage(t, jpegtest.ScanBomb(7000, 7000, 500, nil))
	start := time.Now()
	_, err := f.svc.Finish(context.Background(), domain.Photo{Owner: "ada", Timestamp: "2024-05-01T10:00:00"}, ticket.Upload.ID)
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("refusing it took %s", took)
	}
	if domain.ErrorCode(err) != domain.Invalid || !strings.Contains(domain.ErrorMessage(err), "scans") {
		t.Fatalf("got %v, want Invalid: too many scans", err)
	}
	if got := f.keys(t); len(got) != 1 || got[0] != ticket.Form.Fields["key"] {
		t.Fatalf("the store holds %v, want the staged file alone", got)
	}
}

// TestService_FinishWhoseRequestEnds: a Finish whose request ends (the client gone, the
// server's deadline past) stores nothing more and answers Unavailable, not an internal error.
// A Finish that ignored its request's end wrote images after the sweep had removed the upload,
// where nothing would ever delete them. The upload stays usable for a retry.
func TestService_FinishWhoseRequestEnds(t *testing.T) {
	for _, at := range []string{"while the file is made into images", "while the images are stored"} {
		t.Run(at, func(t *testing.T) {
			f := newFixture(t, media.Config{})
			ticket := f.stage(t, imaging.Sample("ends", 400, 300))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			store := &endingStore{Store: f.files, end: cancel, atRead: at == "while the file is made into images"}
			svc, err := media.New(store, f.records, media.Config{Now: f.clock.Now})
			if err != nil {
				t.Fatal(err)
			}
			photo := domain.Photo{Owner: "ada", Timestamp: "2024-05-01T10:00:00"}
			_, err = svc.Finish(ctx, photo, ticket.Upload.ID)
			if domain.ErrorCode(err) != domain.Unavailable || !errors.Is(err, context.Canceled) {
				t.Fatalf("got %v, want Unavailable: the request ended", err)
			}
			if got := f.keys(t); len(got) != 1 || got[0] != ticket.Form.Fields["key"] {
				t.Fatalf("the store holds %v, want the staged file alone", got)
			}
			if _, err := f.svc.Finish(context.Background(), photo, ticket.Upload.ID); err != nil {
				t.Fatalf("a retry: %v", err)
			}
		})
	}
}

// endingStore is a store at which Finish's request ends: once the staged file has been read
// whole (atRead), or else as the first image is written.
type endingStore struct {
	blob.Store
	end    context.CancelFunc
	atRead bool
}

func (s *endingStore) NewReader(ctx context.Context, key string, maxBytes int64) (io.ReadCloser, error) {
	r, err := s.Store.NewReader(ctx, key, maxBytes)
	if err != nil || !s.atRead {
		return r, err
	}
	return endsAtEOF{r, s.end}, nil
}

func (s *endingStore) Write(ctx context.Context, key, contentType string, data []byte) error {
	if !s.atRead {
		s.end()
	}
	return s.Store.Write(ctx, key, contentType, data)
}

type endsAtEOF struct {
	io.ReadCloser
	end context.CancelFunc
}

func (r endsAtEOF) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p)
	if err == io.EOF {
		r.end()
	}
	return n, err
}

// TestService_FinishRefusesAPictureTooCostlyToDecode: a 287 KB progressive JPEG of
// 7000 x 7000 passed the 50-megapixel limit and held 812 MB while it was decoded (image/jpeg
// keeps every coefficient, 4 bytes a sample, until the last scan), where 4 bytes a pixel were
// documented. Every file is charged what decoding it holds, and may take at most
// imaging.BytesPerPixel for each pixel allowed: that one is refused before it is decoded, as
// the client's mistake, and a smaller one, or the same picture saved as a baseline JPEG, is
// made into a photo.
func TestService_FinishRefusesAPictureTooCostlyToDecode(t *testing.T) {
	f := newFixture(t, media.Config{})
	ticket := f.stage(t, jpegtest.Flat(7000, 7000, []byte{0x11, 0x11, 0x11}, true))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := f.svc.Finish(context.Background(), domain.Photo{Owner: "ada", Timestamp: "2024-05-01T10:00:00"}, ticket.Upload.ID)
	runtime.ReadMemStats(&after)
	if msg := domain.ErrorMessage(err); domain.ErrorCode(err) != domain.Invalid || !strings.Contains(msg, "progressive") || !strings.Contains(msg, "would take about") {
		t.Fatalf("got %v, want Invalid: a progressive JPEG too costly to decode", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 16<<20 {
		t.Errorf("refusing it allocated %d MB: it was decoded", n>>20)
	}

	// A million pixels allowed, 6 MB: a 1000 x 1000 progressive 4:4:4 JPEG takes 15, the
	// same picture baseline 3, and a 600 x 600 progressive one 5.4.
	f = newFixture(t, media.Config{MaxPixels: 1_000_000})
	for i, tc := range []struct {
		file []byte
		ok   bool
	}{
		{jpegtest.Flat(1000, 1000, []byte{0x11, 0x11, 0x11}, true), false},
		{jpegtest.Flat(1000, 1000, []byte{0x11, 0x11, 0x11}, false), true},
		{jpegtest.Flat(600, 600, []byte{0x11, 0x11, 0x11}, true), true},
	} {
		ticket := f.stage(t, tc.file)
		_, err := f.svc.Finish(context.Background(), domain.Photo{Owner: "ada", Timestamp: fmt.Sprintf("2024-05-01T10:00:0%d", i)}, ticket.Upload.ID)
		if (err == nil) != tc.ok || (err != nil && domain.ErrorCode(err) != domain.Invalid) {
			t.Errorf("file %d: %v, want accepted %v", i, err, tc.ok)
		}
	}
}
