package imaging

import (
	"image"
	"image/color"
	stddraw "image/draw"
	"slices"

	"golang.org/x/image/draw"
)

// fit returns the size of a w x h picture scaled to fit in a box x box square, never larger
// than it is, and never smaller than 1 x 1.
func fit(w, h, box int) (int, int) {
	if w <= box && h <= box {
		return w, h
	}
	if w >= h {
		return box, max(1, (h*box+w/2)/w)
	}
	return max(1, (w*box+h/2)/h), box
}

// downscale returns src scaled to tw x th.
//
// It works as libvips's resize does: a box filter first shrinks the source by the largest
// whole factor k that leaves it no smaller than the target (averaging k x k blocks reads each
// source pixel once and does not alias the way a sparse bilinear sample would), and
// Catmull-Rom does the remaining reduction of less than 2x, which sets the sharpness.
// Catmull-Rom alone would cost more than decoding: its kernel widens with the reduction (13
// source pixels a side for each output pixel from 4000 to 1280), and x/image/draw keeps an
// intermediate of 32 bytes per (output column x source row), 123 MB for that reduction.
func downscale(src image.Image, tw, th int) *image.RGBA {
	b := src.Bounds()
	if k := min(b.Dx()/tw, b.Dy()/th); k >= 2 {
		src = boxReduce(src, k)
	}
	dst := image.NewRGBA(image.Rect(0, 0, tw, th))
	if src.Bounds().Size() == dst.Rect.Size() {
		if m, ok := src.(*image.RGBA); ok {
			return m // the box filter landed on the target exactly
		}
	}
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
	return dst
}

// boxReduce returns src shrunk k times in each direction, each output pixel the mean of a k x k
// block (the blocks on the right and bottom edges may be smaller). The output is premultiplied
// RGBA, as averaging colours needs.
func boxReduce(src image.Image, k int) *image.RGBA {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	ow, oh := (w+k-1)/k, (h+k-1)/k
	dst := image.NewRGBA(image.Rect(0, 0, ow, oh))
	switch m := src.(type) {
	case *image.YCbCr:
		boxReduceYCbCr(dst, m, k)
	case *image.RGBA:
		boxReduceRGBA(dst, m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride, w, h, k, false)
	case *image.NRGBA:
		boxReduceRGBA(dst, m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride, w, h, k, true)
	default:
		// Any other layout is converted once to premultiplied RGBA; image/draw does that
		// with a fast path for the types PNG and WebP decode to.
		rgba := image.NewRGBA(image.Rect(0, 0, w, h))
		stddraw.Draw(rgba, rgba.Bounds(), src, b.Min, stddraw.Src)
		boxReduceRGBA(dst, rgba.Pix, rgba.Stride, w, h, k, false)
	}
	return dst
}

// boxReduceRGBA averages k x k blocks of 4-byte pixels into dst, premultiplying them by their
// alpha first when they are not (NRGBA), so that transparent pixels lend no colour.
func boxReduceRGBA(dst *image.RGBA, pix []byte, stride, w, h, k int, premultiply bool) {
	ow := dst.Rect.Dx()
	sums := make([]uint64, 4*ow)
	for oy := 0; oy*k < h; oy++ {
		clear(sums)
		y1 := min(h, (oy+1)*k)
		for y := oy * k; y < y1; y++ {
			row := pix[y*stride : y*stride+4*w]
			for ox := 0; ox < ow; ox++ {
				var r, g, b, a uint64
				block := row[4*ox*k : 4*min(w, (ox+1)*k)]
				if premultiply {
					// Sums of value x alpha, scaled by 255 more than the premultiplied value.
					for p := range slices.Chunk(block, 4) {
						pa := uint64(p[3])
						r += uint64(p[0]) * pa
						g += uint64(p[1]) * pa
						b += uint64(p[2]) * pa
						a += pa * 255
					}
				} else {
					for p := range slices.Chunk(block, 4) {
						r += uint64(p[0])
						g += uint64(p[1])
						b += uint64(p[2])
						a += uint64(p[3])
					}
				}
				s := sums[4*ox : 4*ox+4]
				s[0] += r
				s[1] += g
				s[2] += b
				s[3] += a
			}
		}
		out := dst.Pix[oy*dst.Stride:]
		rows := uint64(y1 - oy*k)
		for ox := 0; ox < ow; ox++ {
			n := rows * uint64(min(w, (ox+1)*k)-ox*k)
			if premultiply {
				n *= 255
			}
			for c := 0; c < 4; c++ {
				out[4*ox+c] = uint8((sums[4*ox+c] + n/2) / n)
			}
		}
	}
}

// boxReduceYCbCr averages k x k blocks of a YCbCr image into dst. The mean is taken in YCbCr
// and converted once per output pixel: the conversion is affine, so this equals averaging the
// RGB values up to clamping, at a fraction of the cost.
func boxReduceYCbCr(dst *image.RGBA, m *image.YCbCr, k int) {
	b := m.Bounds()
	w, h := b.Dx(), b.Dy()
	ow := dst.Rect.Dx()
	hs, vs := chromaShift(m.SubsampleRatio)
	// Chroma column of each luma column, relative to the first chroma column of a row.
	cx := make([]int32, w)
	for x := range cx {
		cx[x] = int32((b.Min.X+x)>>hs - b.Min.X>>hs)
	}
	sums := make([]uint32, 3*ow)
	for oy := 0; oy*k < h; oy++ {
		clear(sums)
		y1 := min(h, (oy+1)*k)
		for y := oy * k; y < y1; y++ {
			sy := b.Min.Y + y
			yrow := m.Y[m.YOffset(b.Min.X, sy):][:w]
			crow := ((sy >> vs) - (b.Min.Y >> vs)) * m.CStride
			cb, cr := m.Cb[crow:], m.Cr[crow:]
			for ox := 0; ox < ow; ox++ {
				x0, x1 := ox*k, min(w, (ox+1)*k)
				var ty, tb, tr uint32
				for x := x0; x < x1; x++ {
					c := cx[x]
					ty += uint32(yrow[x])
					tb += uint32(cb[c])
					tr += uint32(cr[c])
				}
				s := sums[3*ox : 3*ox+3]
				s[0] += ty
				s[1] += tb
				s[2] += tr
			}
		}
		out := dst.Pix[oy*dst.Stride:]
		rows := uint32(y1 - oy*k)
		for ox := 0; ox < ow; ox++ {
			n := rows * uint32(min(w, (ox+1)*k)-ox*k)
			r, g, bl := color.YCbCrToRGB(
				uint8((sums[3*ox]+n/2)/n), uint8((sums[3*ox+1]+n/2)/n), uint8((sums[3*ox+2]+n/2)/n))
			out[4*ox], out[4*ox+1], out[4*ox+2], out[4*ox+3] = r, g, bl, 0xFF
		}
	}
}

// chromaShift returns how many bits a luma coordinate is shifted right to give its chroma
// coordinate, horizontally and vertically, for a subsample ratio.
func chromaShift(r image.YCbCrSubsampleRatio) (h, v uint) {
	switch r {
	case image.YCbCrSubsampleRatio422:
		return 1, 0
	case image.YCbCrSubsampleRatio420:
		return 1, 1
	case image.YCbCrSubsampleRatio440:
		return 0, 1
	case image.YCbCrSubsampleRatio411:
		return 2, 0
	case image.YCbCrSubsampleRatio410:
		return 2, 1
	}
	return 0, 0
}
