package imaging

import (
	"bytes"
	"image/jpeg"
	"testing"
)

func TestSample(t *testing.T) {
	a := Sample("alice#2026-11-25T08:00:00Z", 640, 480)
	if !bytes.Equal(a, Sample("alice#2026-11-25T08:00:00Z", 640, 480)) {
		t.Fatal("the same seed gave different bytes")
	}
	m, err := jpeg.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatalf("not a JPEG: %v", err)
	}
	if b := m.Bounds(); b.Dx() != 640 || b.Dy() != 480 {
		t.Fatalf("%v, want 640x480", b)
	}
	// Different seeds must look different, not just differ in a few bytes: compare the mean
	// colour of the two pictures' quadrants.
	other, err := jpeg.Decode(bytes.NewReader(Sample("bob#2026-11-25T08:00:00Z", 640, 480)))
	if err != nil {
		t.Fatal(err)
	}
	var diff int
	for _, p := range [][2]int{{160, 120}, {480, 120}, {160, 360}, {480, 360}} {
		r1, g1, b1, _ := m.At(p[0], p[1]).RGBA()
		r2, g2, b2, _ := other.At(p[0], p[1]).RGBA()
		diff += absDiff(r1, r2)>>8 + absDiff(g1, g2)>>8 + absDiff(b1, b2)>>8
	}
	if diff < 60 {
		t.Errorf("two seeds gave nearly the same picture (summed difference %d)", diff)
	}
	// The sample is a valid upload.
	res := mustProcess(t, a, "image/jpeg")
	if res.Variants[0].Width != 320 || res.Variants[0].Height != 240 {
		t.Errorf("thumbnail %dx%d", res.Variants[0].Width, res.Variants[0].Height)
	}
	if got := Sample("x", 0, -3); len(got) == 0 {
		t.Error("a degenerate size gave no image")
	}
}

func absDiff(a, b uint32) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}
