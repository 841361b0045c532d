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

// jpegScans counts the scans of a JPEG that image/jpeg would decode, refusing the file with an
// Invalid error as soon as there are more than MaxJPEGScans. It finds markers as the decoder
// does: anything but 0xFF between segments is skipped, "\xFF\x00" is data, fill bytes (0xFF)
// may precede a marker, restart markers have no length, and a scan's entropy-coded data runs
// to the first marker that is not a restart marker. It stops where the decoder would: at EOI,
// at the end of the data, or at a segment the decoder refuses (a truncated one, a marker it
// does not take), after which the decoder decodes no more scans.
func jpegScans(data []byte) (int, error) {
	scans := 0
	i := 2 // past SOI
	for {
		// The next marker: the decoder skips to a 0xFF and takes the byte after it.
		j := bytes.IndexByte(data[i:], 0xFF)
		if j < 0 || i+j+1 >= len(data) {
			return scans, nil
		}
		i += j + 2
		marker := data[i-1]
		if marker == 0x00 { // "\xFF\x00" between segments: extraneous data
			continue
		}
		for marker == 0xFF { // fill bytes
			if i >= len(data) {
				return scans, nil
			}
			marker, i = data[i], i+1
		}
		switch {
		case marker == 0xD9: // EOI
			return scans, nil
		case 0xD0 <= marker && marker <= 0xD7: // RSTn, no length
			continue
		}
		if i+2 > len(data) {
			return scans, nil
		}
		n := int(data[i])<<8 | int(data[i+1])
		if n < 2 || i+n > len(data) {
			return scans, nil
		}
		i += n // past the segment, whose length counts its own two bytes
		switch {
		case marker == 0xDA: // SOS: its header, then the entropy-coded data
			if scans++; scans > MaxJPEGScans {
				return scans, domain.Errorf(domain.Invalid, "the jpeg image has more than %d scans (progressive passes): no encoder writes that many; re-save it as an ordinary JPEG", MaxJPEGScans)
			}
			i = entropyEnd(data, i)
		case marker == 0xC0, marker == 0xC1, marker == 0xC2, // SOF0-2
			marker == 0xC4, marker == 0xDB, marker == 0xDD, // DHT, DQT, DRI
			0xE0 <= marker && marker <= 0xEF, marker == 0xFE: // APPn, COM
		default:
			// The decoder refuses any other marker, and the file with it.
			return scans, nil
		}
	}
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
