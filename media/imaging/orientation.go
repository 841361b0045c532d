package imaging

import (
	"bytes"
	"encoding/binary"
	"image"
)

// Orientation is the EXIF Orientation tag (0x0112): how the stored pixels must be turned to
// show the picture upright. 1 is upright; 2–8 are the other seven mirrorings and rotations,
// named here by the transform that undoes them.
type Orientation int

// The eight EXIF orientations.
const (
	OrientNormal        Orientation = 1 // stored upright
	OrientFlipH         Orientation = 2 // mirror left-right
	OrientRotate180     Orientation = 3
	OrientFlipV         Orientation = 4 // mirror top-bottom
	OrientTranspose     Orientation = 5 // mirror along the top-left to bottom-right diagonal
	OrientRotate90      Orientation = 6 // rotate 90° clockwise to show
	OrientTransverse    Orientation = 7 // mirror along the top-right to bottom-left diagonal
	OrientRotate270     Orientation = 8 // rotate 90° counter-clockwise to show
	tagOrientation                  = 0x0112
	maxIFDEntriesToScan             = 256
)

// swapsAxes reports whether showing the picture upright swaps its width and height.
func (o Orientation) swapsAxes() bool { return o >= OrientTranspose && o <= OrientRotate270 }

// orientationOf returns the EXIF orientation an image of the given format carries, and
// OrientNormal when it has none or the tag is damaged: a bad orientation tag is not a reason to
// refuse a photo, since browsers show such a file as stored too.
//
// This is a reader of the one tag, not a general EXIF parser, on purpose: it has to find the
// EXIF block in three containers (JPEG APP1, PNG eXIf, WebP EXIF chunk), it reads untrusted
// uploads, and it needs nothing else from EXIF. github.com/rwcarlsen/goexif has had no release
// since 2019 and decodes every IFD (maker notes included) into memory; github.com/dsoprea/go-exif/v3
// brings four more modules and reports errors by panicking. Here every offset is bounds-checked
// against the block, at most one IFD of at most maxIFDEntriesToScan entries is read, and
// nothing is allocated.
func orientationOf(format string, data []byte) Orientation {
	var tiff []byte
	switch format {
	case FormatJPEG:
		tiff = jpegEXIF(data)
	case FormatPNG:
		tiff = pngEXIF(data)
	case FormatWebP:
		tiff = webpEXIF(data)
	}
	return tiffOrientation(tiff)
}

var exifHeader = []byte("Exif\x00\x00")

// jpegEXIF returns the TIFF block of the first APP1 Exif segment before the image data.
func jpegEXIF(data []byte) []byte {
	i := 2 // after SOI
	for i+4 <= len(data) {
		if data[i] != 0xFF {
			return nil
		}
		marker := data[i+1]
		switch {
		case marker == 0xFF: // fill byte
			i++
			continue
		case marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7): // no length
			i += 2
			continue
		case marker == 0xDA || marker == 0xD9: // start of scan, end of image
			return nil
		}
		n := int(binary.BigEndian.Uint16(data[i+2:]))
		if n < 2 || i+2+n > len(data) {
			return nil
		}
		seg := data[i+4 : i+2+n]
		if marker == 0xE1 && bytes.HasPrefix(seg, exifHeader) {
			return seg[len(exifHeader):]
		}
		i += 2 + n
	}
	return nil
}

// pngEXIF returns the contents of the first eXIf chunk.
func pngEXIF(data []byte) []byte {
	i := len(sigPNG)
	for i+8 <= len(data) {
		n := binary.BigEndian.Uint32(data[i:])
		typ := string(data[i+4 : i+8])
		if uint64(n) > uint64(len(data)-i-8) {
			return nil
		}
		body := data[i+8 : i+8+int(n)]
		switch typ {
		case "eXIf":
			return body
		case "IEND":
			return nil
		}
		i += 8 + int(n) + 4 // length, type, data, CRC
	}
	return nil
}

// webpEXIF returns the contents of the first EXIF chunk of an extended (VP8X) WebP file. Some
// writers put the JPEG-style "Exif\0\0" prefix in front of the TIFF header; it is skipped.
func webpEXIF(data []byte) []byte {
	i := 12 // "RIFF", size, "WEBP"
	for i+8 <= len(data) {
		typ := string(data[i : i+4])
		n := binary.LittleEndian.Uint32(data[i+4:])
		if uint64(n) > uint64(len(data)-i-8) {
			return nil
		}
		if typ == "EXIF" {
			return bytes.TrimPrefix(data[i+8:i+8+int(n)], exifHeader)
		}
		i += 8 + int(n) + int(n&1) // chunks are padded to an even length
	}
	return nil
}

