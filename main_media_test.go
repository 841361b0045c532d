package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	_ "image/jpeg"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/internal/testkit/versitygw"
	"github.com/quickphotos/quickphotos/media/imaging"
)

// TestServe_UploadAPhotoAsTheDocsDo: serve shows the sample's photos with real pictures, and
// takes a file through the three steps of docs/uploads.md (createPhotoUpload, the multipart POST
// to /media/, uploadPhoto) for the sample's miawright, then serves its images at signed URLs.
func TestServe_UploadAPhotoAsTheDocsDo(t *testing.T) {
	base := startServe(t, "--data", filepath.Join(t.TempDir(), "db"), "--sample", "--addr", "127.0.0.1:0")

	var sample struct {
		Data struct {
			User struct {
				Photos struct {
					Edges []struct {
						Node struct{ Image struct{ URL string } }
					}
				}
			}
		}
	}
	postJSON(t, base+"/graphql", `{"query":"{ user(username: \"miawright\") { photos(first: 1) { edges { node { image { url } } } } } }"}`, &sample)
	if len(sample.Data.User.Photos.Edges) == 0 {
		t.Fatal("the sample's miawright has no photos")
	}
	mustGetImage(t, sample.Data.User.Photos.Edges[0].Node.Image.URL, 640, 480)

	uploadThroughServe(t, base, base+"/media/")
}

// uploadThroughServe takes a file through the three steps of docs/uploads.md for the sample's
// miawright, reads its images back at their signed URLs, deletes the photo and waits for its
// images to go. formURL is where the form must send the file.
func uploadThroughServe(t *testing.T, base, formURL string) {
	t.Helper()
	file := imaging.Sample("readme", 800, 600)
	var created struct {
		Data struct{ CreatePhotoUpload apitest.UploadForm }
	}
	postJSON(t, base+"/graphql", fmt.Sprintf(`{"query":"mutation { createPhotoUpload(input: {owner: \"miawright\", contentType: \"image/jpeg\", byteSize: %d}) { uploadId url fields { name value } expires maxBytes } }"}`, len(file)), &created)
	form := created.Data.CreatePhotoUpload
	if form.URL != formURL || form.MaxBytes != len(file) {
		t.Fatalf("form %+v, want a POST to %s of at most %d bytes", form, formURL, len(file))
	}
	apitest.MustPostFile(t, form, "image/jpeg", file)
	var uploaded struct {
		Data struct {
			UploadPhoto struct {
				Timestamp string
				URL       string
				Image     struct {
					URL           string
					Width, Height int
				}
			}
		}
		Errors []struct{ Message string }
	}
	postJSON(t, base+"/graphql", fmt.Sprintf(`{"query":"mutation { uploadPhoto(input: {owner: \"miawright\", upload: \"%s\"}) { timestamp url image(size: THUMBNAIL) { url width height } } }"}`, form.UploadID), &uploaded)
	if len(uploaded.Errors) > 0 {
		t.Fatalf("uploadPhoto: %+v", uploaded.Errors)
	}
	mustGetImage(t, uploaded.Data.UploadPhoto.Image.URL, 320, 240)
	mustGetImage(t, uploaded.Data.UploadPhoto.URL, 800, 600)
	if !strings.HasPrefix(uploaded.Data.UploadPhoto.URL, strings.TrimSuffix(formURL, "/")+"/") || !strings.Contains(uploaded.Data.UploadPhoto.URL, "images/") {
		t.Errorf("url %q", uploaded.Data.UploadPhoto.URL)
	}

	// Deleted, the photo's images go once the stream's consumer has seen the delete.
	var deleted struct {
		Data struct{ DeletePhoto struct{ Timestamp string } }
	}
	postJSON(t, base+"/graphql", fmt.Sprintf(`{"query":"mutation { deletePhoto(owner: \"miawright\", timestamp: \"%s\") { timestamp } }"}`, uploaded.Data.UploadPhoto.Timestamp), &deleted)
	if deleted.Data.DeletePhoto.Timestamp == "" {
		t.Fatal("deletePhoto deleted nothing")
	}
	// The feed's consumer works through the sample's load first (its fan-out), so the
	// wait is bounded generously.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get(uploaded.Data.UploadPhoto.URL)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusNotFound {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the deleted photo's display image still answers %s", resp.Status)
		}
	}
}

// mustGetImage GETs url and checks it serves an image of w × h.
func mustGetImage(t *testing.T, url string, w, h int) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, body)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(body))
	if err != nil || cfg.Width != w || cfg.Height != h {
		t.Fatalf("GET %s: %d × %d (%v), want %d × %d", url, cfg.Width, cfg.Height, err, w, h)
	}
}

// TestServe_MediaOnS3: serve --media-store s3 keeps the sample's pictures and uploads in an S3
// bucket (versitygw, which checks signatures and POST policies), reached with the AWS SDK's
// configuration from the environment.
func TestServe_MediaOnS3(t *testing.T) {
	gw := versitygw.Start(t)
	bucket := gw.CreateBucket(t, "photos")
	t.Setenv("AWS_ACCESS_KEY_ID", gw.AccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", gw.SecretKey)
	t.Setenv("AWS_REGION", versitygw.Region)
	base := startServe(t, "--in-memory", "--sample", "--addr", "127.0.0.1:0",
		"--media-store", "s3", "--media-bucket", bucket, "--media-prefix", "qp/", "--media-endpoint-url", gw.Endpoint)
	uploadThroughServe(t, base, gw.Endpoint+"/"+bucket)
	var keys []string
	out, err := gw.Client().ListObjectsV2(context.Background(), &s3.ListObjectsV2Input{Bucket: aws.String(bucket)})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range out.Contents {
		if !strings.HasPrefix(aws.ToString(o.Key), "qp/images/sample/") {
			keys = append(keys, aws.ToString(o.Key))
		}
	}
	if len(keys) != 0 {
		t.Fatalf("the bucket holds %v besides the sample's pictures", keys)
	}
}

// TestServe_MediaFlags: serve refuses media flags that cannot work together, naming them.
func TestServe_MediaFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--media-store", "ftp"}, "--media-store"},
		{[]string{"--media-store", "s3"}, "--media-bucket"},
		{[]string{"--media-store", "s3", "--media-bucket", "b", "--media-prefix", "qp"}, "--media-prefix"},
		{[]string{"--media-bucket", "b"}, "--media-store s3"},
		{[]string{"--media-max-bytes", "0"}, "--media-max-bytes"},
		{[]string{"--media-url-lifetime", "10d"}, "media-url-lifetime"},
		{[]string{"--media-url-lifetime", "100h"}, "URL lifetime"},
	} {
		err := run(context.Background(), append([]string{"serve", "--in-memory", "--addr", "127.0.0.1:0"}, tc.args...), io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%v: err %v, want one naming %s", tc.args, err, tc.says)
		}
	}
}
