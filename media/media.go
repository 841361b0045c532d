package media

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"time"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/media/blob"
	"github.com/quickphotos/quickphotos/media/imaging"
)

// Records is what the service needs of the table; *dynamo.Store implements it.
type Records interface {
	// CreateUpload writes a new upload's staging record.
	CreateUpload(ctx context.Context, u domain.Upload) error
	// GetUpload reads an upload's staging record, strongly consistent; NotFound when absent.
	GetUpload(ctx context.Context, id string) (domain.Upload, error)
	// UploadPhotoFrom writes photo p made of upload u and marks u used by p, in one
	// transaction conditional on u still being usable by p's owner at now.
	UploadPhotoFrom(ctx context.Context, p domain.Photo, u domain.Upload, now time.Time) (domain.Photo, error)
	// GetPhotos returns the photos with these keys that exist.
	GetPhotos(ctx context.Context, keys []domain.PhotoKey) (map[domain.PhotoKey]domain.Photo, error)
	// ExpiredUploads returns the uploads that expired before before.
	ExpiredUploads(ctx context.Context, before time.Time) ([]domain.Upload, error)
	// DeleteUpload removes an upload's staging record.
	DeleteUpload(ctx context.Context, id string) error
}

// Config is the service's configuration; a zero field takes its default.
type Config struct {
	// MaxBytes is the largest file an upload may declare; DefaultMaxBytes when zero.
	MaxBytes int64
	// MaxPixels bounds width × height as a file's header states it, and so the memory a
	// Finish holds: imaging.BytesPerPixel for each (imaging.Limits); DefaultMaxPixels when
	// zero.
	MaxPixels int64
	// UploadLifetime is how long a createPhotoUpload form, and the upload, stay valid;
	// DefaultUploadLifetime when zero.
	UploadLifetime time.Duration
	// URLLifetime is the lifetime of the signed URLs of images; DefaultURLLifetime when zero.
	URLLifetime time.Duration
	// Finishes bounds the uploads being made into photos at once (each decodes a whole
	// image, CPU- and memory-heavy), so that they never starve the queries; half the CPUs
	// (at least one) when zero.
	Finishes int
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Log gets the failures of clean-ups that are retried later; slog.Default() when nil.
	Log *slog.Logger
}

// Defaults of Config.
const (
	DefaultMaxBytes       = 25 << 20
	DefaultMaxPixels      = 50_000_000
	DefaultUploadLifetime = 15 * time.Minute
	DefaultURLLifetime    = time.Hour
)

// Service makes photos of uploads and serves their images. It is safe for concurrent use.
type Service struct {
	cfg     Config
	store   blob.Store
	records Records
	// finishing holds one token per Finish in progress.
	finishing chan struct{}
	// urls are the images' URLs signed for the current expiry.
	urls signedURLs
}