// tiffOrientation reads the Orientation tag from IFD0 of a TIFF-structured EXIF block.
func tiffOrientation(tiff []byte) Orientation {
	if len(tiff) < 8 {
		return OrientNormal
	}
	var bo binary.ByteOrder
	switch string(tiff[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return OrientNormal
	}
	if bo.Uint16(tiff[2:]) != 42 {
		return OrientNormal
	}
	ifd := uint64(bo.Uint32(tiff[4:]))
	if ifd+2 > uint64(len(tiff)) {
		return OrientNormal
	}
	count := int(bo.Uint16(tiff[ifd:]))
	entries := tiff[ifd+2:]
	for k := 0; k < count && k < maxIFDEntriesToScan && 12*(k+1) <= len(entries); k++ {
		e := entries[12*k : 12*(k+1)]
		if bo.Uint16(e) != tagOrientation {
			continue
		}
		// SHORT (3), one value, stored in the first two bytes of the value field.
		if bo.Uint16(e[2:]) != 3 || bo.Uint32(e[4:]) != 1 {
			return OrientNormal
		}
		if o := Orientation(bo.Uint16(e[8:])); o >= OrientNormal && o <= OrientRotate270 {
			return o
		}
		return OrientNormal
	}
	return OrientNormal
}

// sourceCoord maps a pixel (x, y) of the upright picture, whose stored form is w x h, to the
// stored pixel it shows.
func (o Orientation) sourceCoord(x, y, w, h int) (int, int) {
	switch o {
	case OrientFlipH:
		return w - 1 - x, y
	case OrientRotate180:
		return w - 1 - x, h - 1 - y
	case OrientFlipV:
		return x, h - 1 - y
	case OrientTranspose:
		return y, x
	case OrientRotate90:
		return y, h - 1 - x
	case OrientTransverse:
		return w - 1 - y, h - 1 - x
	case OrientRotate270:
		return w - 1 - y, x
	}
	return x, y
}

// uprightSize returns the size of the upright picture whose stored form is w x h.
func (o Orientation) uprightSize(w, h int) (int, int) {
	if o.swapsAxes() {
		return h, w
	}
	return w, h
}

// orient4 returns the upright form of an image with 4 bytes per pixel (*image.RGBA or
// *image.NRGBA, given as its pixel slice, stride and size), in a new slice of the same layout,
// walking the output in cache-sized tiles as orientYCbCr does.
func orient4(pix []byte, stride, w, h int, o Orientation) (out []byte, outStride, ow, oh int) {
	ow, oh = o.uprightSize(w, h)
	out = make([]byte, 4*ow*oh)
	const tile = 64
	for ty := 0; ty < oh; ty += tile {
		for tx := 0; tx < ow; tx += tile {
			for y := ty; y < min(oh, ty+tile); y++ {
				row := out[4*ow*y : 4*ow*(y+1)]
				for x := tx; x < min(ow, tx+tile); x++ {
					sx, sy := o.sourceCoord(x, y, w, h)
					copy(row[4*x:4*x+4], pix[sy*stride+4*sx:])
				}
			}
		}
	}
	return out, 4 * ow, ow, oh
}

// orientRGBA returns the upright form of m, m itself when o is OrientNormal.
func orientRGBA(m *image.RGBA, o Orientation) *image.RGBA {
	if o == OrientNormal {
		return m
	}
	b := m.Bounds()
	pix, stride, w, h := orient4(m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride, b.Dx(), b.Dy(), o)
	return &image.RGBA{Pix: pix, Stride: stride, Rect: image.Rect(0, 0, w, h)}
}

// orientNRGBA is orientRGBA for non-premultiplied pixels.
func orientNRGBA(m *image.NRGBA, o Orientation) *image.NRGBA {
	if o == OrientNormal {
		return m
	}
	b := m.Bounds()
	pix, stride, w, h := orient4(m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride, b.Dx(), b.Dy(), o)
	return &image.NRGBA{Pix: pix, Stride: stride, Rect: image.Rect(0, 0, w, h)}
}

// orientYCbCr returns the upright form of m as a 4:4:4 YCbCr image (3 bytes a pixel, which
// the JPEG encoder takes without converting), m itself when o is OrientNormal. It walks the
// output in tiles so that a rotation, which reads the source down its columns, stays within
// the cache.
func orientYCbCr(m *image.YCbCr, o Orientation) *image.YCbCr {
	if o == OrientNormal {
		return m
	}
	b := m.Bounds()
	w, h := b.Dx(), b.Dy()
	ow, oh := o.uprightSize(w, h)
	out := image.NewYCbCr(image.Rect(0, 0, ow, oh), image.YCbCrSubsampleRatio444)
	hs, vs := chromaShift(m.SubsampleRatio)
	const tile = 64
	for ty := 0; ty < oh; ty += tile {
		for tx := 0; tx < ow; tx += tile {
			for y := ty; y < min(oh, ty+tile); y++ {
				i := y * out.YStride
				for x := tx; x < min(ow, tx+tile); x++ {
					sx, sy := o.sourceCoord(x, y, w, h)
					sx, sy = sx+b.Min.X, sy+b.Min.Y
					c := (sy>>vs-b.Min.Y>>vs)*m.CStride + (sx>>hs - b.Min.X>>hs)
					out.Y[i+x] = m.Y[(sy-b.Min.Y)*m.YStride+(sx-b.Min.X)]
					out.Cb[i+x] = m.Cb[c]
					out.Cr[i+x] = m.Cr[c]
				}
			}
		}
	}
	return out
}
