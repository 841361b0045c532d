// Package imaging turns an uploaded photo into the renditions quickphotos stores: it sniffs the
// real format (JPEG, PNG or WebP; everything else, SVG and HTML above all, is refused), checks
// the pixel count the header states and the number of a JPEG's scans (MaxJPEGScans) before
// decoding anything, turns the picture upright by its EXIF orientation, and encodes a
// thumbnail (fits 320 x 320), a display copy (fits 1280 x 1280) and the original size afresh,
// with no metadata of the upload left in any of them. Each rendition is addressed by the SHA-256 of its bytes; the same upload always gives
// the same bytes.
//
// It is a pure library: no I/O beyond the reader it is given, no global state, safe to call
// from many goroutines at once. Every refusal is a domain.Invalid error whose message says
// what is wrong with the upload.
//
// # Output formats
//
// Go has no WebP encoder, so every rendition is JPEG (quality 85) or PNG. JPEG and opaque WebP
// give JPEG; any source with a transparent pixel gives PNG throughout; an opaque PNG gives a
// JPEG thumbnail and display, which load in grids and feeds where a PNG would be several times
// the bytes, and a PNG original, so that the one full-size copy keeps the pixels uploaded. A
// sixteen-bit PNG's scaled sizes have eight bits a channel, and so does its original when it
// is turned upright; otherwise its original keeps sixteen. Nothing is ever scaled up.
//
// Colour profiles are metadata too and are dropped with the rest: pixels are kept as
// decoded, not converted to sRGB, so a photo tagged with a wide-gamut profile (Display P3, as
// recent phones write) shows slightly less saturated than in the original file.
//
// # Where the time goes
//
// Measured by BenchmarkStages12MP on a 4000 x 3000 JPEG with camera-like grain (3.7 MB), on
// the 2-CPU machine of docs/benchmarks.md while it was shared (load ~10; ranges over runs):
// Process takes 0.6–0.7 s for all three sizes, of which
//
//   - decoding (image/jpeg): 170–230 ms;
//   - the display copy: 105–150 ms, a 3x box shrink to 1334 x 1000 and Catmull-Rom to
//     1280 x 960;
//   - the thumbnail, shrunk from the display copy rather than the source: 5–10 ms;
//   - re-encoding the original (image/jpeg): 300–450 ms, the largest part;
//   - turning a rotated original upright (orientations 5–8): 85–120 ms more.
//
// libvips's vipsthumbnail makes a thumbnail faster mainly because libjpeg-turbo decodes a JPEG
// at 1/2, 1/4 or 1/8 scale straight from its DCT coefficients, so it never builds the
// 12-megapixel picture, and its SIMD codecs are several times faster than Go's; Go's decoder
// has neither. docs/benchmarks.md ("Image pipeline") has the comparison; bench.sh reruns it.
//
// # Memory
//
// The decoded picture is the bulk, and the header bounds it before anything is allocated:
// making the renditions of an accepted file holds at most BytesPerPixel (6) bytes for each of
// Limits.MaxPixels pixels in pictures, decoder state and copies of the picture. Process tells
// from the header what that file holds (memory.go): the decoder's peak (the picture; for a
// progressive JPEG every coefficient, 4 bytes a sample; the RGBA picture a CMYK or RGB JPEG is
// converted to; an interlaced PNG's largest pass; a lossless WebP's second copy), or the
// picture with the copies made of it (an upright copy, 3 bytes a pixel for a JPEG, 4 for the
// rest; an RGBA copy of a grey, paletted, CMYK or 16-bit picture to scale it), whichever is
// more. Per pixel: a baseline JPEG 1.5–3, 4.5–6 turned upright; a grey one 5, 9 turned; a
// progressive one 5–15 (7.5 at 4:2:0); a CMYK one 8, 12 turned, 24 progressive; an 8-bit PNG
// 4–5, 8–9 turned; a 16-bit one up to 12, 16 turned; a lossy WebP 1.5, 4.5 turned; a lossless
// one, or one with transparency, 8. A file that needs more than 6 may have proportionally
// fewer pixels than MaxPixels, and is refused before decoding otherwise.
// TestProcessMemoryBound holds each kind to the model.
//
// Besides that, what does not grow with the pixels: the upload, read whole (up to
// Limits.MaxBytes, its buffer grown while reading), the encoded renditions, and the scaling
// buffers: x/image/draw's Catmull-Rom keeps 32 bytes per output column and source row, and
// the box filter leaves fewer than twice the target's rows (2,560), so at most about 105 MB.
// For a 12-megapixel 4:2:0 JPEG one Process allocates about 82 MB in all
// (BenchmarkProcess12MP's B/op): the upload (3.7 MB, grown twice over while reading), the
// decoded picture (1.5 bytes a pixel, 18 MB), the box-shrunk copy (5 MB), the Catmull-Rom
// intermediate (41 MB), and the encoded outputs; a rotated original adds a 3-byte-a-pixel
// copy (36 MB). With the garbage collector's default target the heap peaks near twice what is
// live (peak-heap-MB: ~150 MB when Process runs back to back on that JPEG), so callers bound
// how many uploads they process at once.
package imaging
