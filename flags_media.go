package main

import "github.com/quickphotos/quickphotos/media"

// Media store kinds.
const (
	mediaEmbedded = "embedded"
	mediaS3       = "s3"
	// mediaNone takes no photo files (a Lambda function's default: its instances share no
	// disk for the embedded store).
	mediaNone = "none"
)

// mediaConfig says where photo files live and the limits of uploads.
type mediaConfig struct {
	kind        string
	dir         string
	bucket      string
	prefix      string
	endpointURL string
	baseURL     string
	service     media.Config
	maxBytes    int
	maxPixels   int
}

// register adds the media flags of serve, whose photo files are embedded by default.
func (c *mediaConfig) register(f *flags) {
	f.String(&c.kind, "media-store", mediaEmbedded, "where photo files live: embedded (files in --media-dir, uploaded to and served by this server at /media/) or s3 (--media-bucket)")
	c.registerStore(f)
}

// registerStore adds every media flag but --media-store.
func (c *mediaConfig) registerStore(f *flags) {
	c.registerLocation(f)
	f.String(&c.baseURL, "media-base-url", "", "with --media-store embedded: the origin clients reach this server at, for upload forms and image URLs, e.g. https://photos.example.com (empty: http:// and --addr, which then must name one address, not 0.0.0.0 or ::)")
	f.Int(&c.maxBytes, "media-max-bytes", media.DefaultMaxBytes, "the largest photo file an upload may declare, in bytes")
	f.Int(&c.maxPixels, "media-max-pixels", media.DefaultMaxPixels, "refuse images whose header claims more pixels (width × height) than this, or whose decoding would hold more than 6 bytes for each of them (a progressive or 16-bit file may have fewer pixels), before decoding them")
	f.Duration(&c.service.UploadLifetime, "media-upload-lifetime", media.DefaultUploadLifetime, "how long a createPhotoUpload form, and the upload, stay valid")
	f.Duration(&c.service.URLLifetime, "media-url-lifetime", media.DefaultURLLifetime, "the lifetime of signed image URLs: each is valid one to two lifetimes, and the same URL is handed out within one")
	f.Int(&c.service.Finishes, "media-finishes", 0, "how many uploads are made into photos (decoded, resized, encoded) at once; more wait, so uploads never starve queries (0: half the CPUs, at least 1)")
}

// registerDeleting adds the media flags of `stream`, which takes no uploads and serves no
// images: its feed's reader deletes the images of deleted photos, so it needs only where the
// files live, from the same flags and variables as serve's.
func (c *mediaConfig) registerDeleting(f *flags) {
	f.String(&c.kind, "media-store", mediaEmbedded, "where serve's photo files live, whose deleted photos' images this process deletes: embedded (files in --media-dir, which must be serve's) or s3 (--media-bucket)")
	c.registerLocation(f)
	// open checks the limits of uploads, which this process never takes.
	c.maxBytes, c.maxPixels = media.DefaultMaxBytes, media.DefaultMaxPixels
}

// registerLocation adds the flags of where the photo files live.
func (c *mediaConfig) registerLocation(f *flags) {
	f.String(&c.dir, "media-dir", "", "with --media-store embedded: the files' directory (empty: media under --data; a temporary one with --in-memory)")
	f.String(&c.bucket, "media-bucket", "", "with --media-store s3: the bucket (credentials and region from the AWS SDK's configuration)")
	f.String(&c.prefix, "media-prefix", "", `with --media-store s3: a prefix of every object's key, e.g. "quickphotos/" (staged uploads go under <prefix>staging/: give that a lifecycle rule, see docs/uploads.md)`)
	f.String(&c.endpointURL, "media-endpoint-url", "", "with --media-store s3: an S3-compatible endpoint, addressed path-style (empty: the AWS SDK's, which also reads AWS_ENDPOINT_URL_S3)")
}
