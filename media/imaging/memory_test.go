package imaging

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"

	"github.com/quickphotos/quickphotos/media/internal/jpegtest"
)

// TestProcessMemoryBound: whatever an accepted file is, making its renditions holds no more
// than the model of memory.go says (the decoder's peak, or the picture with the copies the
// pipeline makes), and so no more than BytesPerPixel for each pixel of Limits.MaxPixels. A
// 287 KB progressive 4:4:4 JPEG of 7000 x 7000 passed the pixel limit and held 812 MB, 16.6
// bytes a pixel, where 4 were documented; a 16-bit PNG holds 8 before it is scaled.
//
// Each file is 4000 x 600, a panorama, so that the scaling buffers, which do not grow with the
// pixels, stay small beside what does. The heap is sampled while Process runs with the
// collector at 2%, so that what it holds is near what is live.
func TestProcessMemoryBound(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes a dozen 2.4-megapixel pictures")
	}
	const w, h = 4000, 600
	grad := gradient(w, h)
	opaque16 := image.NewRGBA64(grad.Rect)
	grey := image.NewGray(grad.Rect)
	paletted := image.NewPaletted(grad.Rect, color.Palette{color.Black, color.White, color.RGBA{200, 30, 30, 255}})
	nrgba := image.NewNRGBA(grad.Rect)
	for y := range h {
		for x := range w {
			c := grad.RGBAAt(x, y)
			opaque16.Set(x, y, c)
			grey.Set(x, y, c)
			paletted.SetColorIndex(x, y, uint8((x/7+y/5)%3))
			nrgba.SetNRGBA(x, y, color.NRGBA{c.R, c.G, c.B, uint8(x % 256)})
		}
	}
	turned := func(jpg []byte) []byte { return withJPEGMetadata(jpg, 6) }
	turnedPNG := func(p []byte) []byte { return withPNGMetadata(p, 6) }
	files := []struct {
		name, declared string
		data           []byte
	}{
		{"baseline 4:2:0 jpeg, turned", "image/jpeg", turned(encodeJPEG(t, grad))},
		{"baseline 4:4:4 jpeg, turned", "image/jpeg", turned(jpegtest.Flat(w, h, []byte{0x11, 0x11, 0x11}, false))},
		{"grey jpeg", "image/jpeg", jpegtest.Flat(w, h, []byte{0x11}, false)},
		{"grey jpeg, turned", "image/jpeg", turned(jpegtest.Flat(w, h, []byte{0x11}, false))},
		{"cmyk jpeg, turned", "image/jpeg", turned(jpegtest.Flat(w, h, []byte{0x11, 0x11, 0x11, 0x11}, false))},
		{"progressive 4:4:4 jpeg", "image/jpeg", jpegtest.Flat(w, h, []byte{0x11, 0x11, 0x11}, true)},
		{"progressive 4:2:0 jpeg, turned", "image/jpeg", turned(jpegtest.Flat(w, h, []byte{0x22, 0x11, 0x11}, true))},
		{"progressive grey jpeg", "image/jpeg", jpegtest.Flat(w, h, []byte{0x11}, true)},
		{"progressive cmyk jpeg", "image/jpeg", jpegtest.Flat(w, h, []byte{0x11, 0x11, 0x11, 0x11}, true)},
		{"8-bit png, turned", "image/png", turnedPNG(encodePNG(t, grad))},
		{"8-bit png with alpha, interlaced", "image/png", interlacedPNG(t, nrgba)},
		{"16-bit png", "image/png", encodePNG(t, opaque16)},
		{"16-bit png, turned", "image/png", turnedPNG(encodePNG(t, opaque16))},
		{"grey png, turned", "image/png", turnedPNG(encodePNG(t, grey))},
		{"paletted png", "image/png", encodePNG(t, paletted)},
	}
	defer debug.SetGCPercent(debug.SetGCPercent(2))
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			format, _ := Sniff(f.data)
			cost, err := costOf(format, f.data, w, h)
			if err != nil {
				t.Fatal(err)
			}
			need := cost.memory(w, h, orientationOf(format, f.data))

			// Allowed just fewer pixels than that takes, it is refused before decoding.
			tight := Limits{MaxPixels: (need - 1) / BytesPerPixel}
			if tight.MaxPixels >= w*h {
				_, err := Process(context.Background(), bytes.NewReader(f.data), f.declared, tight)
				errInvalid(t, err, "would take about", "send a smaller image")
			}

			runtime.GC()
			before := heapObjects()
			stop := peakHeap()
			enough := Limits{MaxPixels: max(w*h, (need+BytesPerPixel-1)/BytesPerPixel)}
			res, err := Process(context.Background(), bytes.NewReader(f.data), f.declared, enough)
			peak := int64(stop()) - int64(before)
			if err != nil {
				t.Fatal(err)
			}
			// What the model leaves out, which does not grow with the pixels: the upload read
			// whole (its buffer grown while reading), the encoded renditions (a bytes.Buffer
			// grown as they are written), the scaling buffers, 2% for the collector's target,
			// and the rest of the program's allocations meanwhile.
			slack := 3*int64(len(f.data)) + scaling(w, h) + need/50 + 4<<20
			for _, v := range res.Variants {
				slack += 2 * int64(len(v.Bytes))
			}
			t.Logf("%s: the model says %.1f bytes a pixel, %.1f held (%d MB slack)", cost.kind, float64(need)/(w*h), float64(peak)/(w*h), slack>>20)
			if peak > need+slack {
				t.Errorf("held %d MB at its peak, more than the %d MB the model allows and %d MB besides (%v)", peak>>20, need>>20, slack>>20, cost)
			}
		})
	}
}

// scaling returns what making the display and thumbnail sizes of a w x h picture allocates
// (downscale): the box-shrunk copy, x/image/draw's buffer of 32 bytes per output column and
// source row, and the display copy; the thumbnail, a fraction of it, is given a megabyte.
func scaling(w, h int) int64 {
	tw, th := fit(w, h, Display.Box())
	bw, bh := w, h
	if k := min(w/tw, h/th); k >= 2 {
		bw, bh = (w+k-1)/k, (h+k-1)/k
	}
	return 4*int64(bw*bh) + 32*int64(tw*bh) + 4*int64(tw*th) + 1<<20
}

// heapObjects returns the bytes of the heap's objects, live or not yet swept.
func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
