package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
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

// checkOrigin refuses embedded photo files on a listener of every address (0.0.0.0, ::, or
// no host) without --media-base-url: their upload forms and image URLs carry the origin
// clients reach the server at, which serve otherwise takes from its listener, and
// http://0.0.0.0:8080 is no address a client can reach.
func (c *mediaConfig) checkOrigin(listen *net.TCPAddr) error {
	if c.kind != mediaEmbedded || c.baseURL != "" || listen.IP != nil && !listen.IP.IsUnspecified() {
		return nil
	}
	return fmt.Errorf("--addr %s listens on every address, so the upload forms and image URLs of the embedded photo files cannot name it: give --media-base-url, the origin clients reach this server at (e.g. https://photos.example.com), or --media-store s3", listen)
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
