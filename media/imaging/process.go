package imaging

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	stddraw "image/draw"
	"image/jpeg"
	"image/png"
	"io"
	"slices"

	"golang.org/x/image/webp"

	"github.com/quickphotos/quickphotos/domain"
)

// Limits bound what Process accepts. A zero field takes its value from DefaultLimits.
type Limits struct {
	// MaxPixels bounds width*height as the file's header states it, checked before any pixel
	// is decoded, so a small file that claims a huge picture costs nothing; and with it the
	// memory Process holds in pictures, at most BytesPerPixel for each of MaxPixels pixels: a
	// file that needs more a pixel (a progressive JPEG, a 16-bit PNG) may have fewer.
	MaxPixels int64
	// MaxBytes bounds the size of the upload; Process reads no further.
	MaxBytes int64
}

// DefaultLimits returns the limits used for a zero field: 50 megapixels (a 48-megapixel
// phone photo fits) and 40 MiB.
func DefaultLimits() Limits { return Limits{MaxPixels: 50_000_000, MaxBytes: 40 << 20} }

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxPixels <= 0 {
		l.MaxPixels = d.MaxPixels
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = d.MaxBytes
	}
	return l
}

// Size names one rendition of a photo.
type Size string

// The three renditions, in the order Result.Variants holds them.
const (
	Thumbnail Size = "thumbnail" // fits in 320 x 320, for grids
	Display   Size = "display"   // fits in 1280 x 1280, for the feed
	Original  Size = "original"  // the picture's own size, upright
)

// Box returns the square a size fits in, and 0 for Original, which is never scaled.
func (s Size) Box() int {
	switch s {
	case Thumbnail:
		return 320
	case Display:
		return 1280
	}
	return 0
}

// Variant is one encoded rendition.
type Variant struct {
	Size          Size
	Width, Height int
	// ContentType is "image/jpeg" or "image/png".
	ContentType string
	// SHA256 is the lower-case hex SHA-256 of Bytes: the variant's content address.
	// Renditions that come out the same (a small photo's display copy and original) share
	// their Bytes and so their address.
	SHA256 string
	Bytes  []byte
}

// Result is what Process makes of one upload.
type Result struct {
	// Format is the sniffed format of the upload: "jpeg", "png" or "webp".
	Format string
	// Variants holds the thumbnail, display and original renditions, in that order.
	Variants []Variant
}

// jpegQuality is the quality of every JPEG Process writes: the usual point past which files
// grow quickly for differences few people can see.
const jpegQuality = 85

// Process turns an upload into its three renditions. It reads at most lim.MaxBytes from r,
// sniffs the format (which must be the one declaredContentType names), checks the pixel count
// the header states against lim.MaxPixels, a JPEG's scans against MaxJPEGScans, and the
// memory decoding the file takes against BytesPerPixel for each of lim.MaxPixels before
// decoding, decodes, turns the picture upright by its EXIF orientation, and encodes every size
// afresh, so no metadata of the upload (EXIF, GPS, XMP, ICC profiles, comments, text chunks)
// is in any output. Every refusal is a domain.Invalid error; an error reading r is returned
// wrapped, as it is. The same bytes always give the same Variants, byte for byte.
//
// Process stops once ctx ends, returning ctx.Err() and no renditions: reads of r and the
// decoder's reads fail, and it checks again after decoding and before each rendition. A
// decoder that has read all it needs (image/jpeg reads a small file whole) runs to its end,
// which the pixel limit and MaxJPEGScans bound.
func Process(ctx context.Context, r io.Reader, declaredContentType string, lim Limits) (*Result, error) {
	return process(ctx, r, declaredContentType, lim, allSizes)
}

// allSizes is every rendition, in the order Result.Variants holds them.
var allSizes = []Size{Thumbnail, Display, Original}

// process is Process making only the given sizes (the benchmarks time them one by one).
func process(ctx context.Context, r io.Reader, declaredContentType string, lim Limits, sizes []Size) (*Result, error) {
	lim = lim.withDefaults()
	data, err := io.ReadAll(io.LimitReader(ctxReader{ctx, r}, lim.MaxBytes+1))
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		// Not the upload's fault as far as this package can tell: the caller knows whether r
		// is a client's request body or the store, and classifies the error.
		return nil, fmt.Errorf("imaging: reading the upload: %w", err)
	}
	if int64(len(data)) > lim.MaxBytes {
		return nil, domain.Errorf(domain.Invalid, "the upload is larger than %d bytes: send a smaller image", lim.MaxBytes)
	}
	format, err := Sniff(data)
	if err != nil {
		return nil, err
	}
	declared := formatOfContentType(declaredContentType)
	if declared == "" {
		return nil, domain.Errorf(domain.Invalid, "the declared content type %q is not image/jpeg, image/png or image/webp", declaredContentType)
	}
	if declared != format {
		return nil, domain.Errorf(domain.Invalid, "the upload was declared %q but is a %s image (%s): declare the type it has",
			declaredContentType, format, ContentTypeOf(format))
	}
	o := orientationOf(format, data)
	img, err := decode(ctx, format, data, lim, o)
	if err != nil {
		return nil, err
	}
	variants, err := render(ctx, format, img, o, sizes)
	if err != nil {
		return nil, err
	}
	return &Result{Format: format, Variants: variants}, nil
}

