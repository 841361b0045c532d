package imaging

import (
	"bytes"

	"github.com/quickphotos/quickphotos/domain"
)

// MaxJPEGScans bounds the scans of a JPEG that Process decodes.
//
// A progressive JPEG sends its coefficients in scans, and image/jpeg walks every block of the
// picture once a scan, whatever the scan holds: an AC scan of end-of-band runs covers 32,767
// blocks in about two bytes, so a 25 MiB file of ~75-byte scans over a 7000 x 7000 picture
// would keep a finishing slot for about an hour (~11 ms a scan). The JPEG standard sets no
// limit; libjpeg-turbo's advice against this (its report "Two Issues with the JPEG Standard",
// LJT-01-003) is to stop after a fixed number of scans, as its tools' -maxscans does. Encoders
// write far fewer than 100: libjpeg's and mozjpeg's progressions 10 for colour and 6 for grey,
// a baseline file one per component. At 100 a picture of the largest size allowed costs about
// a second more than its decoding, which the pixel limit bounds anyway.
const MaxJPEGScans = 100

// jpegHeader is what Process learns of a JPEG from its markers before decoding it: how many
// scans image/jpeg would decode, and what its frame makes the decoder allocate.
type jpegHeader struct {
	scans int
	// progressive is set by a SOF2 frame, whose coefficients the decoder keeps whole.
	progressive bool
	// comps are the frame's components, as the decoder reads them (a grey one is 1 x 1).
	comps []jpegComponent
	// jfif, adobe and adobeTransform decide, as they do for the decoder, whether three
	// components are RGB rather than YCbCr (see isRGB).
	jfif, adobe    bool
	adobeTransform byte
}

// jpegComponent is one component of a frame: its identifier and sampling factors.
type jpegComponent struct {
	id   byte
	h, v int
}

// isRGB reports whether image/jpeg takes three components as RGB, which it converts to an
// RGBA picture: as its own isRGB does.
func (h jpegHeader) isRGB() bool {
	if len(h.comps) != 3 || h.jfif {
		return false
	}
	if h.adobe && h.adobeTransform == 0 {
		return true
	}
	return h.comps[0].id == 'R' && h.comps[1].id == 'G' && h.comps[2].id == 'B'
}

// readJPEGHeader walks a JPEG's markers and counts its scans, refusing the file with an
// Invalid error as soon as there are more than MaxJPEGScans. It finds markers as image/jpeg
// does: anything but 0xFF between segments is skipped, "\xFF\x00" is data, fill bytes (0xFF)
// may precede a marker, restart markers have no length, and a scan's entropy-coded data runs
// to the first marker that is not a restart marker. It stops where the decoder would: at EOI,
// at the end of the data, or at a segment the decoder refuses (a truncated one, a marker it
// does not take), after which the decoder decodes no more scans.
func readJPEGHeader(data []byte) (jpegHeader, error) {
	var hdr jpegHeader
	i := 2 // past SOI
	for {
		// The next marker: the decoder skips to a 0xFF and takes the byte after it.
		j := bytes.IndexByte(data[i:], 0xFF)
		if j < 0 || i+j+1 >= len(data) {
			return hdr, nil
		}
		i += j + 2
		marker := data[i-1]
		if marker == 0x00 { // "\xFF\x00" between segments: extraneous data
			continue
		}
		for marker == 0xFF { // fill bytes
			if i >= len(data) {
				return hdr, nil
			}
			marker, i = data[i], i+1
		}
		switch {
		case marker == 0xD9: // EOI
			return hdr, nil
		case 0xD0 <= marker && marker <= 0xD7: // RSTn, no length
			continue
		}
		if i+2 > len(data) {
			return hdr, nil
		}
		n := int(data[i])<<8 | int(data[i+1])
		if n < 2 || i+n > len(data) {
			return hdr, nil
		}
		seg := data[i+2 : i+n]
		i += n // past the segment, whose length counts its own two bytes
		switch {
		case marker == 0xDA: // SOS: its header, then the entropy-coded data
			if hdr.scans++; hdr.scans > MaxJPEGScans {
				return hdr, domain.Errorf(domain.Invalid, "the jpeg image has more than %d scans (progressive passes): no encoder writes that many; re-save it as an ordinary JPEG", MaxJPEGScans)
			}
			i = entropyEnd(data, i)
		case marker == 0xC0, marker == 0xC1, marker == 0xC2: // SOF0-2
			if hdr.comps == nil {
				hdr.progressive = marker == 0xC2
				hdr.comps = frameComponents(seg)
			}
		case marker == 0xE0: // APP0: the decoder takes the last one's word on JFIF
			if len(seg) >= 5 {
				hdr.jfif = string(seg[:5]) == "JFIF\x00"
			}
		case marker == 0xEE: // APP14
			if len(seg) >= 12 && string(seg[:5]) == "Adobe" {
				hdr.adobe, hdr.adobeTransform = true, seg[11]
			}
		case marker == 0xC4, marker == 0xDB, marker == 0xDD, // DHT, DQT, DRI
			0xE0 <= marker && marker <= 0xEF, marker == 0xFE: // APPn, COM
		default:
			// The decoder refuses any other marker, and the file with it.
			return hdr, nil
		}
	}
}

// frameComponents returns the components of a SOF segment's body, and none when the decoder
// would refuse it (a grey one is 1 x 1 whatever it says, as the decoder reads it).
func frameComponents(sof []byte) []jpegComponent {
	if len(sof) < 6 {
		return nil
	}
	n := int(sof[5])
	if n != 1 && n != 3 && n != 4 || len(sof) != 6+3*n {
		return nil
	}
	comps := make([]jpegComponent, n)
	for k := range comps {
		c := sof[6+3*k:]
		comps[k] = jpegComponent{id: c[0], h: int(c[1] >> 4), v: int(c[1] & 0x0F)}
		if comps[k].h < 1 || comps[k].h > 4 || comps[k].v < 1 || comps[k].v > 4 {
			return nil
		}
	}
	if n == 1 {
		comps[0].h, comps[0].v = 1, 1
	}
	return comps
}

// entropyEnd returns where the entropy-coded data starting at i ends: at the first marker
// other than a restart marker ("\xFF\x00" is a stuffed data byte), or at the end of data.
func entropyEnd(data []byte, i int) int {
	for {
		j := bytes.IndexByte(data[i:], 0xFF)
		if j < 0 || i+j+1 >= len(data) {
			return len(data)
		}
		i += j
		if b := data[i+1]; b == 0x00 || (0xD0 <= b && b <= 0xD7) {
			i += 2
			continue
		}
		return i
	}
}
