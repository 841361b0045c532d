package imaging

import (
	"image"
	"image/color"
	stddraw "image/draw"

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
// Catmull-Rom over a 12-megapixel source costs about as much as decoding it, because its
// kernel grows with the reduction (a 4000 to 1280 reduction reads ~13 source pixels a side
// for every output pixel). So a source more than twice the target in both directions is first
// averaged over k x k blocks (a box filter, which reads each source pixel once and does not
// alias the way a 2x2 bilinear sample would) down to between 2 and 4 times the target, and
// Catmull-Rom does the last, small step that decides the sharpness.
func downscale(src image.Image, tw, th int) *image.RGBA {
	b := src.Bounds()
	if k := min(b.Dx()/(2*tw), b.Dy()/(2*th)); k >= 2 {
		src = boxReduce(src, k)
	}
	dst := image.NewRGBA(image.Rect(0, 0, tw, th))
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
		boxReduceRGBA(dst, m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride, w, h, k)
	default:
		// Any other layout is converted once to premultiplied RGBA; image/draw does that
		// with a fast path for the types PNG and WebP decode to.
		rgba := image.NewRGBA(image.Rect(0, 0, w, h))
		stddraw.Draw(rgba, rgba.Bounds(), src, b.Min, stddraw.Src)
		boxReduceRGBA(dst, rgba.Pix, rgba.Stride, w, h, k)
	}
	return dst
}

// boxReduceRGBA averages k x k blocks of 4-byte premultiplied pixels into dst.
func boxReduceRGBA(dst *image.RGBA, pix []byte, stride, w, h, k int) {
	ow := dst.Rect.Dx()
	sums := make([]uint32, 4*ow)
	for oy := 0; oy*k < h; oy++ {
		clear(sums)
		y1 := min(h, (oy+1)*k)
		for y := oy * k; y < y1; y++ {
			row := pix[y*stride : y*stride+4*w]
			for x := 0; x < w; x++ {
				s := sums[4*(x/k) : 4*(x/k)+4]
				p := row[4*x : 4*x+4]
				s[0] += uint32(p[0])
				s[1] += uint32(p[1])
				s[2] += uint32(p[2])
				s[3] += uint32(p[3])
			}
		}
		out := dst.Pix[oy*dst.Stride:]
		rows := uint32(y1 - oy*k)
		for ox := 0; ox < ow; ox++ {
			n := rows * uint32(min(w, (ox+1)*k)-ox*k)
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
	sums := make([]uint32, 3*ow)
	for oy := 0; oy*k < h; oy++ {
		clear(sums)
		y1 := min(h, (oy+1)*k)
		for y := oy * k; y < y1; y++ {
			sy := b.Min.Y + y
			yrow := m.Y[m.YOffset(b.Min.X, sy):]
			for x := 0; x < w; x++ {
				s := sums[3*(x/k) : 3*(x/k)+3]
				c := m.COffset(b.Min.X+x, sy)
				s[0] += uint32(yrow[x])
				s[1] += uint32(m.Cb[c])
				s[2] += uint32(m.Cr[c])
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
