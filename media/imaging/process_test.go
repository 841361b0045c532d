package imaging

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/media/internal/jpegtest"
)

// decodeVariant decodes a variant's bytes by its declared content type.
func decodeVariant(t *testing.T, v Variant) image.Image {
	t.Helper()
	var (
		m   image.Image
		err error
	)
	switch v.ContentType {
	case "image/jpeg":
		m, err = jpeg.Decode(bytes.NewReader(v.Bytes))
	case "image/png":
		m, err = png.Decode(bytes.NewReader(v.Bytes))
	default:
		t.Fatalf("%s: content type %q", v.Size, v.ContentType)
	}
	if err != nil {
		t.Fatalf("%s: decoding the output: %v", v.Size, err)
	}
	if b := m.Bounds(); b.Dx() != v.Width || b.Dy() != v.Height {
		t.Fatalf("%s: says %dx%d, decodes to %dx%d", v.Size, v.Width, v.Height, b.Dx(), b.Dy())
	}
	return m
}

func mustProcess(t *testing.T, data []byte, contentType string) *Result {
	t.Helper()
	res, err := Process(context.Background(), bytes.NewReader(data), contentType, Limits{})
	if err != nil {
		t.Fatalf("Process: %v", err)
	}
	if len(res.Variants) != 3 {
		t.Fatalf("%d variants, want 3", len(res.Variants))
	}
	for i, size := range []Size{Thumbnail, Display, Original} {
		v := res.Variants[i]
		if v.Size != size {
			t.Fatalf("variant %d is %q, want %q", i, v.Size, size)
		}
		if sum := sha256.Sum256(v.Bytes); v.SHA256 != hex.EncodeToString(sum[:]) {
			t.Fatalf("%s: SHA256 %s is not the hash of its bytes", size, v.SHA256)
		}
	}
	return res
}

