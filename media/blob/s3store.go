package blob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
)

// S3Store keeps objects in an S3 bucket under a key prefix, through aws-sdk-go-v2.
//
// Presigned POST comes from the SDK's own PresignClient.PresignPostObject, which builds the
// policy document (expiration; bucket, key, x-amz-algorithm/credential/date conditions) and
// signs it with SigV4's derived key; this store adds the Content-Type and content-length-range
// conditions. Nothing is reimplemented: the signing key derivation is not exported by
// aws/signer/v4, and the SDK's helper is maintained with it.
//
// A browser posting the form to the bucket from the app's origin needs the bucket's CORS
// configuration to allow POST from that origin; that is the operator's setting, not this
// store's.
type S3Store struct {
	client  *s3.Client
	presign *s3.PresignClient
	bucket  string
	prefix  string
}

// NewS3Store returns a store over bucket; every key is stored as prefix+key (prefix is "" or
// ends in "/").
func NewS3Store(client *s3.Client, bucket, prefix string) *S3Store {
	return &S3Store{client: client, presign: s3.NewPresignClient(client), bucket: bucket, prefix: prefix}
}

func (s *S3Store) object(key string) (*string, error) {
	if err := CheckKey(key); err != nil {
		return nil, err
	}
	return aws.String(s.prefix + key), nil
}

// PresignPost implements Store.
func (s *S3Store) PresignPost(ctx context.Context, key, contentType string, maxBytes int64, expires time.Time, success PostSuccess) (PostForm, error) {
	if err := checkPost(key, contentType, maxBytes, expires, time.Now(), success); err != nil {
		return PostForm{}, err
	}
	obj, _ := s.object(key)
	req, err := s.presign.PresignPostObject(ctx, &s3.PutObjectInput{Bucket: aws.String(s.bucket), Key: obj}, func(o *s3.PresignPostOptions) {
		// The SDK counts expiry from its signing time, now; rounding up keeps the policy from
		// expiring before the expiry asked for.
		o.Expires = time.Until(expires).Truncate(time.Second) + time.Second
		o.Conditions = append([]any{
			map[string]string{"Content-Type": contentType},
			[]any{"content-length-range", 1, maxBytes},
		}, success.conditions()...)
	})
	if err != nil {
		return PostForm{}, fmt.Errorf("blob: presign POST %s: %w", key, err)
	}
	fields := make(map[string]string, len(req.Values)+1)
	for k, v := range req.Values {
		fields[k] = v
	}
	fields["Content-Type"] = contentType
	maps.Copy(fields, success.fields())
	return PostForm{URL: req.URL, Fields: fields, Expires: expires, MaxBytes: maxBytes}, nil
}

// Attributes implements Store.
func (s *S3Store) Attributes(ctx context.Context, key string) (Attrs, error) {
	obj, err := s.object(key)
	if err != nil {
		return Attrs{}, err
	}
	out, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(s.bucket), Key: obj})
	if err != nil {
		return Attrs{}, s.err("head", key, err)
	}
	return Attrs{Size: aws.ToInt64(out.ContentLength), ContentType: aws.ToString(out.ContentType), ETag: strings.Trim(aws.ToString(out.ETag), `"`)}, nil
}

// NewReader implements Store.
func (s *S3Store) NewReader(ctx context.Context, key string, maxBytes int64) (io.ReadCloser, error) {
	obj, err := s.object(key)
	if err != nil {
		return nil, err
	}
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(s.bucket), Key: obj})
	if err != nil {
		return nil, s.err("get", key, err)
	}
	if n := aws.ToInt64(out.ContentLength); n > maxBytes {
		out.Body.Close()
		return nil, fmt.Errorf("%w: %s holds %d bytes, more than %d", ErrTooLarge, key, n, maxBytes)
	}
	return struct {
		io.Reader
		io.Closer
	}{io.LimitReader(out.Body, maxBytes), out.Body}, nil
}

