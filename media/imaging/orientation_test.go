package imaging

import (
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"testing"
)

// storedForm returns how a camera stores the upright picture up under an EXIF orientation.
// It is written from the EXIF specification's table (where the stored 0th row and 0th column
// appear in the upright picture), not from the code under test.
func storedForm(up *image.RGBA, o int) *image.RGBA {
	sides := map[int][2]string{ // 0th row, 0th column
		1: {"top", "left"}, 2: {"top", "right"}, 3: {"bottom", "right"}, 4: {"bottom", "left"},
		5: {"left", "top"}, 6: {"right", "top"}, 7: {"right", "bottom"}, 8: {"left", "bottom"},
	}[o]
	uw, uh := up.Bounds().Dx(), up.Bounds().Dy()
	sw, sh := uw, uh
	rowsAreColumns := sides[0] == "left" || sides[0] == "right"
	if rowsAreColumns {
		sw, sh = uh, uw
	}
	stored := image.NewRGBA(image.Rect(0, 0, sw, sh))
	for r := 0; r < sh; r++ {
		for c := 0; c < sw; c++ {
			var x, y int
			if rowsAreColumns {
				x, y = r, c
				if sides[0] == "right" {
					x = uw - 1 - r
				}
				if sides[1] == "bottom" {
					y = uh - 1 - c
				}
			} else {
				x, y = c, r
				if sides[0] == "bottom" {
					y = uh - 1 - r
				}
				if sides[1] == "right" {
					x = uw - 1 - c
				}
			}
			stored.SetRGBA(c, r, up.RGBAAt(x, y))
		}
	}
	return stored
}

// TestProcessOrientation stores a picture of four coloured quadrants in each of the eight
// EXIF orientations, in each format that carries EXIF, and checks that every rendition shows
// it upright, at the upright size.
func TestProcessOrientation(t *testing.T) {
	const uw, uh = 400, 300 // upright size: the thumbnail is scaled, the display is not
	up := quadrants(uw, uh)
	grayColours := quadColours
	for i, c := range grayColours {
		g := color.GrayModel.Convert(c).(color.Gray).Y
		grayColours[i] = color.RGBA{g, g, g, 255}
	}
	// At 1360 x 1020 the display copy is scaled too and the thumbnail is made from it.
	large := quadrants(1360, 1020)
	// Every orientation for the two main paths (YCbCr from JPEG, RGBA from PNG); three of them,
	// a mirroring and two that swap the axes, for the other layouts and for the large source,
	// which share the orientation code and differ only in how the pixels get to it.
	some := func(o int) bool { return o == 2 || o == 6 || o == 7 }
	for o := 1; o <= 8; o++ {
		stored := storedForm(up, o)
		small := [3][2]int{{320, 240}, {uw, uh}, {uw, uh}}
		formats := []struct {
			name, declared string
			data           func(*testing.T) []byte
			want           [4]color.RGBA
			sizes          [3][2]int
			run            bool
		}{
			{"jpeg", "image/jpeg", func(t *testing.T) []byte { return withJPEGMetadata(encodeJPEG(t, stored), uint16(o)) }, quadColours, small, true},
			{"png", "image/png", func(t *testing.T) []byte { return withPNGMetadata(encodePNG(t, stored), uint16(o)) }, quadColours, small, true},
			{"large jpeg", "image/jpeg", func(t *testing.T) []byte { return withJPEGMetadata(encodeJPEG(t, storedForm(large, o)), uint16(o)) }, quadColours,
				[3][2]int{{320, 240}, {1280, 960}, {1360, 1020}}, some(o)},
			{"gray png", "image/png", func(t *testing.T) []byte { return withPNGMetadata(encodePNG(t, toGray(stored)), uint16(o)) }, grayColours, small, some(o)},
			{"png with alpha", "image/png", func(t *testing.T) []byte { return withPNGMetadata(encodePNG(t, toNRGBAWithHole(stored)), uint16(o)) }, quadColours, small, some(o)},
			{"16-bit png with alpha", "image/png", func(t *testing.T) []byte { return withPNGMetadata(encodePNG(t, toNRGBA64WithHole(stored)), uint16(o)) }, quadColours, small, some(o)},
		}
		for _, f := range formats {
			if !f.run {
				continue
			}
			t.Run(fmt.Sprintf("%s/%d", f.name, o), func(t *testing.T) {
				t.Parallel()
				res := mustProcess(t, f.data(t), f.declared)
				for i, v := range res.Variants {
					if v.Width != f.sizes[i][0] || v.Height != f.sizes[i][1] {
						t.Errorf("%s: %dx%d, want %dx%d", v.Size, v.Width, v.Height, f.sizes[i][0], f.sizes[i][1])
						continue
					}
					checkQuadrants(t, decodeVariant(t, v), v.Size, f.want)
				}
			})
		}
	}
}

func toGray(m *image.RGBA) *image.Gray {
	g := image.NewGray(m.Bounds())
	for y := m.Rect.Min.Y; y < m.Rect.Max.Y; y++ {
		for x := m.Rect.Min.X; x < m.Rect.Max.X; x++ {
			g.Set(x, y, m.At(x, y))
		}
	}
	return g
}

