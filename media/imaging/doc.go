// Package imaging turns an uploaded photo into the renditions quickphotos stores: it sniffs the
// real format (JPEG, PNG or WebP; everything else, SVG and HTML above all, is refused), checks
// the pixel count the header states before decoding anything, turns the picture upright by
// its EXIF orientation, and encodes a thumbnail (fits 320 x 320), a display copy (fits
// 1280 x 1280) and the original size afresh, with no metadata of the upload left in any of
// them. Each rendition is addressed by the SHA-256 of its bytes.
//
// It is a pure library: no I/O beyond the reader it is given, no global state, safe to call
// from many goroutines at once. Every refusal is a domain.Invalid error whose message says
// what is wrong with the upload.
package imaging
