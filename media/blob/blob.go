// Package blob stores photo bytes: uploads straight from a client's browser through a presigned
// POST form, reads and writes by the server, and signed, expiring GET URLs. Two stores implement
// the one [Store] interface so that a client cannot tell which is behind the API:
//
//   - [FileStore], the embedded store: files under the data directory, written atomically, with
//     its own HTTP handler (mounted by serve at [FileStorePath]) that accepts the same
//     multipart/form-data POST as S3, under the same rules (exact key, declared Content-Type,
//     content-length-range, expiry), answers it as S3 does ([PostSuccess]), signed with an HMAC
//     key kept in the directory, and serves HMAC-signed GETs.
//   - [S3Store], over aws-sdk-go-v2's S3 client and presigner.
//
// Keys are slash-separated paths of safe segments (see [CheckKey]); the caller builds them, and
// a part a client controls must pass [CheckSegment], which also refuses a slash.
package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// PostForm is a presigned upload: a client sends Fields and then the file, as a part named
// "file", as multipart/form-data to URL (fields first, the file last, as S3 requires), before
// Expires. The store refuses an empty file, a file larger than MaxBytes, one for another key, one with another
// Content-Type, and any field altered or added.
type PostForm struct {
	URL      string
	Fields   map[string]string
	Expires  time.Time
	MaxBytes int64
}

// PostSuccess is what a store answers a POST that stored its file, as S3 answers a browser's
// form by its success_action_redirect and success_action_status fields (each in the form and
// covered by its policy, so a client cannot change it): 303 See Other to Redirect, with the
// bucket, key and quoted ETag added to its query, when Redirect is set; else 200 with no body
// or 201 with an XML PostResponse (Location, Bucket, Key, ETag) when Status says so; else, the
// zero value, 204 with no body. A page without JavaScript posts the form itself, and a 204
// leaves the browser where it was, never showing that the upload finished.
type PostSuccess struct {
	// Status is 0 (204), 200 or 201.
	Status int
	// Redirect is "" or an absolute http or https URL.
	Redirect string
}

// The form fields of PostSuccess, S3's names.
const (
	fieldSuccessStatus   = "success_action_status"
	fieldSuccessRedirect = "success_action_redirect"
)

// fields are the form fields that ask for p: none for the zero value.
func (p PostSuccess) fields() map[string]string {
	f := map[string]string{}
	if p.Status != 0 {
		f[fieldSuccessStatus] = strconv.Itoa(p.Status)
	}
	if p.Redirect != "" {
		f[fieldSuccessRedirect] = p.Redirect
	}
	return f
}

// conditions are the policy conditions that fix p's fields to their values.
func (p PostSuccess) conditions() []any {
	var c []any
	for name, value := range p.fields() {
		c = append(c, map[string]string{name: value})
	}
	return c
}

// check accepts a PostSuccess both stores answer alike.
func (p PostSuccess) check() error {
	if p.Status != 0 && p.Status != 200 && p.Status != 201 {
		return fmt.Errorf("%w: success status %d: want 200 or 201 (or none, for 204)", ErrInvalidArgument, p.Status)
	}
	if p.Redirect != "" && !isRedirectURL(p.Redirect) {
		return fmt.Errorf("%w: success redirect %q is not an absolute http or https URL", ErrInvalidArgument, p.Redirect)
	}
	return nil
}

func isRedirectURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && len(raw) <= maxRedirectLen
}

// maxRedirectLen bounds a success redirect, which travels in the form and the policy.
const maxRedirectLen = 2048

// Attrs describe a stored object. ETag is an opaque validator, without quotes, that changes
// when the content does: S3's ETag on S3 (the hex MD5 for an object written in one request),
// the hex SHA-256 of the content on the embedded store (SHA-256 runs at twice MD5's speed
// where the CPU has SHA instructions, and uploads are bound by hashing).
type Attrs struct {
	Size        int64
	ContentType string
	ETag        string
}

// Store is where photo bytes live. Every method takes a key that passes [CheckKey] and returns
// [ErrInvalidKey] otherwise.
type Store interface {
	// PresignPost lets a client upload exactly key, of contentType, at most maxBytes, until
	// expires; the store answers the upload as success says.
	PresignPost(ctx context.Context, key, contentType string, maxBytes int64, expires time.Time, success PostSuccess) (PostForm, error)
	// Attributes returns ErrNotFound when key is absent.
	Attributes(ctx context.Context, key string) (Attrs, error)
	// NewReader opens key for reading; ErrNotFound when absent, ErrTooLarge when the object is
	// larger than maxBytes (the reader never yields more than maxBytes either way). The caller
	// closes it.
	NewReader(ctx context.Context, key string, maxBytes int64) (io.ReadCloser, error)
	// Write stores data at key atomically: a reader sees the old object or the new one, never
	// part of it. Writing the same bytes again is harmless, so writes to content-addressed keys
	// are idempotent. Once ctx has ended it stores nothing (a request to S3 it had already
	// sent may still complete).
	Write(ctx context.Context, key, contentType string, data []byte) error
	// Delete removes key; an absent key is not an error.
	Delete(ctx context.Context, key string) error
	// List calls fn for every key under prefix (a plain string prefix, as in S3) with its last
	// modification time, in no promised order; an error from fn stops the listing and is
	// returned. It is for sweeping abandoned staging uploads.
	List(ctx context.Context, prefix string, fn func(key string, modified time.Time) error) error
	// SignedURL returns a URL that GETs key until expires.
	SignedURL(ctx context.Context, key string, expires time.Time) (string, error)
}