func TestProcessFormats(t *testing.T) {
	withAlpha := image.NewNRGBA(image.Rect(0, 0, 400, 300))
	for y := 0; y < 300; y++ {
		for x := 0; x < 400; x++ {
			withAlpha.SetNRGBA(x, y, color.NRGBA{200, 100, uint8(x), uint8(y * 255 / 299)})
		}
	}
	gray := image.NewGray(image.Rect(0, 0, 600, 200))
	for i := range gray.Pix {
		gray.Pix[i] = uint8(i)
	}
	paletted := image.NewPaletted(image.Rect(0, 0, 50, 80), color.Palette{color.RGBA{255, 0, 0, 255}, color.RGBA{0, 0, 255, 255}})
	for i := range paletted.Pix {
		paletted.Pix[i] = uint8(i % 2)
	}
	tests := []struct {
		name        string
		data        []byte
		declared    string
		format      string
		types       [3]string // thumbnail, display, original
		sizes       [3][2]int
		transparent bool // the top-left pixel of every output is transparent
	}{
		{"jpeg", encodeJPEG(t, gradient(1400, 1050)), "image/jpeg", "jpeg",
			[3]string{"image/jpeg", "image/jpeg", "image/jpeg"}, [3][2]int{{320, 240}, {1280, 960}, {1400, 1050}}, false},
		{"jpeg declared with a parameter and the image/jpg alias", encodeJPEG(t, gradient(100, 60)), "image/jpg; charset=binary", "jpeg",
			[3]string{"image/jpeg", "image/jpeg", "image/jpeg"}, [3][2]int{{100, 60}, {100, 60}, {100, 60}}, false},
		{"grayscale jpeg", encodeJPEG(t, gray), "image/jpeg", "jpeg",
			[3]string{"image/jpeg", "image/jpeg", "image/jpeg"}, [3][2]int{{320, 107}, {600, 200}, {600, 200}}, false},
		{"opaque png: scaled sizes become JPEG, the original stays PNG", encodePNG(t, gradient(1400, 350)), "image/png", "png",
			[3]string{"image/jpeg", "image/jpeg", "image/png"}, [3][2]int{{320, 80}, {1280, 320}, {1400, 350}}, false},
		{"png with alpha stays PNG", encodePNG(t, withAlpha), "image/png", "png",
			[3]string{"image/png", "image/png", "image/png"}, [3][2]int{{320, 240}, {400, 300}, {400, 300}}, true},
		{"grayscale png", encodePNG(t, gray), "image/png", "png",
			[3]string{"image/jpeg", "image/jpeg", "image/png"}, [3][2]int{{320, 107}, {600, 200}, {600, 200}}, false},
		{"paletted png", encodePNG(t, paletted), "image/png", "png",
			[3]string{"image/jpeg", "image/jpeg", "image/png"}, [3][2]int{{50, 80}, {50, 80}, {50, 80}}, false},
		{"lossy webp", readTestdata(t, "blue-purple-pink.lossy.webp"), "image/webp", "webp",
			[3]string{"image/jpeg", "image/jpeg", "image/jpeg"}, [3][2]int{{150, 100}, {150, 100}, {150, 100}}, false},
		{"lossless webp with alpha", readTestdata(t, "gopher-doc.with-alpha.lossless.webp"), "image/webp", "webp",
			[3]string{"image/png", "image/png", "image/png"}, [3][2]int{{75, 100}, {75, 100}, {75, 100}}, true},
		{"lossy webp with alpha", readTestdata(t, "yellow_rose.lossy-with-alpha.webp"), "image/webp", "webp",
			[3]string{"image/png", "image/png", "image/png"}, [3][2]int{{320, 241}, {400, 301}, {400, 301}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustProcess(t, tt.data, tt.declared)
			if res.Format != tt.format {
				t.Errorf("Format = %q, want %q", res.Format, tt.format)
			}
			for i, v := range res.Variants {
				if v.ContentType != tt.types[i] {
					t.Errorf("%s: ContentType = %q, want %q", v.Size, v.ContentType, tt.types[i])
				}
				if v.Width != tt.sizes[i][0] || v.Height != tt.sizes[i][1] {
					t.Errorf("%s: %dx%d, want %dx%d", v.Size, v.Width, v.Height, tt.sizes[i][0], tt.sizes[i][1])
				}
				m := decodeVariant(t, v)
				if _, _, _, a := m.At(0, 0).RGBA(); tt.transparent && a == 0xFFFF {
					t.Errorf("%s: the transparent corner came out opaque", v.Size)
				}
			}
		})
	}
}

func TestProcessSizes(t *testing.T) {
	tests := []struct {
		w, h                   int
		thumb, display, origin [2]int
	}{
		{1400, 1050, [2]int{320, 240}, [2]int{1280, 960}, [2]int{1400, 1050}},
		{1050, 1400, [2]int{240, 320}, [2]int{960, 1280}, [2]int{1050, 1400}},
		{2000, 10, [2]int{320, 2}, [2]int{1280, 6}, [2]int{2000, 10}},
		{1, 2000, [2]int{1, 320}, [2]int{1, 1280}, [2]int{1, 2000}},
		{500, 500, [2]int{320, 320}, [2]int{500, 500}, [2]int{500, 500}},
		{321, 100, [2]int{320, 100}, [2]int{321, 100}, [2]int{321, 100}},
		{100, 50, [2]int{100, 50}, [2]int{100, 50}, [2]int{100, 50}}, // never upscaled
		{1, 1, [2]int{1, 1}, [2]int{1, 1}, [2]int{1, 1}},
	}
	for _, tt := range tests {
		res := mustProcess(t, encodeJPEG(t, gradient(tt.w, tt.h)), "image/jpeg")
		for i, want := range [3][2]int{tt.thumb, tt.display, tt.origin} {
			v := res.Variants[i]
			if v.Width != want[0] || v.Height != want[1] {
				t.Errorf("%dx%d: %s is %dx%d, want %dx%d", tt.w, tt.h, v.Size, v.Width, v.Height, want[0], want[1])
			}
		}
	}
}

