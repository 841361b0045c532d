package imaging

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/gif"
	"testing"
)

func TestSniff(t *testing.T) {
	var gifData bytes.Buffer
	if err := gif.Encode(&gifData, image.NewPaletted(image.Rect(0, 0, 4, 4), color.Palette{color.Black, color.White}), nil); err != nil {
		t.Fatal(err)
	}
	garbage := make([]byte, 600)
	for i := range garbage {
		garbage[i] = byte(i*7 + 3)
	}
	tests := []struct {
		name   string
		head   []byte
		format string // "" for a refusal
		want   string // in the refusal's message
	}{
		{"jpeg", encodeJPEG(t, gradient(8, 8)), FormatJPEG, ""},
		{"png", encodePNG(t, gradient(8, 8)), FormatPNG, ""},
		{"webp", readTestdata(t, "blue-purple-pink.lossy.webp"), FormatWebP, ""},
		{"gif", gifData.Bytes(), "", "GIF"},
		{"svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>`), "", "SVG"},
		{"svg with BOM, XML declaration and comment", []byte("\xEF\xBB\xBF  <?xml version=\"1.0\"?>\n<!-- x --><svg>"), "", "SVG"},
		{"svg in upper case", []byte("<SVG><script/></SVG>"), "", "SVG"},
		{"html", []byte("<!DOCTYPE html><html><body>hi</body></html>"), "", "HTML"},
		{"html fragment with script", []byte("\n<script>alert(1)</script>"), "", "HTML"},
		{"other xml", []byte(`<?xml version="1.0"?><feed/>`), "", "XML"},
		{"heic", []byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"), "", "HEIC"},
		{"avif", []byte("\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1"), "", "AVIF"},
		{"bmp", []byte("BM\x36\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00"), "", "BMP"},
		{"text starting with BM", []byte("BMW 320i for sale"), "", "not a recognised image format"},
		{"tiff", []byte("II*\x00\x08\x00\x00\x00"), "", "TIFF"},
		{"pdf", []byte("%PDF-1.7\n"), "", "PDF"},
		{"riff that is not webp", []byte("RIFF\x24\x00\x00\x00WAVEfmt "), "", "RIFF"},
		{"jpeg cut inside its signature", []byte{0xFF, 0xD8}, "", "signature is cut off"},
		{"empty", nil, "", "empty"},
		{"garbage", garbage, "", "not a recognised image format"},
		{"text", []byte("hello, world"), "", "not a recognised image format"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Sniff(tt.head)
			if tt.format != "" {
				if err != nil || got != tt.format {
					t.Fatalf("Sniff = %q, %v; want %q", got, err, tt.format)
				}
				return
			}
			if got != "" {
				t.Errorf("Sniff returned %q with the refusal", got)
			}
			errInvalid(t, err, tt.want, "not a JPEG, PNG or WebP image")
		})
	}
}

// TestProcessRefusesWhatSniffRefuses checks that a refused format is refused by Process too,
// whatever type it was declared as.
func TestProcessRefusesWhatSniffRefuses(t *testing.T) {
	for _, declared := range []string{"image/jpeg", "image/png", "image/webp"} {
		_, err := Process(context.Background(), bytes.NewReader([]byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)), declared, Limits{})
		errInvalid(t, err, "SVG")
	}
}
