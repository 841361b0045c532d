package imaging

import (
	"bytes"
	"mime"
	"strings"

	"github.com/quickphotos/quickphotos/domain"
)

// The formats Process accepts, as Sniff names them.
const (
	FormatJPEG = "jpeg"
	FormatPNG  = "png"
	FormatWebP = "webp"
)

// sniffLen is how many leading bytes Sniff needs to tell every format it knows apart; more are
// looked at only to recognise markup (SVG, HTML) that starts after whitespace or a comment.
const sniffLen = 512

var (
	sigJPEG = []byte{0xFF, 0xD8, 0xFF}
	sigPNG  = []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'}
)

// Sniff returns the real format of an image from its first bytes ("jpeg", "png" or "webp"), or
// an Invalid error that names what the bytes look like instead. The decision rests on the
// content alone: a file's name or declared type never makes SVG, HTML or anything else an image
// here. Give it at least the first 512 bytes when there are that many.
func Sniff(head []byte) (string, error) {
	switch {
	case len(head) == 0:
		return "", domain.Errorf(domain.Invalid, "the upload is empty, not a JPEG, PNG or WebP image: send one of those")
	case bytes.HasPrefix(head, sigJPEG):
		return FormatJPEG, nil
	case bytes.HasPrefix(head, sigPNG):
		return FormatPNG, nil
	case len(head) >= 12 && string(head[0:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		return FormatWebP, nil
	}
	return "", domain.Errorf(domain.Invalid, "the upload %s, not a JPEG, PNG or WebP image: send one of those", lookalike(head))
}

// lookalike names what head appears to be, for the error message of a refused upload.
func lookalike(head []byte) string {
	if len(head) > sniffLen {
		head = head[:sniffLen]
	}
	has := func(prefix string) bool { return bytes.HasPrefix(head, []byte(prefix)) }
	switch {
	case has("GIF87a"), has("GIF89a"):
		return "is a GIF image"
	case len(head) >= 12 && string(head[4:8]) == "ftyp":
		switch brand := string(head[8:12]); brand {
		case "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1":
			return "is a HEIC/HEIF image"
		case "avif", "avis":
			return "is an AVIF image"
		default:
			return "is an ISO media file (" + strings.TrimSpace(brand) + ")"
		}
	case has("RIFF"):
		return "is a RIFF file that is not WebP"
	case has("BM") && len(head) >= 14 && string(head[6:10]) == "\x00\x00\x00\x00": // reserved fields
		return "is a BMP image"
	case has("II*\x00"), has("MM\x00*"):
		return "is a TIFF image"
	case has("\x00\x00\x01\x00"):
		return "is an ICO image"
	case has("\xFF\x0A"), has("\x00\x00\x00\x0CJXL \x0D\x0A\x87\x0A"):
		return "is a JPEG XL image"
	case has("\xFF\xD8"), has("\x89PNG"):
		return "starts like a JPEG or PNG image but its signature is cut off or damaged"
	case has("%PDF-"):
		return "is a PDF document"
	case has("PK\x03\x04"):
		return "is a ZIP archive"
	}
	if markup := markupKind(head); markup != "" {
		return markup
	}
	return "is not a recognised image format"
}

// markupKind recognises SVG, HTML and other XML text, which must never be served as a photo
// (SVG can carry scripts). It looks past a byte-order mark, whitespace, an XML declaration,
// comments and a doctype to the first element.
func markupKind(head []byte) string {
	text := strings.ToLower(string(bytes.TrimPrefix(head, []byte("\xEF\xBB\xBF"))))
	text = strings.TrimLeft(text, " \t\r\n")
	if !strings.HasPrefix(text, "<") {
		return ""
	}
	switch {
	case strings.Contains(text, "<svg"):
		return "looks like an SVG image"
	case strings.HasPrefix(text, "<!doctype html"), strings.Contains(text, "<html"),
		strings.Contains(text, "<head"), strings.Contains(text, "<body"), strings.Contains(text, "<script"):
		return "looks like an HTML document"
	default:
		return "looks like XML or HTML text"
	}
}

// formatOfContentType returns the format a declared Content-Type names, and "" for any type
// that is not one of the three image types Process accepts. Parameters are ignored.
func formatOfContentType(contentType string) string {
	mediaType, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return ""
	}
	switch mediaType {
	case "image/jpeg", "image/jpg", "image/pjpeg":
		return FormatJPEG
	case "image/png":
		return FormatPNG
	case "image/webp":
		return FormatWebP
	}
	return ""
}

// ContentTypeOf returns the canonical Content-Type of a format Sniff returns.
func ContentTypeOf(format string) string {
	switch format {
	case FormatJPEG:
		return "image/jpeg"
	case FormatPNG:
		return "image/png"
	case FormatWebP:
		return "image/webp"
	}
	return ""
}
