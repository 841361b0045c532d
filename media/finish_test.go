package media_test

import (
	"context"
	"errors"
	"io"
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
