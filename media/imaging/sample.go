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
// the same bytes; different seeds look visibly different. Sizes below 1 are taken as 1.
func Sample(seed string, w, h int) []byte {
	w, h = max(w, 1), max(h, 1)
	rnd := seedStream(seed)

	base := rnd.float() * 360
	from := hsv(base, 0.55+0.25*rnd.float(), 0.95)
	to := hsv(math.Mod(base+90+120*rnd.float(), 360), 0.6+0.3*rnd.float(), 0.45+0.25*rnd.float())
	angle := rnd.float() * 2 * math.Pi
	dx, dy := math.Cos(angle), math.Sin(angle)

	type disc struct {
		cx, cy, r, alpha float64
		c                [3]float64
	}
	discs := make([]disc, 3+int(rnd.float()*4))
	for i := range discs {
		discs[i] = disc{
			cx: rnd.float(), cy: rnd.float(), r: 0.12 + 0.3*rnd.float(), alpha: 0.25 + 0.35*rnd.float(),
			c: hsv(math.Mod(base+180*rnd.float()+60, 360), 0.35+0.5*rnd.float(), 0.8+0.2*rnd.float()),
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
			t := clamp01(0.5 + (fx-0.5*float64(w)/scale)*dx + (fy-0.5*float64(h)/scale)*dy)
			c := [3]float64{
				from[0] + (to[0]-from[0])*t, from[1] + (to[1]-from[1])*t, from[2] + (to[2]-from[2])*t,
			}
			for _, d := range discs {
				dist := math.Hypot(fx-d.cx*float64(w)/scale, fy-d.cy*float64(h)/scale) / d.r
				if dist >= 1 {
					continue
				}
				a := d.alpha * smooth(1-dist, 0.08)
				for k := range c {
					c[k] += (d.c[k] - c[k]) * a
				}
			}
			// A soft diagonal band of light.
			band := math.Abs(fy*float64(scale)/float64(h) - bandPos - bandTilt*(fx*scale/float64(w)-0.5))
			if band < 0.08 {
				a := 0.18 * (1 - band/0.08)
				for k := range c {
					c[k] += (1 - c[k]) * a
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
	c := val * sat
	hp := hue / 60
	x := c * (1 - math.Abs(math.Mod(hp, 2)-1))
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
	return t * t * (3 - 2*t)
}

func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }

func byte255(v float64) byte { return byte(clamp01(v)*255 + 0.5) }
