package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/quickphotos/quickphotos/media"
	"github.com/quickphotos/quickphotos/media/blob"
)

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
	f.String(&c.dir, "media-dir", "", "with --media-store embedded: the files' directory (empty: media under --data; a temporary one with --in-memory)")
	f.String(&c.bucket, "media-bucket", "", "with --media-store s3: the bucket (credentials and region from the AWS SDK's configuration)")
	f.String(&c.prefix, "media-prefix", "", `with --media-store s3: a prefix of every object's key, e.g. "quickphotos/" (staged uploads go under <prefix>staging/: give that a lifecycle rule, see docs/uploads.md)`)
	f.String(&c.endpointURL, "media-endpoint-url", "", "with --media-store s3: an S3-compatible endpoint, addressed path-style (empty: the AWS SDK's, which also reads AWS_ENDPOINT_URL_S3)")
	f.String(&c.baseURL, "media-base-url", "", "with --media-store embedded: the origin clients reach this server at, for upload forms and image URLs, e.g. https://photos.example.com (empty: http:// and --addr)")
	f.Int(&c.maxBytes, "media-max-bytes", media.DefaultMaxBytes, "the largest photo file an upload may declare, in bytes")
	f.Int(&c.maxPixels, "media-max-pixels", media.DefaultMaxPixels, "refuse images whose header claims more pixels (width × height) than this, before decoding them")
	f.Duration(&c.service.UploadLifetime, "media-upload-lifetime", media.DefaultUploadLifetime, "how long a createPhotoUpload form, and the upload, stay valid")
	f.Duration(&c.service.URLLifetime, "media-url-lifetime", media.DefaultURLLifetime, "the lifetime of signed image URLs: each is valid one to two lifetimes, and the same URL is handed out within one")
	f.Int(&c.service.Finishes, "media-finishes", 0, "how many uploads are made into photos (decoded, resized, encoded) at once; more wait, so uploads never starve queries (0: half the CPUs, at least 1)")
}

// openedMedia is the media service, and the embedded store's handler (nil on S3).
type openedMedia struct {
	service *media.Service
	files   http.Handler
	// base is the origin of the embedded store's URLs once serve listens.
	base    atomic.Pointer[string]
	says    string
	cleanup func()
}

// open opens the media store over records. serve sets the embedded store's origin with setBase
// once it listens, unless --media-base-url gives it.
func (c *mediaConfig) open(ctx context.Context, records media.Records, store storeConfig, log *slog.Logger) (*openedMedia, error) {
	if c.maxBytes <= 0 || c.maxPixels <= 0 || c.service.Finishes < 0 {
		return nil, errors.New("--media-max-bytes and --media-max-pixels must be positive, --media-finishes 0 or more")
	}
	c.service.MaxBytes, c.service.MaxPixels = int64(c.maxBytes), int64(c.maxPixels)
	o := &openedMedia{cleanup: func() {}}
	var bs blob.Store
	switch c.kind {
	case mediaEmbedded:
		if c.bucket != "" || c.prefix != "" || c.endpointURL != "" {
			return nil, errors.New("--media-bucket, --media-prefix and --media-endpoint-url are for --media-store s3")
		}
		dir := c.dir
		switch {
		case dir != "":
		case store.kind == storeEmbedded && store.inMemory:
			tmp, err := os.MkdirTemp("", "quickphotos-media-")
			if err != nil {
				return nil, err
			}
			dir, o.cleanup = tmp, func() { _ = os.RemoveAll(tmp) }
		default:
			dir = filepath.Join(store.dataDir, "media")
		}
		if c.baseURL != "" {
			base := strings.TrimSuffix(c.baseURL, "/")
			o.base.Store(&base)
		}
		fs, err := blob.OpenFileStore(dir, func() string {
			if b := o.base.Load(); b != nil {
				return *b
			}
			return ""
		}, blob.WithImmutable(media.Immutable), blob.WithLogger(log))
		if err != nil {
			o.cleanup()
			return nil, fmt.Errorf("--media-dir: %w", err)
		}
		bs, o.files, o.says = fs, fs.Handler(), "embedded in "+dir
	case mediaS3:
		if c.bucket == "" {
			return nil, errors.New("--media-store s3 needs --media-bucket")
		}
		if c.prefix != "" && !strings.HasSuffix(c.prefix, "/") {
			return nil, fmt.Errorf("--media-prefix %q: end it with a slash", c.prefix)
		}
		client, err := c.s3Client(ctx)
		if err != nil {
			return nil, err
		}
		bs, o.says = blob.NewS3Store(client, c.bucket, c.prefix), fmt.Sprintf("S3 bucket %s, prefix %q", c.bucket, c.prefix)
	default:
		return nil, fmt.Errorf("--media-store: %q is neither %s nor %s", c.kind, mediaEmbedded, mediaS3)
	}
	c.service.Log = log
	svc, err := media.New(bs, records, c.service)
	if err != nil {
		o.cleanup()
		return nil, err
	}
	o.service = svc
	return o, nil
}

// setBase tells the embedded store the origin serve listens at, unless --media-base-url did.
func (o *openedMedia) setBase(base string) {
	o.base.CompareAndSwap(nil, &base)
}

func (c *mediaConfig) s3Client(ctx context.Context) (*s3.Client, error) {
	endpoint := configuredEndpoint(c.endpointURL, "AWS_ENDPOINT_URL_S3")
	cfg, err := config.LoadDefaultConfig(ctx, loopbackOnly(endpoint)...)
	if err != nil {
		return nil, fmt.Errorf("loading AWS configuration: %w", err)
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1"
	}
	if onLoopback(endpoint) {
		// S3-compatible stores on a developer's machine take static keys; without any
		// configured, the SDK's error would hide the real one.
		if _, err := cfg.Credentials.Retrieve(ctx); err != nil {
			cfg.Credentials = credentials.NewStaticCredentialsProvider("local", "local", "")
		}
	}
	return s3.NewFromConfig(cfg, func(o *s3.Options) {
		if c.endpointURL != "" {
			o.BaseEndpoint = aws.String(c.endpointURL) // the SDK reads the variables itself
		}
		// An S3-compatible store, from the flag or the environment, is addressed path-style:
		// its buckets are not host names.
		o.UsePathStyle = endpoint != ""
	}), nil
}
