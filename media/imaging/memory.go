package imaging

import (
	"encoding/binary"
	"fmt"

	"github.com/quickphotos/quickphotos/domain"
)

// BytesPerPixel is the memory Process may hold in pictures for each pixel Limits.MaxPixels
// allows: before decoding, a file is refused when making its renditions would hold more than
// BytesPerPixel x MaxPixels bytes of decoded pictures, decoder state and copies at once.
//
// Six bytes is what the costliest ordinary photo takes, so that MaxPixels is what it says for
// every colour JPEG as cameras and phones write it (baseline, turned upright or not), every
// 8-bit PNG that needs no turning and every lossy WebP without transparency: a 4:4:4 JPEG
// turned upright holds its 3-byte picture and a 3-byte upright copy (a phone's 4:2:0 photo,
// 1.5 and 3). What needs more a pixel is allowed fewer pixels: a progressive JPEG, whose
// decoder keeps every coefficient as 4 bytes a sample until the last scan (15 bytes a pixel
// at 4:4:4, 7.5 at 4:2:0); a 16-bit PNG (8, and 4 more for the 8-bit copy scaling makes); a
// CMYK JPEG; a grey JPEG or a PNG turned upright; a lossless WebP, whose decoder may hold its
// pixels twice (webpCost).
const BytesPerPixel = 6

// layout is how the pipeline treats a decoded picture's type.
type layout int

const (
	// layoutYCbCr: *image.YCbCr, scaled and turned upright without a conversion; its upright
	// copy is 4:4:4, 3 bytes a pixel.
	layoutYCbCr layout = iota
	// layoutRGBA: *image.RGBA or *image.NRGBA, scaled without a conversion; its upright copy
	// is 4 bytes a pixel.
	layoutRGBA
	// layoutOther: grey, paletted, CMYK, 16-bit, YCbCr with alpha: scaling converts it to a
	// 4-byte RGBA copy first, and turning it upright makes another.
	layoutOther
)

// pictureCost is what decoding a file holds, in bytes, told from its header.
type pictureCost struct {
	// kind names the file for a refusal: "progressive JPEG", "16-bit PNG".
	kind string
	// decoding is the most the decoder holds at once: the picture as it fills it,
	// coefficients, rows or passes, and a conversion it makes at the end.
	decoding int64
	// picture is the decoded picture's size, which the pipeline holds throughout.
	picture int64
	layout  layout
}

// memory returns the most that making the renditions of a w x h picture of cost c, turned
// upright by o, holds at once: the decoder's peak, or the picture with the copies the
// pipeline makes of it (render), whichever is more. It leaves out what does not grow with the
// pixels (the upload, the encoded renditions, and the scaling buffers, which stay under
// ~105 MB whatever the size: x/image/draw's 32 bytes per output column and source row,
// under 1280 x 2560 once the box filter has shrunk the source below twice the target).
func (c pictureCost) memory(w, h int, o Orientation) int64 {
	px := int64(w) * int64(h)
	held := c.picture
	switch c.layout {
	case layoutYCbCr:
		if o != OrientNormal {
			held += 3 * px // orientYCbCr's 4:4:4 copy
		}
	case layoutRGBA:
		if o != OrientNormal {
			held += 4 * px // orient4's copy
		}
	default:
		held += 4 * px // boxReduce's RGBA copy, or orientFull's before it turns it
		if o != OrientNormal {
			held += 4 * px // the upright copy, kept while the smaller sizes are made
		}
	}
	return max(c.decoding, held)
}

// checkMemory refuses a w x h picture of cost c, turned by o, whose renditions would take more
// than BytesPerPixel for each of maxPixels pixels.
func checkMemory(c pictureCost, w, h int, o Orientation, maxPixels int64) error {
	need, allowed := c.memory(w, h, o), BytesPerPixel*maxPixels
	if need <= allowed {
		return nil
	}
	turned := ""
	if o != OrientNormal {
		turned = ", turned upright,"
	}
	return domain.Errorf(domain.Invalid, "the %s image is %d x %d: making its sizes%s would take about %d MB (%.1f bytes a pixel), more than the %d MB allowed (%d bytes for each of %d pixels): send a smaller image",
		c.kind, w, h, turned, need/1e6, float64(need)/float64(int64(w)*int64(h)), allowed/1e6, BytesPerPixel, maxPixels)
}

