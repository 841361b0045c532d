package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"sync"

	"github.com/quickphotos/quickphotos/media/imaging"
)

// sampleFiles is how many distinct files uploadfile sends: generated once per run (each takes
// a fraction of a second), then drawn at random.
const sampleFiles = 4

var (
	sampleOnce  sync.Once
	sampleBytes [sampleFiles][]byte
)

// sampleFile is the i-th file uploadfile sends: a 1600 × 1200 JPEG (about two megapixels),
// real image bytes the server must decode, orient, resize and encode.
func sampleFile(i int) []byte {
	sampleOnce.Do(func() {
		var wg sync.WaitGroup
		for j := range sampleBytes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sampleBytes[j] = imaging.Sample(fmt.Sprintf("loadtest-%d", j), 1600, 1200)
			}()
		}
		wg.Wait()
	})
	return sampleBytes[i]
}

const (
	createUploadMutation = `mutation CreateUpload($i: CreatePhotoUploadInput!) { createPhotoUpload(input: $i) { uploadId url fields { name value } } }`
	uploadFileMutation   = `mutation UploadFile($i: UploadPhotoInput!) { uploadPhoto(input: $i) { username timestamp image(size: THUMBNAIL) { url } } }`
)

// uploadFile uploads file as photo p the way an app does: createPhotoUpload, the file POSTed
// to the form it returns, uploadPhoto naming the upload. A refusal of any step is the answer.
func uploadFile(ctx context.Context, hc *http.Client, url, token string, p photoRef, file []byte) (answer, error) {
	ans, err := post(ctx, hc, url, token, call{document: createUploadMutation,
		vars: map[string]any{"i": map[string]any{"owner": p.Owner, "contentType": "image/jpeg", "byteSize": len(file)}}})
	if err != nil || ans.code != "" {
		return ans, err
	}
	var created struct {
		CreatePhotoUpload struct {
			UploadID, URL string
			Fields        []struct{ Name, Value string }
		}
	}
	if err := json.Unmarshal(ans.data, &created); err != nil {
		return answer{}, fmt.Errorf("createPhotoUpload: %w", err)
	}
	form := created.CreatePhotoUpload
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for _, f := range form.Fields {
		_ = w.WriteField(f.Name, f.Value)
	}
	part, err := w.CreatePart(map[string][]string{
		"Content-Disposition": {`form-data; name="file"; filename="photo.jpg"`},
		"Content-Type":        {"image/jpeg"},
	})
	if err != nil {
		return answer{}, err
	}
	_, _ = part.Write(file)
	_ = w.Close()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, form.URL, &body)
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	resp, err := hc.Do(req)
	if err != nil {
		return answer{}, err
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return answer{}, fmt.Errorf("POST the file: HTTP %d: %.200s", resp.StatusCode, strings.TrimSpace(string(raw)))
	}
	return post(ctx, hc, url, token, call{document: uploadFileMutation,
		vars: map[string]any{"i": map[string]any{"owner": p.Owner, "timestamp": p.Timestamp, "upload": form.UploadID}}})
}
