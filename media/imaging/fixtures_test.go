package imaging

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"testing"
)

// The fixtures below are built in code, deterministically; only the WebP files in testdata
// are stored, because Go cannot encode WebP.

// planted is text put into every metadata block of a fixture; no output may contain it.
const planted = "GPS 52.5200N 13.4050E planted-by-test"

// quadrants returns a w x h picture whose four quadrants have the colours of quadColours, in
// the order top-left, top-right, bottom-left, bottom-right.
func quadrants(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			q := 0
			if x >= w/2 {
				q++
			}
			if y >= h/2 {
				q += 2
			}
			m.SetRGBA(x, y, quadColours[q])
		}
	}
	return m
}

var quadColours = [4]color.RGBA{
	{220, 30, 30, 255},  // top-left: red
	{30, 200, 30, 255},  // top-right: green
	{30, 30, 220, 255},  // bottom-left: blue
	{230, 230, 40, 255}, // bottom-right: yellow
}

// gradient returns an opaque w x h picture with smooth variation, cheap to make at any size.
func gradient(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := m.PixOffset(x, y)
			m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = uint8(x*255/w), uint8(y*255/h), uint8((x+y)%256), 255
		}
	}
	return m
}

func encodeJPEG(t testing.TB, m image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, m, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func encodePNG(t testing.TB, m image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// exifTIFF returns a big-endian TIFF block as EXIF stores it: IFD0 with an ImageDescription
// holding the planted text, the given Orientation, and a GPS IFD with a latitude reference.
func exifTIFF(orientation uint16) []byte {
	const (
		ifd0     = 8
		gpsIFD   = ifd0 + 2 + 3*12 + 4
		descText = gpsIFD + 2 + 12 + 4
	)
	desc := append([]byte(planted), 0)
	b := make([]byte, descText, descText+len(desc))
	be := binary.BigEndian
	copy(b, "MM")
	be.PutUint16(b[2:], 42)
	be.PutUint32(b[4:], ifd0)
	be.PutUint16(b[ifd0:], 3)
	entry := func(at int, tag, typ uint16, count, value uint32) {
		be.PutUint16(b[at:], tag)
		be.PutUint16(b[at+2:], typ)
		be.PutUint32(b[at+4:], count)
		be.PutUint32(b[at+8:], value)
	}
	entry(ifd0+2, 0x010E, 2, uint32(len(desc)), descText)   // ImageDescription, ASCII
	entry(ifd0+2+12, 0x0112, 3, 1, uint32(orientation)<<16) // Orientation, SHORT, left-justified
	entry(ifd0+2+24, 0x8825, 4, 1, gpsIFD)                  // GPSInfo IFD pointer
	be.PutUint16(b[gpsIFD:], 1)                             //
	entry(gpsIFD+2, 0x0001, 2, 2, uint32('N')<<24)          // GPSLatitudeRef "N"
	return append(b, desc...)
}

// jpegSegment returns a JPEG marker segment.
func jpegSegment(marker byte, body []byte) []byte {
	seg := []byte{0xFF, marker, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(len(body)+2))
	return append(seg, body...)
}

// withJPEGMetadata returns a JPEG with an EXIF APP1 (carrying orientation), an XMP APP1 and a
// comment inserted after SOI, each holding the planted text.
func withJPEGMetadata(jpg []byte, orientation uint16) []byte {
	xmp := []byte("http://ns.adobe.com/xap/1.0/\x00<x:xmpmeta><exif:GPSLatitude>" + planted + "</exif:GPSLatitude></x:xmpmeta>")
	out := append([]byte{}, jpg[:2]...)
	out = append(out, jpegSegment(0xE1, append([]byte("Exif\x00\x00"), exifTIFF(orientation)...))...)
	out = append(out, jpegSegment(0xE1, xmp)...)
	out = append(out, jpegSegment(0xFE, []byte(planted))...)
	return append(out, jpg[2:]...)
}

// pngChunk returns one PNG chunk with its CRC.
func pngChunk(typ string, body []byte) []byte {
	c := binary.BigEndian.AppendUint32(nil, uint32(len(body)))
	c = append(c, typ...)
	c = append(c, body...)
	return binary.BigEndian.AppendUint32(c, crc32.ChecksumIEEE(c[4:]))
}

// withPNGMetadata returns a PNG with eXIf (carrying orientation), tEXt and iTXt chunks
// inserted after IHDR, each holding the planted text.
func withPNGMetadata(p []byte, orientation uint16) []byte {
	afterIHDR := 8 + 8 + 13 + 4
	out := append([]byte{}, p[:afterIHDR]...)
	out = append(out, pngChunk("eXIf", exifTIFF(orientation))...)
	out = append(out, pngChunk("tEXt", []byte("Comment\x00"+planted))...)
	out = append(out, pngChunk("iTXt", []byte("XML:com.adobe.xmp\x00\x00\x00\x00\x00"+planted))...)
	return append(out, p[afterIHDR:]...)
}

// riffChunk returns one RIFF chunk, padded to an even length.
func riffChunk(typ string, body []byte) []byte {
	c := append([]byte(typ), 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(c[4:], uint32(len(body)))
	c = append(c, body...)
	if len(body)%2 == 1 {
		c = append(c, 0)
	}
	return c
}

// withWebPMetadata rewraps a simple (VP8) WebP file as an extended one with EXIF (carrying
// orientation) and XMP chunks, as cameras and editors write them.
func withWebPMetadata(t testing.TB, webp []byte, orientation uint16, w, h int) []byte {
	t.Helper()
	if string(webp[12:16]) != "VP8 " {
		t.Fatalf("fixture is not a simple lossy WebP: %q", webp[12:16])
	}
	vp8x := make([]byte, 10)
	vp8x[0] = 0x08 | 0x04 // EXIF and XMP present
	put24 := func(b []byte, v int) { b[0], b[1], b[2] = byte(v), byte(v>>8), byte(v>>16) }
	put24(vp8x[4:], w-1)
	put24(vp8x[7:], h-1)
	body := []byte("WEBP")
	body = append(body, riffChunk("VP8X", vp8x)...)
	body = append(body, webp[12:]...)
	body = append(body, riffChunk("EXIF", exifTIFF(orientation))...)
	body = append(body, riffChunk("XMP ", []byte("<x:xmpmeta>"+planted+"</x:xmpmeta>"))...)
	return riffChunk("RIFF", body)[:8+len(body)]
}

// interlacedPNG returns m as an Adam7-interlaced 8-bit RGBA PNG, which Go's encoder does not
// write: each pass's rows unfiltered, one zlib stream.
func interlacedPNG(t testing.TB, m *image.NRGBA) []byte {
	t.Helper()
	w, h := m.Rect.Dx(), m.Rect.Dy()
	var raw bytes.Buffer
	for _, p := range []struct{ x, y, dx, dy int }{{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}} {
		if p.x >= w || p.y >= h {
			continue
		}
		for y := p.y; y < h; y += p.dy {
			raw.WriteByte(0) // filter: none
			for x := p.x; x < w; x += p.dx {
				raw.Write(m.Pix[m.PixOffset(x, y) : m.PixOffset(x, y)+4])
			}
		}
	}
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	if _, err := zw.Write(raw.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, 8, 6, 0, 0, 1) // 8-bit RGBA, interlaced
	b := append([]byte{}, sigPNG...)
	b = append(b, pngChunk("IHDR", ihdr)...)
	b = append(b, pngChunk("IDAT", z.Bytes())...)
	return append(b, pngChunk("IEND", nil)...)
}
