package main

import (
	"bytes"
	"fmt"
	"image"
	_ "image/jpeg"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/internal/apitest"
	"github.com/quickphotos/quickphotos/media/imaging"
)

// TestServe_UploadAPhotoAsTheREADMEDoes: serve shows the sample's photos with real pictures,
// and takes a file through the README's three steps (createPhotoUpload, the multipart POST to
// /media/, uploadPhoto) for the sample's miawright, then serves its images at signed URLs.
func TestServe_UploadAPhotoAsTheREADMEDoes(t *testing.T) {
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

	file := imaging.Sample("readme", 800, 600)
	var created struct {
		Data struct{ CreatePhotoUpload apitest.UploadForm }
	}
	postJSON(t, base+"/graphql", fmt.Sprintf(`{"query":"mutation { createPhotoUpload(input: {owner: \"miawright\", contentType: \"image/jpeg\", byteSize: %d}) { uploadId url fields { name value } expires maxBytes } }"}`, len(file)), &created)
	form := created.Data.CreatePhotoUpload
	if form.URL != base+"/media/" || form.MaxBytes != len(file) {
		t.Fatalf("form %+v, want a POST to %s/media/ of at most %d bytes", form, base, len(file))
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
	if !strings.HasPrefix(uploaded.Data.UploadPhoto.URL, base+"/media/images/") {
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