var (
	// ErrNotFound is returned by Attributes and NewReader for an absent key.
	ErrNotFound = errors.New("blob: not found")
	// ErrInvalidKey is returned for a key that fails CheckKey, and by CheckSegment.
	ErrInvalidKey = errors.New("blob: invalid key")
	// ErrTooLarge is returned by NewReader when the object is larger than the limit given.
	ErrTooLarge = errors.New("blob: object too large")
	// ErrInvalidArgument is returned for a content type, size limit or expiry PresignPost or
	// Write cannot accept.
	ErrInvalidArgument = errors.New("blob: invalid argument")
)

// MaxKeyLen bounds a key, well under S3's 1024 bytes so that a prefix still fits.
const MaxKeyLen = 512

// CheckKey accepts a key made of one or more segments separated by single slashes, each of
// which passes CheckSegment: no leading or trailing slash, no empty, "." or ".." segment, only
// ASCII letters, digits and "-_.=". Both stores apply it, so a key maps to one path under the
// embedded store's directory and to the same S3 object name.
func CheckKey(key string) error {
	if key == "" || len(key) > MaxKeyLen {
		return fmt.Errorf("%w: %q: length must be 1 to %d bytes", ErrInvalidKey, key, MaxKeyLen)
	}
	for seg := range strings.SplitSeq(key, "/") {
		if err := CheckSegment(seg); err != nil {
			return fmt.Errorf("%w: %q: %v", ErrInvalidKey, key, segmentProblem(seg))
		}
	}
	return nil
}

// CheckSegment accepts one path segment of a key: a part of it that a client controls (an
// upload id, a file name) passes this before the caller joins it into a key, so that it can
// neither climb out of its prefix ("..") nor add levels ("/").
func CheckSegment(seg string) error {
	if p := segmentProblem(seg); p != "" {
		return fmt.Errorf("%w: segment %q: %s", ErrInvalidKey, seg, p)
	}
	return nil
}

func segmentProblem(seg string) string {
	switch seg {
	case "":
		return "empty segment"
	case ".", "..":
		return "dot segment"
	}
	if len(seg) > 255 {
		return "segment longer than 255 bytes"
	}
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_', c == '.', c == '=':
		case c == '/':
			return "contains a slash"
		default:
			return fmt.Sprintf("byte %q not allowed", c)
		}
	}
	return ""
}

// checkPrefix accepts a List prefix: "" or the beginning of some key that passes CheckKey.
func checkPrefix(prefix string) error {
	if prefix == "" {
		return nil
	}
	if err := CheckKey(prefix + "x"); err != nil {
		return fmt.Errorf("%w: prefix %q cannot begin a key", ErrInvalidKey, prefix)
	}
	return nil
}

// checkPost validates PresignPost's arguments, common to both stores.
func checkPost(key, contentType string, maxBytes int64, expires, now time.Time, success PostSuccess) error {
	if err := CheckKey(key); err != nil {
		return err
	}
	if err := success.check(); err != nil {
		return err
	}
	if err := checkContentType(contentType); err != nil {
		return err
	}
	if maxBytes <= 0 {
		return fmt.Errorf("%w: maxBytes %d must be positive", ErrInvalidArgument, maxBytes)
	}
	if !expires.After(now) {
		return fmt.Errorf("%w: expiry %s is not in the future", ErrInvalidArgument, expires.Format(time.RFC3339))
	}
	// S3 presigned requests are valid for at most seven days; the embedded store keeps the same
	// limit so that both behave alike.
	if expires.Sub(now) > 7*24*time.Hour {
		return fmt.Errorf("%w: expiry %s is more than 7 days away", ErrInvalidArgument, expires.Format(time.RFC3339))
	}
	return nil
}

// checkContentType accepts a media type of the form type/subtype with no parameters: it goes
// verbatim into a policy condition and a response header.
func checkContentType(ct string) error {
	typ, sub, ok := strings.Cut(ct, "/")
	if !ok || !isToken(typ) || !isToken(sub) {
		return fmt.Errorf("%w: content type %q is not of the form type/subtype", ErrInvalidArgument, ct)
	}
	return nil
}

func isToken(s string) bool {
	if s == "" || len(s) > 127 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$&-^_.+", c) >= 0) {
			return false
		}
	}
	return true
}
