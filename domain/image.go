package domain

import (
	"errors"
	"fmt"
	"time"
)

// ImageSize names one of the stored renditions of an uploaded photo.
type ImageSize string

// The sizes every uploaded photo is stored in.
const (
	// ImageThumbnail is the small square-ish rendition for grids.
	ImageThumbnail ImageSize = "thumbnail"
	// ImageDisplay is the rendition a feed shows; Photo.URL of an uploaded photo points at it.
	ImageDisplay ImageSize = "display"
	// ImageOriginal is the upload at its own dimensions, re-encoded without metadata.
	ImageOriginal ImageSize = "original"
)

// ImageSizes lists the sizes in the order they are stored and shown.
var ImageSizes = []ImageSize{ImageThumbnail, ImageDisplay, ImageOriginal}

// StoredImage is one rendition of a photo in the media store.
type StoredImage struct {
	// Key is the object's key in the media store.
	Key           string
	Width, Height int
	ContentType   string
}

// Images are the renditions of an uploaded photo by size; nil for a photo whose url is
// hosted elsewhere.
type Images map[ImageSize]StoredImage

// Upload is a photo upload under way: the staging record createPhotoUpload writes and
// uploadPhoto consumes, once.
type Upload struct {
	// ID names the upload; it is also the last segment of its staging object's key.
	ID    string
	Owner string
	// ContentType is the type the client declared, which the store makes the upload carry.
	ContentType string
	// Bytes is the declared size, the most the store accepts.
	Bytes int64
	// Expires is when the store stops accepting the file and uploadPhoto stops accepting the
	// upload.
	Expires time.Time
	// Used is set by the uploadPhoto that made a photo of it.
	Used bool
	// PhotoTimestamp is the timestamp of the photo made of it (its owner's), set with Used;
	// empty in a record used before it was kept.
	PhotoTimestamp string
}

// UsableBy is why u may not make a photo of owner's at now, nil when it may.
func (u Upload) UsableBy(owner string, now time.Time) error {
	switch {
	case u.Owner != owner:
		// Another user's upload is not shown to exist.
		return UploadNotFound(u.ID)
	case u.Used:
		return Errorf(Conflict, "upload %q was already made into a photo; create a new upload", u.ID)
	case !now.Before(u.Expires):
		return UploadStateRefusal(fmt.Sprintf("upload %q expired at %s; create a new upload", u.ID, Timestamp(u.Expires)))
	}
	return nil
}

// ErrUploadState is the cause an Invalid refusal of an upload's state carries (see
// UploadStateRefusal), by which it is told from an invalid argument.
var ErrUploadState = errors.New("refused for the upload's state")

// UploadStateRefusal is the Invalid error refusing an upload for its state: expired, no file
// sent, a file larger than declared or no image. Unlike an invalid argument, checked before
// any request, it depends on the data, so a replay of the mutation must meet it again.
func UploadStateRefusal(message string) *Error {
	return Wrap(Invalid, ErrUploadState, message)
}

// UploadNotFound is the error for an upload that does not exist, or is another user's.
func UploadNotFound(id string) error {
	return Errorf(NotFound, "upload %q does not exist (or is another user's)", id)
}
