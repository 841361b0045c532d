package imaging

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/quickphotos/quickphotos/media/internal/jpegtest"
)

// TestProcessRefusesJPEGScanBombs: a progressive JPEG may hold any number of scans, and
// image/jpeg walks every block of the picture for each, however few bytes the scan takes. A
// 7000 x 7000 picture with 500 scans of end-of-band runs, under 140 KB, kept a finishing slot
// for about 15 seconds; 25 MiB of them, for hours. Process counts the scans first, finding the
// markers as the decoder does, and refuses more than MaxJPEGScans before decoding anything.
func TestProcessRefusesJPEGScanBombs(t *testing.T) {
	for name, between := range map[string][]byte{
		"scans back to back":             nil,
		"fill bytes before each scan":    {0xFF, 0xFF, 0xFF},
		"extraneous bytes between scans": {0x12, 0x34, 0xFF, 0x00, 0x56},
		"a restart marker after each":    {0xFF, 0xD3},
		"a comment naming SOS":           jpegSegment(0xFE, []byte{0xFF, 0xDA, 0xFF, 0xD9}),
	} {
		t.Run(name, func(t *testing.T) {
			// A DC scan and MaxJPEGScans-1 AC scans: as many as allowed, and decoded.
			res := mustProcess(t, jpegtest.ScanBomb(512, 384, MaxJPEGScans-1, between), "image/jpeg")
			if o := res.Variants[2]; o.Width != 512 || o.Height != 384 {
				t.Fatalf("original %d x %d", o.Width, o.Height)
			}
			_, err := Process(context.Background(), bytes.NewReader(jpegtest.ScanBomb(512, 384, MaxJPEGScans, between)), "image/jpeg", Limits{})
			errInvalid(t, err, fmt.Sprintf("more than %d scans", MaxJPEGScans))

			bomb := jpegtest.ScanBomb(7000, 7000, 500, between)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err = Process(context.Background(), bytes.NewReader(bomb), "image/jpeg", Limits{})
			runtime.ReadMemStats(&after)
			errInvalid(t, err, fmt.Sprintf("more than %d scans", MaxJPEGScans))
			// Decoding would have allocated the 49-megapixel picture.
			if n := after.TotalAlloc - before.TotalAlloc; n > 4*uint64(len(bomb))+1<<20 {
				t.Errorf("refusing a %d-byte file allocated %d bytes: it was decoded", len(bomb), n)
			}
		})
	}
}
