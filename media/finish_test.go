package media_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/media"
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