// toNRGBA64WithHole is toNRGBAWithHole with 16 bits a channel.
func toNRGBA64WithHole(m *image.RGBA) *image.NRGBA64 {
	n := image.NewNRGBA64(m.Bounds())
	for y := m.Rect.Min.Y; y < m.Rect.Max.Y; y++ {
		for x := m.Rect.Min.X; x < m.Rect.Max.X; x++ {
			n.Set(x, y, m.At(x, y))
		}
	}
	n.SetNRGBA64(0, 0, color.NRGBA64{})
	return n
}

// toNRGBAWithHole copies m and makes one corner pixel transparent, so the PNG keeps alpha.
func toNRGBAWithHole(m *image.RGBA) *image.NRGBA {
	n := image.NewNRGBA(m.Bounds())
	copy(n.Pix, m.Pix)
	n.Pix[3] = 0
	return n
}

func TestProcessOrientationWebP(t *testing.T) {
	src := readTestdata(t, "blue-purple-pink.lossy.webp") // 150 x 100
	for o, want := range map[uint16][2]int{1: {150, 100}, 3: {150, 100}, 6: {100, 150}, 8: {100, 150}} {
		res := mustProcess(t, withWebPMetadata(t, src, o, 150, 100), "image/webp")
		for _, v := range res.Variants {
			if v.Width != want[0] || v.Height != want[1] {
				t.Errorf("orientation %d: %s is %dx%d, want %dx%d", o, v.Size, v.Width, v.Height, want[0], want[1])
			}
		}
	}
}

// TestOrientationOf covers the EXIF reader on damaged and unusual blocks: none may panic and
// every doubtful case reads as upright.
func TestOrientationOf(t *testing.T) {
	little := func(o uint16) []byte {
		b := []byte("II*\x00\x08\x00\x00\x00\x01\x00")
		e := make([]byte, 12)
		binary.LittleEndian.PutUint16(e, 0x0112)
		binary.LittleEndian.PutUint16(e[2:], 3)
		binary.LittleEndian.PutUint32(e[4:], 1)
		binary.LittleEndian.PutUint16(e[8:], o)
		return append(append(b, e...), 0, 0, 0, 0)
	}
	jpg := encodeJPEG(t, gradient(8, 8))
	app1 := func(tiff []byte) []byte {
		return append(append([]byte{0xFF, 0xD8}, jpegSegment(0xE1, append([]byte("Exif\x00\x00"), tiff...))...), jpg[2:]...)
	}
	tests := []struct {
		name string
		data []byte
		want Orientation
	}{
		{"big-endian 6", app1(exifTIFF(6)), OrientRotate90},
		{"little-endian 8", app1(little(8)), OrientRotate270},
		{"little-endian 3", app1(little(3)), OrientRotate180},
		{"out of range 9", app1(little(9)), OrientNormal},
		{"zero", app1(little(0)), OrientNormal},
		{"no EXIF", jpg, OrientNormal},
		{"EXIF after the scan is ignored", append(append([]byte{}, jpg...), jpegSegment(0xE1, append([]byte("Exif\x00\x00"), little(6)...))...), OrientNormal},
		{"IFD offset past the end", app1([]byte("MM\x00\x2a\xff\xff\xff\xf0")), OrientNormal},
		{"entry count past the end", app1([]byte("MM\x00\x2a\x00\x00\x00\x08\xff\xff")), OrientNormal},
		{"not TIFF", app1([]byte("XX\x00\x2a\x00\x00\x00\x08")), OrientNormal},
		{"wrong type", app1(func() []byte { b := little(6); b[12] = 4; return b }()), OrientNormal},
		{"segment length past the end", []byte{0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 'E', 'x'}, OrientNormal},
		{"cut inside the block", app1(little(6))[:20], OrientNormal},
	}
	for _, tt := range tests {
		if got := orientationOf(FormatJPEG, tt.data); got != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, got, tt.want)
		}
	}
	if got := orientationOf(FormatPNG, withPNGMetadata(encodePNG(t, gradient(4, 4)), 5)); got != OrientTranspose {
		t.Errorf("png eXIf: %d, want 5", got)
	}
	if got := orientationOf(FormatWebP, withWebPMetadata(t, readTestdata(t, "blue-purple-pink.lossy.webp"), 7, 150, 100)); got != OrientTransverse {
		t.Errorf("webp EXIF: %d, want 7", got)
	}
}

// FuzzOrientationOf checks that no input makes the EXIF reader panic or read out of bounds.
func FuzzOrientationOf(f *testing.F) {
	f.Add(withJPEGMetadata(encodeJPEG(f, gradient(8, 8)), 6))
	f.Add(withPNGMetadata(encodePNG(f, gradient(4, 4)), 3))
	f.Add(withWebPMetadata(f, readTestdata(f, "blue-purple-pink.lossy.webp"), 8, 150, 100))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, format := range []string{FormatJPEG, FormatPNG, FormatWebP} {
			if o := orientationOf(format, data); o < OrientNormal || o > OrientRotate270 {
				t.Fatalf("%s: orientation %d", format, o)
			}
		}
	})
}