// TestProcessScaledContent checks that scaling keeps the picture: each quadrant of a reduced
// rendition has its source colour (the box pre-reduction and Catmull-Rom must not shift or
// smear it).
func TestProcessScaledContent(t *testing.T) {
	// The JPEG takes the box filter (2x, on YCbCr) before Catmull-Rom on the way to the display
	// size; the PNGs reach it by Catmull-Rom alone, and their thumbnails take the box filter
	// on RGBA.
	tests := []struct {
		declared string
		data     []byte
	}{
		{"image/jpeg", encodeJPEG(t, quadrants(2600, 1300))},
		{"image/png", encodePNG(t, quadrants(1500, 900))},
		{"image/png", encodePNG(t, quadrants(700, 2100))},
	}
	for _, tt := range tests {
		res := mustProcess(t, tt.data, tt.declared)
		for _, v := range res.Variants {
			checkQuadrants(t, decodeVariant(t, v), v.Size, quadColours)
		}
	}
}

// checkQuadrants checks the colour at the centre of each quadrant of m.
func checkQuadrants(t *testing.T, m image.Image, what any, want [4]color.RGBA) {
	t.Helper()
	b := m.Bounds()
	for q, c := range want {
		x := b.Min.X + b.Dx()/4 + (q%2)*b.Dx()/2
		y := b.Min.Y + b.Dy()/4 + (q/2)*b.Dy()/2
		r, g, bl, _ := m.At(x, y).RGBA()
		got := [3]int{int(r >> 8), int(g >> 8), int(bl >> 8)}
		exp := [3]int{int(c.R), int(c.G), int(c.B)}
		for k := range got {
			if d := got[k] - exp[k]; d > 24 || d < -24 {
				t.Errorf("%v: quadrant %d at (%d,%d) is %v, want about %v", what, q, x, y, got, exp)
				break
			}
		}
	}
}

func TestProcessMetadataStripped(t *testing.T) {
	tests := []struct {
		name, declared string
		data           []byte
	}{
		{"jpeg with EXIF, GPS, XMP and a comment", "image/jpeg", withJPEGMetadata(encodeJPEG(t, gradient(900, 700)), 1)},
		{"png with eXIf, tEXt and iTXt", "image/png", withPNGMetadata(encodePNG(t, gradient(900, 700)), 1)},
		{"webp with EXIF and XMP", "image/webp", withWebPMetadata(t, readTestdata(t, "blue-purple-pink.lossy.webp"), 1, 150, 100)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !bytes.Contains(tt.data, []byte(planted)) {
				t.Fatal("the fixture does not carry the planted text")
			}
			for _, v := range mustProcess(t, tt.data, tt.declared).Variants {
				if bytes.Contains(v.Bytes, []byte(planted)) || bytes.Contains(v.Bytes, []byte("Exif")) ||
					bytes.Contains(v.Bytes, []byte("xmpmeta")) {
					t.Errorf("%s: metadata of the upload is in the output", v.Size)
				}
				switch v.ContentType {
				case "image/jpeg":
					for _, m := range jpegMarkers(t, v.Bytes) {
						if m >= 0xE0 && m <= 0xEF || m == 0xFE {
							t.Errorf("%s: output has an APP%d/COM segment (marker %#x)", v.Size, m-0xE0, m)
						}
					}
				case "image/png":
					for _, c := range pngChunks(t, v.Bytes) {
						if c != "IHDR" && c != "PLTE" && c != "tRNS" && c != "IDAT" && c != "IEND" {
							t.Errorf("%s: output has a %s chunk", v.Size, c)
						}
					}
				}
			}
		})
	}
}

// jpegMarkers lists the markers of the segments before the first scan.
func jpegMarkers(t *testing.T, b []byte) []byte {
	var ms []byte
	for i := 2; i+4 <= len(b); {
		if b[i] != 0xFF {
			t.Fatalf("no marker at %d", i)
		}
		ms = append(ms, b[i+1])
		if b[i+1] == 0xDA {
			break
		}
		i += 2 + int(binary.BigEndian.Uint16(b[i+2:]))
	}
	return ms
}

func pngChunks(t *testing.T, b []byte) []string {
	var cs []string
	for i := 8; i+8 <= len(b); i += 12 + int(binary.BigEndian.Uint32(b[i:])) {
		cs = append(cs, string(b[i+4:i+8]))
	}
	return cs
}