// jpegCost is what image/jpeg holds decoding a w x h JPEG of header hdr (reader.go, scan.go):
// the picture padded to whole MCUs, one byte a sample; for a progressive frame every block's
// 64 coefficients as int32, 4 bytes a sample, until the last scan; and for CMYK or RGB the
// 4-byte picture it converts to while the first is held.
func jpegCost(hdr jpegHeader, w, h int) pictureCost {
	c := pictureCost{kind: "jpeg", layout: layoutYCbCr}
	comps := hdr.comps
	if len(comps) == 0 {
		// No frame the decoder takes: it refuses the file before allocating.
		return c
	}
	hmax, vmax := 1, 1
	for _, k := range comps {
		hmax, vmax = max(hmax, k.h), max(vmax, k.v)
	}
	mcus := int64((w+8*hmax-1)/(8*hmax)) * int64((h+8*vmax-1)/(8*vmax))
	var samples int64
	for _, k := range comps {
		samples += mcus * int64(k.h*k.v) * 64
	}
	c.picture, c.decoding = samples, samples
	if hdr.progressive {
		c.kind = "progressive jpeg"
		c.decoding += 4 * samples
	}
	px := int64(w) * int64(h)
	switch {
	case len(comps) == 1:
		c.layout = layoutOther // *image.Gray
	case len(comps) == 4:
		c.kind += " (CMYK)"
		c.decoding += 4 * px
		c.picture, c.layout = 4*px, layoutOther // *image.CMYK
	case hdr.isRGB():
		c.decoding += 4 * px
		c.picture, c.layout = 4*px, layoutRGBA
	}
	return c
}

// pngCost is what image/png holds decoding a w x h PNG: the picture in the type its header
// asks for (the decoder's readImagePass), and for an interlaced one the largest pass beside it
// (every other row, half the picture) before it is merged. Rows are a few kilobytes.
func pngCost(data []byte, w, h int) pictureCost {
	c := pictureCost{kind: "png", layout: layoutOther}
	if len(data) < 33 {
		return c
	}
	depth, colour, interlaced := data[24], data[25], data[28] == 1
	transparent := pngHasChunk(data, "tRNS")
	bytesPerPixel := int64(8) // a 16-bit type, or one the decoder refuses
	switch {
	case colour == 3: // paletted, whatever the depth and transparency
		bytesPerPixel = 1
	case depth == 16:
		c.kind = "16-bit png"
		if colour == 0 && !transparent {
			bytesPerPixel = 2 // Gray16
		}
	case colour == 0 && !transparent: // Gray
		bytesPerPixel = 1
	case depth == 8 || colour == 0: // RGBA or NRGBA
		bytesPerPixel, c.layout = 4, layoutRGBA
	}
	c.picture = bytesPerPixel * int64(w) * int64(h)
	c.decoding = c.picture
	if interlaced {
		c.kind = "interlaced " + c.kind
		c.decoding += c.picture / 2
	}
	return c
}

// pngHasChunk reports whether a PNG has a chunk of type typ before its image data.
func pngHasChunk(data []byte, typ string) bool {
	for i := len(sigPNG); i+8 <= len(data); {
		n := binary.BigEndian.Uint32(data[i:])
		switch string(data[i+4 : i+8]) {
		case typ:
			return true
		case "IDAT", "IEND":
			return false
		}
		if uint64(n) > uint64(len(data)-i-8) {
			return false
		}
		i += 8 + int(n) + 4 // length, type, data, CRC
	}
	return false
}

// webpCost is what x/image/webp holds decoding a w x h WebP. A lossy frame is a 4:2:0 YCbCr
// picture padded to whole 16 x 16 macroblocks. A lossless one is decoded as 4 bytes a pixel,
// and its colour-indexing transform makes a second 4-byte copy while the first is held. An
// alpha channel is decoded as a lossless picture of its own (up to 8 bytes a pixel again)
// before one byte a pixel of it is kept beside the lossy frame.
func webpCost(data []byte, w, h int) pictureCost {
	px := int64(w) * int64(h)
	lossy := 3 * int64((w+15)/16) * int64((h+15)/16) * 256 / 2
	lossless := pictureCost{kind: "lossless webp", decoding: 8 * px, picture: 4 * px, layout: layoutRGBA}
	alpha := false
	for i := 12; i+8 <= len(data); {
		n := binary.LittleEndian.Uint32(data[i+4:])
		switch string(data[i : i+4]) {
		case "ALPH":
			alpha = true
		case "VP8L":
			return lossless
		case "VP8 ":
			if alpha {
				return pictureCost{kind: "webp with transparency", decoding: max(8*px, px+lossy), picture: px + lossy, layout: layoutOther}
			}
			return pictureCost{kind: "webp", decoding: lossy, picture: lossy, layout: layoutYCbCr}
		}
		if uint64(n) > uint64(len(data)-i-8) {
			break
		}
		i += 8 + int(n) + int(n&1) // chunks are padded to an even length
	}
	return lossless // none found: the decoder refuses it; count the most a WebP may take
}

// String describes a cost for the tests' messages.
func (c pictureCost) String() string {
	return fmt.Sprintf("%s: decoding %d, picture %d, layout %d", c.kind, c.decoding, c.picture, c.layout)
}