// decode checks the header against lim (the pixels, a JPEG's scans, and the memory making the
// renditions of the picture, turned upright by o, takes) and then decodes the pixels, reading
// them through ctx: once it has ended, the decoder's next read fails and decode returns
// ctx.Err().
//
// A decoder that panics on a malformed file (x/image/webp has, in the past) fails this one
// upload with an Invalid error that keeps the panic for the logs, rather than the process
// that may be handling it in the background.
func decode(ctx context.Context, format string, data []byte, lim Limits, o Orientation) (img image.Image, err error) {
	defer func() {
		if p := recover(); p != nil {
			img, err = nil, domain.Wrap(domain.Invalid, fmt.Errorf("decoder panic: %v", p),
				fmt.Sprintf("the %s image is corrupt: send the whole, unaltered file", format))
		}
	}()
	var cfg image.Config
	switch format {
	case FormatJPEG:
		cfg, err = jpeg.DecodeConfig(bytes.NewReader(data))
	case FormatPNG:
		cfg, err = png.DecodeConfig(bytes.NewReader(data))
	case FormatWebP:
		if webpAnimated(data) {
			return nil, domain.Errorf(domain.Invalid, "the upload is an animated WebP image: send a still image")
		}
		cfg, err = webp.DecodeConfig(bytes.NewReader(data))
	}
	if err != nil {
		return nil, corrupt(format, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, domain.Errorf(domain.Invalid, "the %s image has no pixels (%d x %d)", format, cfg.Width, cfg.Height)
	}
	if px := int64(cfg.Width) * int64(cfg.Height); px > lim.MaxPixels {
		return nil, domain.Errorf(domain.Invalid, "the %s image is %d x %d, %d pixels, more than the %d allowed: send a smaller image",
			format, cfg.Width, cfg.Height, px, lim.MaxPixels)
	}
	cost, err := costOf(format, data, cfg.Width, cfg.Height)
	if err != nil {
		return nil, err
	}
	if err := checkMemory(cost, cfg.Width, cfg.Height, o, lim.MaxPixels); err != nil {
		return nil, err
	}
	pixels := ctxReader{ctx, bytes.NewReader(data)}
	switch format {
	case FormatJPEG:
		img, err = jpeg.Decode(pixels)
	case FormatPNG:
		img, err = png.Decode(pixels)
	case FormatWebP:
		img, err = webp.Decode(pixels)
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, corrupt(format, err)
	}
	// The decoders check this themselves today; the pixel limit must not rest on that.
	if b := img.Bounds(); b.Dx() != cfg.Width || b.Dy() != cfg.Height {
		return nil, domain.Errorf(domain.Invalid, "the %s image's header says %d x %d but its data is %d x %d",
			format, cfg.Width, cfg.Height, b.Dx(), b.Dy())
	}
	return img, nil
}

// costOf returns what decoding a w x h picture of the given format holds, told from its
// header, refusing a JPEG of more than MaxJPEGScans scans: image/jpeg walks the whole picture
// once a scan.
func costOf(format string, data []byte, w, h int) (pictureCost, error) {
	switch format {
	case FormatJPEG:
		hdr, err := readJPEGHeader(data)
		if err != nil {
			return pictureCost{}, err
		}
		return jpegCost(hdr, w, h), nil
	case FormatPNG:
		return pngCost(data, w, h), nil
	}
	return webpCost(data, w, h), nil
}

// ctxReader is a reader that fails once ctx has ended.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (r ctxReader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	return r.r.Read(p)
}

// corrupt is the error for an upload whose format is known but whose data does not decode.
// The decoders report a cut-off file mostly as a format error ("short Huffman data", "not
// enough pixel data"), so the two cases share one message that quotes the decoder.
func corrupt(format string, err error) error {
	reason := err.Error()
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		reason = "the data ends early"
	}
	return domain.Wrap(domain.Invalid, err, fmt.Sprintf("the %s image is truncated or corrupt (%s): send the whole, unaltered file", format, reason))
}