// Write implements Store; a single PutObject is atomic in S3.
func (s *S3Store) Write(ctx context.Context, key, contentType string, data []byte) error {
	obj, err := s.object(key)
	if err != nil {
		return err
	}
	if err := checkContentType(contentType); err != nil {
		return err
	}
	_, err = s.client.PutObject(ctx, &s3.PutObjectInput{
		Bucket:        aws.String(s.bucket),
		Key:           obj,
		Body:          bytes.NewReader(data),
		ContentLength: aws.Int64(int64(len(data))),
		ContentType:   aws.String(contentType),
	})
	if err != nil {
		return s.err("put", key, err)
	}
	return nil
}

// Delete implements Store; S3 itself treats deleting an absent key as success.
func (s *S3Store) Delete(ctx context.Context, key string) error {
	obj, err := s.object(key)
	if err != nil {
		return err
	}
	if _, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.bucket), Key: obj}); err != nil {
		return s.err("delete", key, err)
	}
	return nil
}

// List implements Store.
func (s *S3Store) List(ctx context.Context, prefix string, fn func(key string, modified time.Time) error) error {
	if err := checkPrefix(prefix); err != nil {
		return err
	}
	p := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: aws.String(s.bucket), Prefix: aws.String(s.prefix + prefix)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return s.err("list", prefix, err)
		}
		for _, o := range page.Contents {
			key := strings.TrimPrefix(aws.ToString(o.Key), s.prefix)
			if err := fn(key, aws.ToTime(o.LastModified)); err != nil {
				return err
			}
		}
	}
	return nil
}

// maxPresigned is the longest a SigV4 presigned request lives.
const maxPresigned = 7 * 24 * time.Hour

// SignedURL implements Store with a presigned GetObject. The URL is signed as of
// maxPresigned before expires and lives maxPresigned, so that it depends on key and expires
// alone, not on the second it was asked for: the media service asks for one expiry per
// window of time, and every URL of an image within a window is then the same, which browsers
// and CDNs cache by (a presigned URL is valid from its date until its date plus its
// lifetime).
func (s *S3Store) SignedURL(ctx context.Context, key string, expires time.Time) (string, error) {
	obj, err := s.object(key)
	if err != nil {
		return "", err
	}
	// The SigV4 date counts whole seconds: an expiry within one is rounded up.
	if rounded := expires.Truncate(time.Second); rounded.Before(expires) {
		expires = rounded.Add(time.Second)
	}
	if d := time.Until(expires); d <= 0 || d > maxPresigned {
		return "", fmt.Errorf("%w: expiry %s must be within 7 days from now", ErrInvalidArgument, expires.Format(time.RFC3339))
	}
	req, err := s.presign.PresignGetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(s.bucket), Key: obj}, func(o *s3.PresignOptions) {
		o.Expires = maxPresigned
		o.Presigner = signedAt{o.Presigner, expires.Add(-maxPresigned)}
	})
	if err != nil {
		return "", fmt.Errorf("blob: presign GET %s: %w", key, err)
	}
	return req.URL, nil
}

// signedAt is the SDK's presigner with the signing time fixed at at.
type signedAt struct {
	s3.HTTPPresignerV4
	at time.Time
}

func (p signedAt) PresignHTTP(ctx context.Context, credentials aws.Credentials, r *http.Request, payloadHash, service, region string, _ time.Time, optFns ...func(*v4.SignerOptions)) (string, http.Header, error) {
	return p.HTTPPresignerV4.PresignHTTP(ctx, credentials, r, payloadHash, service, region, p.at, optFns...)
}

// err turns S3's not-found answers into ErrNotFound.
func (s *S3Store) err(op, key string, err error) error {
	var nsk *types.NoSuchKey
	var nf *types.NotFound
	var ae smithy.APIError
	if errors.As(err, &nsk) || errors.As(err, &nf) || (errors.As(err, &ae) && (ae.ErrorCode() == "NoSuchKey" || ae.ErrorCode() == "NotFound")) {
		return fmt.Errorf("%w: %s", ErrNotFound, key)
	}
	return fmt.Errorf("blob: %s %s: %w", op, key, err)
}

var (
	_ Store = (*FileStore)(nil)
	_ Store = (*S3Store)(nil)
)
