package imaging

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"image"
	"image/jpeg"
	"math"
)

// Sample returns a generated w x h picture as JPEG bytes, for the sample dataset: a diagonal
// two-colour gradient under a few soft translucent discs and a band of light, with hues,
// angle and layout all drawn from seed (e.g. "owner#timestamp"). The same seed and size give
// the same bytes, on any architecture; different seeds look visibly different. Sizes below 1
// are taken as 1.
func Sample(seed string, w, h int) []byte {
	w, h = max(w, 1), max(h, 1)
	rnd := seedStream(seed)

	base := mul(rnd.float(), 360)
	from := hsv(base, 0.55+mul(0.25, rnd.float()), 0.95)
	to := hsv(math.Mod(base+90+mul(120, rnd.float()), 360), 0.6+mul(0.3, rnd.float()), 0.45+mul(0.25, rnd.float()))
	// The gradient's direction, a unit vector made without math.Sin and math.Cos, whose last
	// bit may differ between architectures; math.Sqrt is exact everywhere.
	dx, dy := rnd.float()-0.5, rnd.float()-0.5
	norm := math.Max(math.Sqrt(mul(dx, dx)+mul(dy, dy)), 1e-6)
	dx, dy = dx/norm, dy/norm

	type disc struct {
		cx, cy, r, alpha float64
		c                [3]float64
	}
	discs := make([]disc, 3+int(mul(rnd.float(), 4)))
	for i := range discs {
		discs[i] = disc{
			cx: rnd.float(), cy: rnd.float(), r: 0.12 + mul(0.3, rnd.float()), alpha: 0.25 + mul(0.35, rnd.float()),
			c: hsv(math.Mod(base+mul(180, rnd.float())+60, 360), 0.35+mul(0.5, rnd.float()), 0.8+mul(0.2, rnd.float())),
		}
	}
	bandPos, bandTilt := rnd.float(), rnd.float()-0.5

	img := image.NewRGBA(image.Rect(0, 0, w, h))
	scale := float64(max(w, h))
	for y := 0; y < h; y++ {
		fy := float64(y) / scale
		row := img.Pix[y*img.Stride:]
		for x := 0; x < w; x++ {
			fx := float64(x) / scale
			t := clamp01(0.5 + mul(fx-mul(0.5, float64(w))/scale, dx) + mul(fy-mul(0.5, float64(h))/scale, dy))
			c := [3]float64{
				from[0] + mul(to[0]-from[0], t), from[1] + mul(to[1]-from[1], t), from[2] + mul(to[2]-from[2], t),
			}
			for _, d := range discs {
				ex, ey := fx-mul(d.cx, float64(w))/scale, fy-mul(d.cy, float64(h))/scale
				dist := math.Sqrt(mul(ex, ex)+mul(ey, ey)) / d.r
				if dist >= 1 {
					continue
				}
				a := mul(d.alpha, smooth(1-dist, 0.08))
				for k := range c {
					c[k] += mul(d.c[k]-c[k], a)
				}
			}
			// A soft diagonal band of light.
			band := math.Abs(float64(y)/float64(h) - bandPos - mul(bandTilt, float64(x)/float64(w)-0.5))
			if band < 0.08 {
				a := mul(0.18, 1-band/0.08)
				for k := range c {
					c[k] += mul(1-c[k], a)
				}
			}
			row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = byte255(c[0]), byte255(c[1]), byte255(c[2]), 0xFF
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: jpegQuality}); err != nil {
		panic("imaging: encoding a generated image cannot fail: " + err.Error())
	}
	return buf.Bytes()
}

// stream is a deterministic sequence of numbers drawn from a seed by SHA-256 in counter mode,
// so that Sample's output never depends on a library's random generator.
type stream struct {
	seed [32]byte
	n    uint64
}

func seedStream(seed string) *stream { return &stream{seed: sha256.Sum256([]byte(seed))} }

// float returns the next number in [0, 1).
func (s *stream) float() float64 {
	var block [40]byte
	copy(block[:], s.seed[:])
	binary.BigEndian.PutUint64(block[32:], s.n)
	s.n++
	sum := sha256.Sum256(block[:])
	return float64(binary.BigEndian.Uint64(sum[:])>>11) / (1 << 53)
}

// hsv returns an RGB colour (components in [0, 1]) for a hue in degrees, saturation and value.
func hsv(hue, sat, val float64) [3]float64 {
	c := mul(val, sat)
	hp := hue / 60
	x := mul(c, 1-math.Abs(math.Mod(hp, 2)-1))
	var r, g, b float64
	switch {
	case hp < 1:
		r, g = c, x
	case hp < 2:
		r, g = x, c
	case hp < 3:
		g, b = c, x
	case hp < 4:
		g, b = x, c
	case hp < 5:
		r, b = x, c
	default:
		r, b = c, x
	}
	m := val - c
	return [3]float64{r + m, g + m, b + m}
}

// smooth ramps from 0 to 1 over [0, edge] and stays 1 beyond: a disc's soft rim.
func smooth(v, edge float64) float64 {
	if v >= edge {
		return 1
	}
	t := v / edge
	return mul(mul(t, t), 3-mul(2, t))
}

// mul returns a*b rounded to float64. Go may fuse a multiplication with a following addition
// into one instruction on some architectures (arm64, ppc64, s390x), which rounds once instead of
// twice; the explicit conversion forbids that, so that Sample's bytes are the same everywhere.
func mul(a, b float64) float64 { return float64(a * b) }

func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }

func byte255(v float64) byte { return byte(mul(clamp01(v), 255) + 0.5) }