// New returns the service over store and records.
func New(store blob.Store, records Records, cfg Config) (*Service, error) {
	if cfg.MaxBytes == 0 {
		cfg.MaxBytes = DefaultMaxBytes
	}
	if cfg.MaxPixels == 0 {
		cfg.MaxPixels = DefaultMaxPixels
	}
	if cfg.UploadLifetime == 0 {
		cfg.UploadLifetime = DefaultUploadLifetime
	}
	if cfg.URLLifetime == 0 {
		cfg.URLLifetime = DefaultURLLifetime
	}
	if cfg.Finishes == 0 {
		// Finishing is CPU-bound: the other half of the CPUs stays free for queries
		// (docs/benchmarks.md measures the reads' latency with uploads running).
		cfg.Finishes = max(1, runtime.GOMAXPROCS(0)/2)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	switch {
	case cfg.MaxBytes < 0 || cfg.MaxPixels < 0 || cfg.Finishes < 0:
		return nil, errors.New("media: limits must be positive")
	case cfg.UploadLifetime < time.Second || cfg.UploadLifetime > 7*24*time.Hour:
		return nil, fmt.Errorf("media: upload lifetime %s: want 1s to 7 days (the longest a presigned request lives)", cfg.UploadLifetime)
	case cfg.URLLifetime < time.Second || cfg.URLLifetime > 3*24*time.Hour:
		// A URL lives up to twice its lifetime (see Image), within S3's 7 days.
		return nil, fmt.Errorf("media: URL lifetime %s: want 1s to 3 days", cfg.URLLifetime)
	}
	return &Service{cfg: cfg, store: store, records: records, finishing: make(chan struct{}, cfg.Finishes)}, nil
}

// MaxBytes is the largest file an upload may declare.
func (s *Service) MaxBytes() int64 { return s.cfg.MaxBytes }

// The content types an upload may declare.
var uploadTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/webp": true}

// Ticket is where and how to send an upload's file.
type Ticket struct {
	Upload domain.Upload
	Form   blob.PostForm
}

// CreateUpload starts an upload of owner's: a file of contentType of at most size bytes, whose
// POST the store answers as success asks (a page without JavaScript wants a redirect or a
// status it can show, see blob.PostSuccess). The caller has checked that it may act as owner.
func (s *Service) CreateUpload(ctx context.Context, owner, contentType string, size int64, success blob.PostSuccess) (Ticket, error) {
	if err := s.ValidateUploadRequest(owner, contentType, size, success); err != nil {
		return Ticket{}, err
	}
	// Whole seconds: the record keeps the expiry to the second, and the form must not outlive it.
	expires := s.cfg.Now().Add(s.cfg.UploadLifetime).Truncate(time.Second).UTC()
	u := domain.Upload{ID: newUploadID(), Owner: owner, ContentType: contentType, Bytes: size, Expires: expires}
	// The record comes first: a form whose record is missing could stage a file nothing
	// sweeps, while a record without a form is swept like any unused upload.
	if err := s.records.CreateUpload(ctx, u); err != nil {
		return Ticket{}, err
	}
	form, err := s.store.PresignPost(ctx, stagingKey(u.ID), contentType, size, expires, success)
	if err != nil {
		return Ticket{}, domain.Wrap(domain.Internal, err, "presigning the upload")
	}
	return Ticket{Upload: u, Form: form}, nil
}

// ValidateUploadRequest checks CreateUpload's arguments without a request, so that a caller
// may refuse them before any other step (a client mutation id's mark).
func (s *Service) ValidateUploadRequest(owner, contentType string, size int64, success blob.PostSuccess) error {
	if err := domain.ValidateUsername("owner", owner); err != nil {
		return err
	}
	if !uploadTypes[contentType] {
		return domain.Errorf(domain.Invalid, "contentType %q: want image/jpeg, image/png or image/webp", contentType)
	}
	if size < 1 || size > s.cfg.MaxBytes {
		return domain.Errorf(domain.Invalid, "byteSize %d: want 1 to %d", size, s.cfg.MaxBytes)
	}
	if success.Status != 0 && success.Status != 200 && success.Status != 201 {
		return domain.Errorf(domain.Invalid, "successActionStatus %d: want 200 or 201 (or none, for 204)", success.Status)
	}
	if success.Redirect != "" {
		return domain.ValidateURL("successActionRedirect", success.Redirect)
	}
	return nil
}

// Finish makes photo p (its owner and timestamp set and valid) of upload uploadID: checks the
// upload, makes and stores the renditions, and writes the photo. The caller has checked that
// it may act as p.Owner.
func (s *Service) Finish(ctx context.Context, p domain.Photo, uploadID string) (domain.Photo, error) {
	if err := ValidateUploadID(uploadID); err != nil {
		return domain.Photo{}, err
	}
	u, err := s.records.GetUpload(ctx, uploadID)
	if err != nil {
		return domain.Photo{}, err
	}
	if err := u.UsableBy(p.Owner, s.cfg.Now()); err != nil {
		return domain.Photo{}, err
	}
	select {
	case s.finishing <- struct{}{}:
		defer func() { <-s.finishing }()
	case <-ctx.Done():
		return domain.Photo{}, domain.Wrap(domain.Unavailable, ctx.Err(), "the server is busy making other uploads into photos; retry later")
	}
	images, err := s.render(ctx, u)
	if err != nil {
		return domain.Photo{}, err
	}
	p.URL = ""
	p.Images = images
	p.Width, p.Height = images[domain.ImageOriginal].Width, images[domain.ImageOriginal].Height
	// On failure the renditions stay under the upload's prefix for Sweep: a racing Finish
	// that won may be writing its photo over the very same objects.
	photo, err := s.records.UploadPhotoFrom(ctx, p, u, s.cfg.Now())
	if err != nil && ctx.Err() != nil {
		return domain.Photo{}, requestEnded(err)
	}
	if err != nil {
		return domain.Photo{}, err
	}
	// The staged file is no longer needed; Sweep deletes it if this does not.
	if err := s.store.Delete(context.WithoutCancel(ctx), stagingKey(u.ID)); err != nil {
		s.cfg.Log.Warn("deleting a staged upload", "upload", u.ID, "error", err)
	}
	return photo, nil
}

// render reads upload u's staged file and stores its renditions. Once ctx has ended it stores
// no more (imaging.Process and the stores' writes stop), so that no Finish writes under an
// upload's prefix after its request ended, which Sweep relies on (see SweepGrace).
func (s *Service) render(ctx context.Context, u domain.Upload) (domain.Images, error) {
	r, err := s.store.NewReader(ctx, stagingKey(u.ID), u.Bytes)
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, requestEnded(err)
	case errors.Is(err, blob.ErrNotFound):
		// A racing Finish that won deletes the staged file: say so rather than that none
		// was sent.
		if now, rerr := s.records.GetUpload(ctx, u.ID); rerr == nil && now.Used {
			return nil, now.UsableBy(u.Owner, s.cfg.Now())
		}
		return nil, domain.UploadStateRefusal(fmt.Sprintf("no file was sent for upload %q: POST it to the createPhotoUpload form first", u.ID))
	case errors.Is(err, blob.ErrTooLarge):
		return nil, domain.UploadStateRefusal(fmt.Sprintf("the file of upload %q is larger than the %d bytes declared", u.ID, u.Bytes))
	case err != nil:
		return nil, domain.Wrap(domain.Internal, err, "reading the upload")
	}
	defer r.Close()
	res, err := imaging.Process(ctx, r, u.ContentType, imaging.Limits{MaxPixels: s.cfg.MaxPixels, MaxBytes: u.Bytes})
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, requestEnded(err)
	case errors.Is(err, blob.ErrTooLarge):
		return nil, domain.UploadStateRefusal(fmt.Sprintf("the file of upload %q is larger than the %d bytes declared", u.ID, u.Bytes))
	case err != nil && domain.ErrorCode(err) == domain.Internal:
		// A failure to read the staged file is the store's, not the client's.
		return nil, domain.Wrap(domain.Internal, err, "making the images")
	case err != nil:
		var e *domain.Error
		if errors.As(err, &e) && e.Code == domain.Invalid {
			// The file sent is no image the server takes: the upload's state.
			return nil, domain.UploadStateRefusal(e.Message)
		}
		return nil, err
	}
	images := domain.Images{}
	for _, v := range res.Variants {
		key := imageKey(u.ID, v.SHA256, v.ContentType)
		if err := s.store.Write(ctx, key, v.ContentType, v.Bytes); err != nil {
			if ctx.Err() != nil {
				return nil, requestEnded(err)
			}
			return nil, domain.Wrap(domain.Internal, err, "storing the images")
		}
		images[domain.ImageSize(v.Size)] = domain.StoredImage{Key: key, Width: v.Width, Height: v.Height, ContentType: v.ContentType}
	}
	for _, size := range domain.ImageSizes {
		if _, ok := images[size]; !ok {
			return nil, domain.Errorf(domain.Internal, "imaging made no %s rendition", size)
		}
	}
	return images, nil
}

