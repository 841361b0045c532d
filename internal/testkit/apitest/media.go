package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"sort"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/media"
	"github.com/quickphotos/quickphotos/media/blob"
	"github.com/quickphotos/quickphotos/stream"
)

type mediaOptions struct {
	cfg media.Config
	// store opens the blob store; nil for the embedded file store in a temporary directory.
	store func(t testing.TB) blob.Store
}

// WithMedia makes the server take photo uploads as serve does: the embedded file store in a
// directory of its own, mounted at /media/, and the media stream consumer that deletes a
// deleted photo's images.
func WithMedia(cfg media.Config) Option {
	return func(o *options) { o.media = &mediaOptions{cfg: cfg} }
}

// WithMediaStore is WithMedia over the blob store open returns (S3 through versitygw), in
// place of the embedded file store.
func WithMediaStore(cfg media.Config, open func(t testing.TB) blob.Store) Option {
	return func(o *options) { o.media = &mediaOptions{cfg: cfg, store: open} }
}

// startMedia sets up the media service in cfg and returns its stream consumer.
func (s *Server) startMedia(t testing.TB, cfg *api.Config, o mediaOptions, poll time.Duration) *stream.Consumer {
	t.Helper()
	if o.store != nil {
		s.Blobs = o.store(t)
	} else {
		fs, err := blob.OpenFileStore(t.TempDir(), func() string { return s.URL }, blob.WithImmutable(media.Immutable))
		if err != nil {
			t.Fatalf("open the media store: %v", err)
		}
		s.Blobs = fs
		cfg.MediaFiles = fs.Handler()
	}
	svc, err := media.New(s.Blobs, s.Store, o.cfg)
	if err != nil {
		t.Fatalf("media service: %v", err)
	}
	s.Media, cfg.Media = svc, svc
	return &stream.Consumer{Name: media.ConsumerName, Streams: s.streams, Store: s.Store, Handle: svc.Forget, Poll: poll}
}

// UploadForm is a createPhotoUpload's answer.
type UploadForm struct {
	UploadID string
	URL      string
	Fields   []struct{ Name, Value string }
	Expires  string
	MaxBytes int
}

// CreatePhotoUpload is the mutation that starts an upload.
const CreatePhotoUpload = `mutation($in: CreatePhotoUploadInput!) { createPhotoUpload(input: $in) { uploadId url fields { name value } expires maxBytes } }`

// MustCreatePhotoUpload starts an upload of owner's, failing the test on any error.
func (s *Server) MustCreatePhotoUpload(t testing.TB, owner, contentType string, size int) UploadForm {
	t.Helper()
	resp := s.actingAs(t, owner).Query(t, CreatePhotoUpload, map[string]any{"in": map[string]any{"owner": owner, "contentType": contentType, "byteSize": size}})
	var got struct{ CreatePhotoUpload UploadForm }
	resp.Decode(t, &got)
	return got.CreatePhotoUpload
}

// PostFile sends file to the upload form as a browser's form does: multipart/form-data, the
// fields first and the file last, as a part named "file" sent with contentType. It returns
// the response's status and body.
func PostFile(t testing.TB, form UploadForm, contentType string, file []byte) (int, string) {
	t.Helper()
	fields := map[string]string{}
	for _, f := range form.Fields {
		fields[f.Name] = f.Value
	}
	return PostForm(t, form.URL, fields, contentType, file)
}

// PostForm posts fields and a file part to url as multipart/form-data.
func PostForm(t testing.TB, url string, fields map[string]string, contentType string, file []byte) (int, string) {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := w.WriteField(name, fields[name]); err != nil {
			t.Fatal(err)
		}
	}
	h := make(map[string][]string)
	h["Content-Disposition"] = []string{`form-data; name="file"; filename="photo"`}
	h["Content-Type"] = []string{contentType}
	part, err := w.CreatePart(h)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = part.Write(file)
	_ = w.Close()
	resp, err := http.Post(url, w.FormDataContentType(), &body)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// MustPostFile posts file to the form and fails the test unless the store took it.
func MustPostFile(t testing.TB, form UploadForm, contentType string, file []byte) {
	t.Helper()
	if status, body := PostFile(t, form, contentType, file); status/100 != 2 {
		t.Fatalf("POST the file: status %d: %s", status, body)
	}
}

// Objects lists every key of the server's media store.
func (s *Server) Objects(t testing.TB) []string {
	t.Helper()
	var keys []string
	err := s.Blobs.List(context.Background(), "", func(key string, _ time.Time) error {
		keys = append(keys, key)
		return nil
	})
	if err != nil {
		t.Fatalf("list the media store: %v", err)
	}
	sort.Strings(keys)
	return keys
}

// MustUploadFile uploads file as a photo of owner's at timestamp through the whole flow
// (createPhotoUpload, POST, uploadPhoto) and returns uploadPhoto's data.
func (s *Server) MustUploadFile(t testing.TB, owner, timestamp, contentType string, file []byte, selection string) json.RawMessage {
	t.Helper()
	form := s.MustCreatePhotoUpload(t, owner, contentType, len(file))
	MustPostFile(t, form, contentType, file)
	resp := s.actingAs(t, owner).Query(t, fmt.Sprintf(`mutation($in: UploadPhotoInput!) { uploadPhoto(input: $in) %s }`, selection),
		map[string]any{"in": map[string]any{"owner": owner, "upload": form.UploadID, "timestamp": timestamp}})
	var got struct{ UploadPhoto json.RawMessage }
	resp.Decode(t, &got)
	return got.UploadPhoto
}