func TestProcessDeterministic(t *testing.T) {
	for _, tc := range []struct {
		declared string
		data     []byte
	}{
		{"image/jpeg", withJPEGMetadata(encodeJPEG(t, gradient(1000, 700)), 6)},
		{"image/png", encodePNG(t, gradient(500, 900))},
		{"image/webp", readTestdata(t, "gopher-doc.with-alpha.lossless.webp")},
	} {
		a := mustProcess(t, tc.data, tc.declared)
		b := mustProcess(t, tc.data, tc.declared)
		for i := range a.Variants {
			if a.Variants[i].SHA256 != b.Variants[i].SHA256 {
				t.Errorf("%s %s: two runs gave %s and %s", tc.declared, a.Variants[i].Size, a.Variants[i].SHA256, b.Variants[i].SHA256)
			}
		}
	}
}

// errInvalid checks that err is a domain.Invalid error whose message has every one of want.
func errInvalid(t *testing.T, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want Invalid with %q", want)
	}
	if code := domain.ErrorCode(err); code != domain.Invalid {
		t.Fatalf("code %q (%v), want invalid", code, err)
	}
	msg := domain.ErrorMessage(err)
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("message %q does not mention %q", msg, w)
		}
	}
}

func TestProcessRefuses(t *testing.T) {
	jpg := encodeJPEG(t, gradient(300, 200))
	pngData := encodePNG(t, gradient(300, 200))
	webpData := readTestdata(t, "blue-purple-pink.lossy.webp")
	badCRC := append([]byte{}, pngData...)
	badCRC[len(badCRC)-12-3] ^= 0xFF // a byte of the last IDAT chunk's checksum
	animated := withWebPMetadata(t, webpData, 1, 150, 100)
	animated[20] |= 0x02

	tests := []struct {
		name, declared string
		data           []byte
		lim            Limits
		want           []string
	}{
		{"png declared as jpeg", "image/jpeg", pngData, Limits{}, []string{`"image/jpeg"`, "png", "image/png"}},
		{"jpeg declared as webp", "image/webp", jpg, Limits{}, []string{`"image/webp"`, "jpeg"}},
		{"webp declared as png", "image/png", webpData, Limits{}, []string{`"image/png"`, "webp"}},
		{"no declared type", "", jpg, Limits{}, []string{`""`}},
		{"declared svg", "image/svg+xml", jpg, Limits{}, []string{"image/svg+xml"}},
		{"truncated jpeg", "image/jpeg", jpg[:len(jpg)/2], Limits{}, []string{"jpeg", "truncated or corrupt", "short Huffman data"}},
		{"jpeg cut inside its header", "image/jpeg", jpg[:40], Limits{}, []string{"jpeg", "truncated or corrupt", "ends early"}},
		{"truncated png", "image/png", pngData[:len(pngData)*3/4], Limits{}, []string{"png", "truncated or corrupt"}},
		{"png with a bad checksum", "image/png", badCRC, Limits{}, []string{"png", "truncated or corrupt", "checksum"}},
		{"truncated webp", "image/webp", webpData[:len(webpData)/2], Limits{}, []string{"webp"}},
		{"animated webp", "image/webp", animated, Limits{}, []string{"animated"}},
		{"more pixels than the limit", "image/jpeg", jpg, Limits{MaxPixels: 300*200 - 1}, []string{"300 x 200", "59999"}},
		{"more bytes than the limit", "image/jpeg", jpg, Limits{MaxBytes: int64(len(jpg) - 1)}, []string{"larger than"}},
		{"svg declared as png", "image/png", []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`), Limits{}, []string{"SVG"}},
		{"empty", "image/jpeg", nil, Limits{}, []string{"empty"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Process(context.Background(), bytes.NewReader(tt.data), tt.declared, tt.lim)
			if res != nil {
				t.Errorf("a result with the error")
			}
			errInvalid(t, err, tt.want...)
		})
	}
}

func TestProcessReadError(t *testing.T) {
	broken := errors.New("connection reset")
	_, err := Process(context.Background(), iotest.ErrReader(broken), "image/jpeg", Limits{})
	if !errors.Is(err, broken) {
		t.Fatalf("err = %v, want the reader's error", err)
	}
	if code := domain.ErrorCode(err); code != domain.Internal {
		t.Errorf("code %q: a failing reader is not the upload's fault", code)
	}
}

// TestProcessStopsWhenItsContextEnds: a caller whose request ended must get no renditions to
// store. Wherever ctx ends (while the upload is read, decoded, or between renditions), Process
// returns ctx's error, never a refusal of the upload or renditions.
func TestProcessStopsWhenItsContextEnds(t *testing.T) {
	for name, file := range map[string]struct {
		data     []byte
		declared string
	}{
		"jpeg":        {withJPEGMetadata(encodeJPEG(t, gradient(1600, 1200)), 6), "image/jpeg"},
		"png":         {encodePNG(t, gradient(1600, 1200)), "image/png"},
		"progressive": {jpegtest.ScanBomb(1600, 1200, 20, nil), "image/jpeg"},
		"lossy webp":  {readTestdata(t, "blue-purple-pink.lossy.webp"), "image/webp"},
	} {
		t.Run(name, func(t *testing.T) {
			// The context ends at its n-th look, for every n up to one Process never reaches.
			for n := 0; ; n++ {
				ctx := &endsAfter{Context: context.Background(), looks: n}
				res, err := Process(ctx, bytes.NewReader(file.data), file.declared, Limits{})
				if err == nil {
					if res == nil || len(res.Variants) != 3 {
						t.Fatalf("ended at look %d: no error and %+v", n, res)
					}
					if n == 0 {
						t.Fatal("an ended context made renditions")
					}
					return
				}
				if res != nil || !errors.Is(err, context.Canceled) || domain.ErrorCode(err) == domain.Invalid {
					t.Fatalf("ended at look %d: %v, %+v: want context.Canceled alone", n, err, res)
				}
			}
		})
	}
}

// endsAfter is a context that ends once Err has been asked looks times.
type endsAfter struct {
	context.Context
	looks int
}

func (c *endsAfter) Err() error {
	if c.looks--; c.looks < 0 {
		return context.Canceled
	}
	return nil
}

// bombPNG returns the first bytes of a PNG whose header claims w x h RGBA pixels, followed by
// a little compressed data: what a decompression bomb starts with.
func bombPNG(w, h uint32) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 6, 0, 0, 0)
	b := append([]byte{}, sigPNG...)
	b = append(b, pngChunk("IHDR", ihdr)...)
	b = append(b, pngChunk("IDAT", []byte{0x78, 0x9c, 0xed, 0xc1, 0x01, 0x0d, 0x00, 0x00})...)
	return append(b, pngChunk("IEND", nil)...)
}

// bombJPEG returns a small JPEG whose frame header is rewritten to claim w x h pixels.
func bombJPEG(t *testing.T, w, h uint16) []byte {
	b := encodeJPEG(t, gradient(16, 16))
	for i := 2; i+9 < len(b); i += 2 + int(binary.BigEndian.Uint16(b[i+2:])) {
		if b[i+1] == 0xC0 { // SOF0: length, precision, height, width
			binary.BigEndian.PutUint16(b[i+5:], h)
			binary.BigEndian.PutUint16(b[i+7:], w)
			return b
		}
	}
	t.Fatal("no SOF0 in the encoder's output")
	return nil
}

// bombWebP returns an extended WebP whose canvas claims w x h pixels.
func bombWebP(w, h int) []byte {
	vp8x := make([]byte, 10)
	vp8x[4], vp8x[5], vp8x[6] = byte(w-1), byte((w-1)>>8), byte((w-1)>>16)
	vp8x[7], vp8x[8], vp8x[9] = byte(h-1), byte((h-1)>>8), byte((h-1)>>16)
	body := append([]byte("WEBP"), riffChunk("VP8X", vp8x)...)
	body = append(body, riffChunk("VP8L", []byte{0x2f, 0xff, 0xff, 0xff, 0x0f})...)
	return riffChunk("RIFF", body)
}

// TestProcessRefusesBombsBeforeDecoding checks that a header claiming a huge picture is
// refused from the header alone: nothing near the claimed size is allocated.
func TestProcessRefusesBombsBeforeDecoding(t *testing.T) {
	tests := []struct {
		name, declared string
		data           []byte
	}{
		{"png 100000 x 100000", "image/png", bombPNG(100_000, 100_000)},
		{"jpeg 65535 x 65535", "image/jpeg", bombJPEG(t, 65535, 65535)},
		{"webp 16384 x 16384", "image/webp", bombWebP(16384, 16384)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Process(context.Background(), bytes.NewReader(tt.data), tt.declared, Limits{})
			errInvalid(t, err, "more than the 50000000 allowed")

			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			const runs = 10
			for range runs {
				if _, err := Process(context.Background(), bytes.NewReader(tt.data), tt.declared, Limits{}); err == nil {
					t.Fatal("accepted")
				}
			}
			runtime.ReadMemStats(&after)
			if perRun := (after.TotalAlloc - before.TotalAlloc) / runs; perRun > 64<<10 {
				t.Errorf("refusing the bomb allocated %d bytes a run; it must not touch the pixels", perRun)
			}
		})
	}
}

// FuzzProcess checks that no upload makes Process panic, and that it either refuses it as
// Invalid or returns three decodable renditions.
func FuzzProcess(f *testing.F) {
	f.Add(withJPEGMetadata(encodeJPEG(f, gradient(40, 30)), 6), "image/jpeg")
	f.Add(withPNGMetadata(encodePNG(f, gradient(30, 40)), 3), "image/png")
	f.Add(readTestdata(f, "blue-purple-pink.lossy.webp"), "image/webp")
	f.Add(readTestdata(f, "gopher-doc.with-alpha.lossless.webp"), "image/webp")
	f.Add(bombPNG(100_000, 100_000), "image/png")
	f.Fuzz(func(t *testing.T, data []byte, declared string) {
		res, err := Process(context.Background(), bytes.NewReader(data), declared, Limits{MaxPixels: 1 << 20})
		if err != nil {
			if code := domain.ErrorCode(err); code != domain.Invalid {
				t.Fatalf("code %q: %v", code, err)
			}
			return
		}
		if len(res.Variants) != 3 {
			t.Fatalf("%d variants", len(res.Variants))
		}
		for _, v := range res.Variants {
			decodeVariant(t, v)
		}
	})
}

// TestProcessAlphaScaling checks that scaling a picture with transparency weighs colours by
// their alpha: the hidden colour of fully transparent pixels must not bleed into the edge of
// the visible part, and a half-transparent colour keeps its colour and alpha.
func TestProcessAlphaScaling(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 1000, 800))
	for y := 0; y < 800; y++ {
		for x := 0; x < 1000; x++ {
			if x < 500 {
				src.SetNRGBA(x, y, color.NRGBA{255, 0, 0, 0}) // invisible red
			} else {
				src.SetNRGBA(x, y, color.NRGBA{0, 200, 0, 128})
			}
		}
	}
	res := mustProcess(t, encodePNG(t, src), "image/png")
	for _, v := range res.Variants[:2] {
		m := decodeVariant(t, v)
		w, h := m.Bounds().Dx(), m.Bounds().Dy()
		for _, x := range []int{w/2 - 1, w / 2, w/2 + 1, w * 3 / 4} {
			c := color.NRGBAModel.Convert(m.At(x, h/2)).(color.NRGBA)
			if c.A == 0 {
				continue
			}
			if c.R > 8 || c.G < 190 {
				t.Errorf("%s: pixel (%d,%d) is %v: transparent red bled into the green", v.Size, x, h/2, c)
			}
		}
		if c := color.NRGBAModel.Convert(m.At(w*3/4, h/2)).(color.NRGBA); c.A < 124 || c.A > 132 {
			t.Errorf("%s: half-transparent green has alpha %d, want about 128", v.Size, c.A)
		}
	}
}