// requestEnded is Finish's error when its request ends (cancelled, or past its deadline)
// before the photo is written. What it stored stays for Sweep, as any failure's does.
func requestEnded(err error) error {
	return domain.Wrap(domain.Unavailable, err, "the request ended before the upload was made into a photo; retry uploadPhoto")
}

// Image is one rendition of a photo with a signed URL.
type Image struct {
	URL           string
	Width, Height int
}

// Image returns the rendition of size of photo p, with a signed URL; nil for a photo hosted
// elsewhere. The URL expires between one and two URL lifetimes from now: every call within
// one lifetime window gets the same URL, so browsers and CDNs cache the image by it.
func (s *Service) Image(ctx context.Context, p domain.Photo, size domain.ImageSize) (*Image, error) {
	img, ok := p.Images[size]
	if !ok {
		return nil, nil
	}
	life := s.cfg.URLLifetime
	expires := s.cfg.Now().Truncate(life).Add(2 * life)
	url, ok := s.urls.get(img.Key, expires)
	if !ok {
		var err error
		if url, err = s.store.SignedURL(ctx, img.Key, expires); err != nil {
			return nil, domain.Wrap(domain.Internal, err, "signing an image URL")
		}
		s.urls.put(img.Key, expires, url)
	}
	return &Image{URL: url, Width: img.Width, Height: img.Height}, nil
}

// URL is what Photo.url answers: the signed URL of the display size of an uploaded photo,
// the photo's own URL otherwise.
func (s *Service) URL(ctx context.Context, p domain.Photo) (string, error) {
	img, err := s.Image(ctx, p, domain.ImageDisplay)
	if err != nil || img == nil {
		return p.URL, err
	}
	return img.URL, nil
}

// uploadIDLen is the length of an upload id: 16 random bytes in hex.
const uploadIDLen = 32

func newUploadID() string {
	b := make([]byte, uploadIDLen/2)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// ValidateUploadID accepts an upload id only as the server spells them, so that one never
// names another key of the store (no "..", no slash).
func ValidateUploadID(id string) error {
	if len(id) != uploadIDLen || strings.Trim(id, "0123456789abcdef") != "" || blob.CheckSegment(id) != nil {
		return domain.Errorf(domain.Invalid, "upload %q: not an upload id (createPhotoUpload returns them)", id)
	}
	return nil
}

// Keys of the store. Every one is under the upload's own id, which ValidateUploadID keeps to
// one safe segment.
func stagingKey(id string) string  { return stagingPrefix + id }
func imagePrefix(id string) string { return imagesPrefix + id + "/" }
func imageKey(id, sha256, contentType string) string {
	ext := "jpg"
	if contentType == "image/png" {
		ext = "png"
	}
	return imagePrefix(id) + sha256 + "." + ext
}

// The prefixes of the store's keys: StagingPrefix is the one an S3 lifecycle rule expires.
const (
	stagingPrefix = "staging/"
	imagesPrefix  = "images/"
	// StagingPrefix is where uploaded files wait to be made into photos.
	StagingPrefix = stagingPrefix
)

// Immutable reports whether the object at key never changes: the renditions, named by their
// content. The embedded store serves them with a year-long Cache-Control.
func Immutable(key string) bool { return strings.HasPrefix(key, imagesPrefix) }