// webpAnimated reports whether a WebP file sets the animation flag of its VP8X header.
func webpAnimated(data []byte) bool {
	return len(data) >= 21 && string(data[12:16]) == "VP8X" && data[20]&0x02 != 0
}

// render makes the given variants of a decoded picture, in the order given, stopping with
// ctx.Err() before each one once ctx has ended.
//
// JPEG and WebP sources give JPEG variants. A source with any transparent pixel (PNG or WebP)
// gives PNG variants, since JPEG has no alpha. An opaque PNG gives a JPEG thumbnail and display
// (screens of them load in grids and feeds, where a PNG is several times the bytes) and a PNG
// original, so that the one full-size copy keeps the pixels the owner uploaded.
//
// The thumbnail and display are scaled from the stored pixels and turned upright afterwards,
// which moves far fewer pixels than turning the source first; the thumbnail is scaled from the
// display rendition when one smaller than the source was made, not from the source again.
func render(ctx context.Context, format string, img image.Image, o Orientation, sizes []Size) ([]Variant, error) {
	alpha := !opaque(img)
	scaledType, originalType := "image/jpeg", "image/jpeg"
	switch {
	case alpha:
		scaledType, originalType = "image/png", "image/png"
	case format == FormatPNG:
		originalType = "image/png"
	}
	wanted := func(s Size) bool { return slices.Contains(sizes, s) }

	made := make(map[Size]Variant, len(sizes))
	var upright image.Image // the full-size upright picture, made once when needed
	full := func(size Size, contentType string) (Variant, error) {
		if err := ctx.Err(); err != nil {
			return Variant{}, err
		}
		if v, ok := made[Original]; ok && contentType == originalType {
			v.Size = size
			return v, nil
		}
		if upright == nil {
			upright = orientFull(img, o)
		}
		return encode(size, upright, contentType)
	}
	if wanted(Original) {
		v, err := full(Original, originalType)
		if err != nil {
			return nil, err
		}
		made[Original] = v
	}

	b := img.Bounds()
	uw, uh := o.uprightSize(b.Dx(), b.Dy())
	src := img
	for _, size := range []Size{Display, Thumbnail} {
		if !wanted(size) {
			continue
		}
		w, h := fit(uw, uh, size.Box())
		if w == uw && h == uh { // nothing to reduce
			v, err := full(size, scaledType)
			if err != nil {
				return nil, err
			}
			made[size] = v
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sw, sh := w, h
		if o.swapsAxes() {
			sw, sh = h, w
		}
		m := downscale(src, sw, sh)
		src = m
		v, err := encode(size, orientRGBA(m, o), scaledType)
		if err != nil {
			return nil, err
		}
		made[size] = v
	}

	out := make([]Variant, len(sizes))
	for i, s := range sizes {
		out[i] = made[s]
	}
	return out, nil
}

// opaque reports whether every pixel of img is fully opaque.
func opaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	return false
}

// orientFull returns the upright form of the full-size picture in a layout the encoders take
// without another conversion.
func orientFull(img image.Image, o Orientation) image.Image {
	switch m := img.(type) {
	case *image.YCbCr:
		return orientYCbCr(m, o)
	case *image.RGBA:
		return orientRGBA(m, o)
	case *image.NRGBA:
		return orientNRGBA(m, o)
	}
	if o == OrientNormal {
		return img
	}
	b := img.Bounds()
	if opaque(img) {
		// Gray, CMYK, paletted: image/draw converts these to RGBA along fast paths.
		m := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
		stddraw.Draw(m, m.Rect, img, b.Min, stddraw.Src)
		return orientRGBA(m, o)
	}
	// With transparency (16-bit or paletted PNG, lossy WebP with alpha) keep the colours
	// unpremultiplied, as the PNG encoder wants them.
	m := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			m.Set(x-b.Min.X, y-b.Min.Y, img.At(x, y))
		}
	}
	return orientNRGBA(m, o)
}

// encode writes img as one variant of the given content type, with no metadata at all: Go's
// JPEG encoder writes no APP segments and its PNG encoder no ancillary chunks.
func encode(size Size, img image.Image, contentType string) (Variant, error) {
	var buf bytes.Buffer
	var err error
	if contentType == "image/png" {
		err = (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(&buf, img)
	} else {
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: jpegQuality})
	}
	if err != nil {
		return Variant{}, domain.Wrap(domain.Internal, err, "encoding the "+string(size)+" image failed")
	}
	sum := sha256.Sum256(buf.Bytes())
	b := img.Bounds()
	return Variant{
		Size: size, Width: b.Dx(), Height: b.Dy(), ContentType: contentType,
		SHA256: hex.EncodeToString(sum[:]), Bytes: buf.Bytes(),
	}, nil
}
