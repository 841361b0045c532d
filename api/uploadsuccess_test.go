package api_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"sort"
	"testing"

	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/media/imaging"
)

// TestPhotoUpload_APlainFormLearnsItFinished: a page without JavaScript posts the upload form
// itself, and a 204 leaves the browser where it was. createPhotoUpload's successActionRedirect
// makes the store send it on to the app's page (303, the upload's key and ETag in the query),
// and successActionStatus 201 answers with S3's PostResponse, the same from either store; the
// upload then makes a photo as any other.
func TestPhotoUpload_APlainFormLearnsItFinished(t *testing.T) {
	onBothStores(t, func(t *testing.T, srv *apitest.Server, _ bool) { formAnswers(t, srv) })
}

func formAnswers(t *testing.T, srv *apitest.Server) {
	srv.MustCreateUser(t, "alice")
	alice := srv.As(t, "alice")
	file := imaging.Sample("alice#form", 64, 48)
	create := func(t *testing.T, extra map[string]any) apitest.UploadForm {
		t.Helper()
		in := map[string]any{"owner": "alice", "contentType": "image/jpeg", "byteSize": len(file)}
		for k, v := range extra {
			in[k] = v
		}
		var got struct{ CreatePhotoUpload apitest.UploadForm }
		alice.Query(t, apitest.CreatePhotoUpload, map[string]any{"in": in}).Decode(t, &got)
		return got.CreatePhotoUpload
	}

	t.Run("Redirect", func(t *testing.T) {
		form := create(t, map[string]any{"successActionRedirect": "https://app.example.com/uploaded?step=2"})
		resp, _ := postUnfollowed(t, form, file, nil)
		loc, err := url.Parse(resp.Header.Get("Location"))
		if resp.StatusCode != http.StatusSeeOther || err != nil || loc.Host != "app.example.com" || loc.Path != "/uploaded" {
			t.Fatalf("answered %d, Location %q: want 303 to the app's page", resp.StatusCode, resp.Header.Get("Location"))
		}
		if q := loc.Query(); q.Get("step") != "2" || q.Get("key") == "" || q.Get("etag") == "" || !q.Has("bucket") {
			t.Errorf("redirected to %s: want its own query with bucket, key and etag", loc)
		}
		uploadPhotoFrom(t, alice, form, apitest.Timestamp(1))
	})
	t.Run("Status201", func(t *testing.T) {
		form := create(t, map[string]any{"successActionStatus": 201})
		resp, body := postUnfollowed(t, form, file, nil)
		var r struct {
			XMLName   xml.Name `xml:"PostResponse"`
			Key, ETag string
		}
		if resp.StatusCode != http.StatusCreated || xml.Unmarshal(body, &r) != nil || r.Key == "" || r.ETag == "" {
			t.Fatalf("answered %d %s: want 201 with a PostResponse naming the key and ETag", resp.StatusCode, body)
		}
		uploadPhotoFrom(t, alice, form, apitest.Timestamp(2))
	})
	t.Run("Unasked", func(t *testing.T) {
		form := create(t, nil)
		if resp, body := postUnfollowed(t, form, file, nil); resp.StatusCode != http.StatusNoContent || len(body) != 0 {
			t.Fatalf("answered %d %s: want 204 with no body", resp.StatusCode, body)
		}
	})
	for name, extra := range map[string]map[string]any{
		"ErrStatus204":       {"successActionStatus": 204},
		"ErrStatus302":       {"successActionStatus": 302},
		"ErrRelativeURL":     {"successActionRedirect": "/uploaded"},
		"ErrScriptURL":       {"successActionRedirect": "javascript:alert(1)"},
		"ErrBidiControlsURL": {"successActionRedirect": "https://app.example.com/\u202egpj.exe"},
	} {
		t.Run(name, func(t *testing.T) {
			in := map[string]any{"owner": "alice", "contentType": "image/jpeg", "byteSize": len(file)}
			for k, v := range extra {
				in[k] = v
			}
			if got := alice.Query(t, apitest.CreatePhotoUpload, map[string]any{"in": in}).Code(); got != "BAD_USER_INPUT" {
				t.Errorf("code %q, want BAD_USER_INPUT", got)
			}
		})
	}
}

// uploadPhotoFrom makes a photo of the upload form's file, failing the test unless it does.
func uploadPhotoFrom(t *testing.T, as *apitest.Server, form apitest.UploadForm, timestamp string) {
	t.Helper()
	resp := as.Query(t, `mutation($in: UploadPhotoInput!) { uploadPhoto(input: $in) { timestamp } }`,
		map[string]any{"in": map[string]any{"owner": "alice", "upload": form.UploadID, "timestamp": timestamp}})
	if len(resp.Errors) > 0 {
		t.Fatalf("uploadPhoto of the posted form: %+v", resp.Errors)
	}
}

// postUnfollowed posts the file to the form as a browser's form does, with header, and returns
// the answer as sent: a redirect is not followed (its page is the app's, and no test leaves the
// machine).
func postUnfollowed(t *testing.T, form apitest.UploadForm, file []byte, header http.Header) (*http.Response, []byte) {
	t.Helper()
	sort.Slice(form.Fields, func(i, j int) bool { return form.Fields[i].Name < form.Fields[j].Name })
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for _, f := range form.Fields {
		if err := w.WriteField(f.Name, f.Value); err != nil {
			t.Fatal(err)
		}
	}
	part, err := w.CreatePart(map[string][]string{
		"Content-Disposition": {`form-data; name="file"; filename="photo.jpg"`},
		"Content-Type":        {"image/jpeg"},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, _ = part.Write(file)
	_ = w.Close()
	req, err := http.NewRequest(http.MethodPost, form.URL, &body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", form.URL, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}
