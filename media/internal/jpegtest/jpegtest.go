// Package jpegtest writes JPEG files that Go's encoder does not, for the tests of media and
// media/imaging: progressive files, and progressive files built to make image/jpeg work hard.
package jpegtest

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// Segment returns a JPEG marker segment: the marker, its length and body.
func Segment(marker byte, body []byte) []byte {
	seg := []byte{0xFF, marker, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(len(body)+2))
	return append(seg, body...)
}

// bitWriter writes the entropy-coded data of a scan, most significant bit first, with 0xFF
// bytes stuffed.
type bitWriter struct {
	b   *bytes.Buffer
	acc uint32
	n   uint
}

func (w *bitWriter) put(v uint32, n uint) {
	for i := int(n) - 1; i >= 0; i-- {
		w.acc = w.acc<<1 | (v>>uint(i))&1
		if w.n++; w.n == 8 {
			w.b.WriteByte(byte(w.acc))
			if w.acc == 0xFF {
				w.b.WriteByte(0)
			}
			w.acc, w.n = 0, 0
		}
	}
}

// flush pads the last byte with 1 bits, as the standard asks.
func (w *bitWriter) flush() {
	for w.n != 0 {
		w.put(1, 1)
	}
}

// ScanBomb returns a valid w x h greyscale progressive JPEG of one grey: a DC scan of one bit
// a block, then acScans AC scans that each cover every block with a few end-of-band runs
// (about 5 bytes for 65,000 blocks), for each of which image/jpeg walks the whole picture.
// between is written before every scan's SOS marker (fill bytes, extraneous data, a segment).
func ScanBomb(w, h, acScans int, between []byte) []byte {
	var b bytes.Buffer
	b.Write([]byte{0xFF, 0xD8})
	b.Write(Segment(0xDB, append([]byte{0x00}, bytes.Repeat([]byte{1}, 64)...)))
	b.Write(Segment(0xC2, []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), 1, 1, 0x11, 0}))
	// DC table 0: one code, "0", for category 0 (no change).
	b.Write(Segment(0xC4, append([]byte{0x00, 1}, make([]byte, 16)...)))
	// AC table 0: fifteen 4-bit codes, the k-th for the symbol k<<4, a run of 2^k to
	// 2^(k+1)-1 blocks with nothing more to send, told by k more bits.
	ac := []byte{0x10, 0, 0, 0, 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	for k := range 15 {
		ac = append(ac, byte(k<<4))
	}
	b.Write(Segment(0xC4, ac))
	blocks := ((w + 7) / 8) * ((h + 7) / 8)
	b.Write(between)
	b.Write(Segment(0xDA, []byte{1, 1, 0x00, 0, 0, 0}))
	bw := &bitWriter{b: &b}
	for range blocks {
		bw.put(0, 1)
	}
	bw.flush()
	for range acScans {
		b.Write(between)
		b.Write(Segment(0xDA, []byte{1, 1, 0x00, 1, 63, 0}))
		bw := &bitWriter{b: &b}
		for left := blocks; left > 0; {
			k := min(14, bits.Len(uint(left))-1)
			run := min(left, 1<<(k+1)-1)
			bw.put(uint32(k), 4)
			bw.put(uint32(run-1<<k), uint(k))
			left -= run
		}
		bw.flush()
	}
	b.Write([]byte{0xFF, 0xD9})
	return b.Bytes()
}

// Flat returns a valid w x h JPEG of one colour whose components have the given sampling
// factors (0x11 each for 4:4:4, 0x22, 0x11, 0x11 for 4:2:0; one for grey, four for CMYK,
// marked so by an Adobe segment), progressive (SOF2) or baseline: one interleaved scan of the
// DC coefficients, one bit a block, and in a baseline file an end of block after each.
func Flat(w, h int, sampling []byte, progressive bool) []byte {
	var b bytes.Buffer
	b.Write([]byte{0xFF, 0xD8})
	if len(sampling) == 4 {
		b.Write(Segment(0xEE, []byte{'A', 'd', 'o', 'b', 'e', 0, 100, 0, 0, 0, 0, 0})) // transform 0
	}
	b.Write(Segment(0xDB, append([]byte{0x00}, bytes.Repeat([]byte{1}, 64)...)))
	sof := []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), byte(len(sampling))}
	sos := []byte{byte(len(sampling))}
	for i, hv := range sampling {
		sof = append(sof, byte(i+1), hv, 0)
		sos = append(sos, byte(i+1), 0x00)
	}
	marker, spectral := byte(0xC0), []byte{0, 63, 0}
	if progressive {
		marker, spectral = 0xC2, []byte{0, 0, 0}
	}
	b.Write(Segment(marker, sof))
	// Table 0 of each class: one code, "0", for DC category 0 and for the end of block.
	b.Write(Segment(0xC4, append([]byte{0x00, 1}, make([]byte, 16)...)))
	b.Write(Segment(0xC4, append([]byte{0x10, 1}, make([]byte, 16)...)))
	b.Write(Segment(0xDA, append(sos, spectral...)))
	hmax, vmax := 1, 1
	if len(sampling) > 1 {
		for _, hv := range sampling {
			hmax, vmax = max(hmax, int(hv>>4)), max(vmax, int(hv&0x0F))
		}
	}
	codes := 1
	if !progressive {
		codes = 2
	}
	bw := &bitWriter{b: &b}
	for range ((w + 8*hmax - 1) / (8 * hmax)) * ((h + 8*vmax - 1) / (8 * vmax)) {
		for _, hv := range sampling {
			blocks := int(hv>>4) * int(hv&0x0F)
			if len(sampling) == 1 {
				blocks = 1
			}
			bw.put(0, uint(blocks*codes))
		}
	}
	bw.flush()
	b.Write([]byte{0xFF, 0xD9})
	return b.Bytes()
}
