package api_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	_ "image/jpeg"
	"image/png"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/internal/testkit/versitygw"
	"github.com/quickphotos/quickphotos/media"
	"github.com/quickphotos/quickphotos/media/blob"
	"github.com/quickphotos/quickphotos/media/imaging"
)

// photoImages selects every size of an uploaded photo.
const photoImages = `{ timestamp url
	thumbnail: image(size: THUMBNAIL) { url width height }
	display: image { url width height }
	original: image(size: ORIGINAL) { url width height } }`

type imageAnswer struct {
	URL           string
	Width, Height int
}

type uploadedPhoto struct {
	Timestamp, URL               string
	Thumbnail, Display, Original *imageAnswer
}

// withEXIF returns a JPEG with an APP1 Exif segment (orientation 6: turn 90° clockwise to
// show it upright) and a comment holding a camera serial, right after its SOI marker.
func withEXIF(t *testing.T, jpg []byte) []byte {
	t.Helper()
	tiff := []byte("MM\x00\x2a\x00\x00\x00\x08" + // big-endian TIFF, IFD0 at 8
		"\x00\x01" + // one entry
		"\x01\x12\x00\x03\x00\x00\x00\x01\x00\x06\x00\x00" + // Orientation SHORT 1 = 6
		"\x00\x00\x00\x00") // no next IFD
	app1 := append([]byte("Exif\x00\x00"), tiff...)
	comment := []byte("camera-serial-SN0123456789 GPS 52.5200N 13.4050E")
	var out bytes.Buffer
	out.Write(jpg[:2])
	for _, seg := range []struct {
		marker byte
		data   []byte
	}{{0xE1, app1}, {0xFE, comment}} {
		out.Write([]byte{0xFF, seg.marker})
		_ = binary.Write(&out, binary.BigEndian, uint16(len(seg.data)+2))
		out.Write(seg.data)
	}
	out.Write(jpg[2:])
	return out.Bytes()
}

// pngClaiming is a PNG signature and an IHDR chunk claiming w × h pixels, and no pixels.
func pngClaiming(w, h uint32) []byte {
	var out bytes.Buffer
	out.Write([]byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'})
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	_ = binary.Write(&out, binary.BigEndian, uint32(len(ihdr)))
	chunk := append([]byte("IHDR"), ihdr...)
	out.Write(chunk)
	_ = binary.Write(&out, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return out.Bytes()
}

// get fetches url and returns its status, headers and body.
func get(t *testing.T, url string) (int, http.Header, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}

func imageKeys(keys []string) []string {
	var out []string
	for _, k := range keys {
		if strings.HasPrefix(k, "images/") {
			out = append(out, k)
		}
	}
	return out
}

// alicePhotos returns the timestamps of alice's photos.
func alicePhotos(t *testing.T, srv *apitest.Server) []string {
	t.Helper()
	var got struct {
		User struct {
			Photos struct {
				Edges []struct{ Node struct{ Timestamp string } }
			}
		}
	}
	srv.Query(t, `{ user(username: "alice") { photos { edges { node { timestamp } } } } }`, nil).Decode(t, &got)
	var ts []string
	for _, e := range got.User.Photos.Edges {
		ts = append(ts, e.Node.Timestamp)
	}
	return ts
}

func TestPhotoUploadFlow(t *testing.T) {
	onBothStores(t, func(t *testing.T, srv *apitest.Server, embedded bool) { uploadFlow(t, srv, embedded) })
}

// onBothStores runs check against a signed-in server whose photo files are on the embedded
// store, then on S3 (versitygw, which checks signatures and POST policies as S3 does).
func onBothStores(t *testing.T, check func(t *testing.T, srv *apitest.Server, embedded bool)) {
	t.Run("Embedded", func(t *testing.T) {
		check(t, apitest.NewServer(t, apitest.WithAuth(), apitest.WithMedia(media.Config{})), true)
	})
	t.Run("S3", func(t *testing.T) {
		gw := versitygw.Start(t)
		bucket := gw.CreateBucket(t, "photos")
		check(t, apitest.NewServer(t, apitest.WithAuth(), apitest.WithMediaStore(media.Config{}, func(testing.TB) blob.Store {
			return blob.NewS3Store(gw.Client(), bucket, "quickphotos/")
		})), false)
	})
}

// uploadFlow is the life of an uploaded photo: createPhotoUpload, the file POSTed to the form
// as a browser does, uploadPhoto(upload:), every size read back through its signed URL without
// the file's metadata, deletePhoto, and the images gone once the stream consumer ran.
func uploadFlow(t *testing.T, srv *apitest.Server, embedded bool) {
	srv.MustCreateUser(t, "alice")
	file := withEXIF(t, imaging.Sample("alice#1", 1600, 1200))

	raw := srv.MustUploadFile(t, "alice", "2024-05-01T10:00:00Z", "image/jpeg", file, photoImages)
	var p uploadedPhoto
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	if p.Display == nil || p.URL != p.Display.URL {
		t.Fatalf("url %q, want the display size's %+v", p.URL, p.Display)
	}
	// The EXIF orientation turns the 1600 × 1200 file upright: 1200 × 1600.
	for _, tc := range []struct {
		name   string
		img    *imageAnswer
		fitsIn int
	}{{"thumbnail", p.Thumbnail, 320}, {"display", p.Display, 1280}, {"original", p.Original, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.img == nil {
				t.Fatal("no image")
			}
			w, h := 1200, 1600
			if tc.fitsIn > 0 {
				w, h = tc.fitsIn*3/4, tc.fitsIn
			}
			if tc.img.Width != w || tc.img.Height != h {
				t.Fatalf("answered %d × %d, want %d × %d", tc.img.Width, tc.img.Height, w, h)
			}
			status, header, body := get(t, tc.img.URL)
			if status != http.StatusOK {
				t.Fatalf("GET: %d %s", status, body)
			}
			cfg, format, err := image.DecodeConfig(bytes.NewReader(body))
			if err != nil || cfg.Width != w || cfg.Height != h {
				t.Fatalf("served %s %d × %d (%v), want %d × %d", format, cfg.Width, cfg.Height, err, w, h)
			}
			for _, leak := range []string{"Exif", "camera-serial", "GPS"} {
				if bytes.Contains(body, []byte(leak)) {
					t.Errorf("served image holds %q", leak)
				}
			}
			if header.Get("ETag") == "" || header.Get("Content-Type") != "image/jpeg" {
				t.Errorf("headers %v", header)
			}
			if embedded && (header.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(header.Get("Cache-Control"), "immutable")) {
				t.Errorf("headers %v", header)
			}
		})
	}
	if keys := srv.Objects(t); len(keys) != 3 || len(imageKeys(keys)) != 3 {
		t.Fatalf("store holds %v, want the three images and no staged file", keys)
	}

	// A forged or altered image URL is refused.
	sig := "signature="
	if !embedded {
		sig = "X-Amz-Signature="
	}
	forged := strings.Replace(p.Original.URL, sig, sig+"0", 1)
	if forged == p.Original.URL {
		t.Fatalf("no %s in %s", sig, p.Original.URL)
	}
	if status, _, _ := get(t, forged); status != http.StatusForbidden {
		t.Errorf("altered signature: status %d, want 403", status)
	}
	other := strings.Replace(p.Original.URL, imageKeys(srv.Objects(t))[0], imageKeys(srv.Objects(t))[1], 1)
	if other != p.Original.URL {
		if status, _, _ := get(t, other); status != http.StatusForbidden {
			t.Errorf("URL signed for another key: status %d, want 403", status)
		}
	}

	resp := srv.As(t, "alice").Query(t, `mutation { deletePhoto(owner: "alice", timestamp: "2024-05-01T10:00:00") { timestamp } }`, nil)
	resp.Decode(t, &struct{}{})
	apitest.Eventually(t, "the deleted photo's images are gone", func() (bool, string) {
		keys := srv.Objects(t)
		return len(keys) == 0, strings.Join(keys, " ")
	})
	if status, _, _ := get(t, p.Display.URL); status != http.StatusNotFound {
		t.Errorf("GET a deleted photo's image: %d, want 404", status)
	}
	srv.MustBeConsistent(t)
}

func TestCreatePhotoUpload(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithAuth(), apitest.WithMedia(media.Config{MaxBytes: 1 << 20}))
	srv.MustCreateUsers(t, "alice", "bob")
	for name, tc := range map[string]struct {
		as   string
		in   map[string]any
		code string
	}{
		"ErrOverLimit":      {"alice", map[string]any{"owner": "alice", "contentType": "image/jpeg", "byteSize": 1<<20 + 1}, "BAD_USER_INPUT"},
		"ErrEmpty":          {"alice", map[string]any{"owner": "alice", "contentType": "image/jpeg", "byteSize": 0}, "BAD_USER_INPUT"},
		"ErrSVG":            {"alice", map[string]any{"owner": "alice", "contentType": "image/svg+xml", "byteSize": 100}, "BAD_USER_INPUT"},
		"ErrAnotherUser":    {"bob", map[string]any{"owner": "alice", "contentType": "image/jpeg", "byteSize": 100}, "FORBIDDEN"},
		"ErrOwnerWithSlash": {"alice", map[string]any{"owner": "a/b", "contentType": "image/jpeg", "byteSize": 100}, "FORBIDDEN"},
		"ErrTypeWithParams": {"alice", map[string]any{"owner": "alice", "contentType": "image/jpeg; x=1", "byteSize": 100}, "BAD_USER_INPUT"},
	} {
		t.Run(name, func(t *testing.T) {
			if got := srv.As(t, tc.as).Query(t, apitest.CreatePhotoUpload, map[string]any{"in": tc.in}).Code(); got != tc.code {
				t.Fatalf("code %q, want %q", got, tc.code)
			}
		})
	}
	if got := srv.Query(t, apitest.CreatePhotoUpload, map[string]any{"in": map[string]any{"owner": "alice", "contentType": "image/jpeg", "byteSize": 100}}).Code(); got != "UNAUTHENTICATED" {
		t.Errorf("without a token: %q", got)
	}
	uploads, err := srv.Store.ExpiredUploads(context.Background(), time.Now().Add(time.Hour))
	if err != nil || len(uploads) != 0 {
		t.Fatalf("refused uploads left records %v (%v)", uploads, err)
	}
	if keys := srv.Objects(t); len(keys) != 0 {
		t.Fatalf("refused uploads left %v", keys)
	}
}

func TestUploadPhotoFromUploadRefusals(t *testing.T) {
	clock := newTestClock(time.Now())
	srv := apitest.NewServer(t, apitest.WithAuth(), apitest.WithMedia(media.Config{Now: clock.Now, MaxPixels: 40_000_000}))
	srv.MustCreateUsers(t, "alice", "bob")
	jpg := imaging.Sample("refusals", 64, 48)
	var png bytes.Buffer
	{
		img, _, err := image.Decode(bytes.NewReader(jpg))
		if err != nil {
			t.Fatal(err)
		}
		png.Write(encodePNG(t, img))
	}
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>`)
	finish := func(as, owner, upload string) *apitest.Response {
		return srv.As(t, as).Query(t, `mutation($in: UploadPhotoInput!) { uploadPhoto(input: $in) { timestamp } }`,
			map[string]any{"in": map[string]any{"owner": owner, "upload": upload}})
	}

	for name, tc := range map[string]struct {
		declared string
		file     []byte
		code     string
		msg      string
	}{
		"ErrNotAnImage":      {"image/png", []byte("just some text, not an image at all"), "BAD_USER_INPUT", "not a JPEG"},
		"ErrTruncatedJPEG":   {"image/jpeg", jpg[:len(jpg)/2], "BAD_USER_INPUT", ""},
		"ErrPixelBomb":       {"image/png", pngClaiming(100_000, 100_000), "BAD_USER_INPUT", "pixels"},
		"ErrSVG":             {"image/png", svg, "BAD_USER_INPUT", "SVG"},
		"ErrTypeNotDeclared": {"image/jpeg", png.Bytes(), "BAD_USER_INPUT", "declared"},
	} {
		t.Run(name, func(t *testing.T) {
			form := srv.MustCreatePhotoUpload(t, "alice", tc.declared, len(tc.file))
			apitest.MustPostFile(t, form, tc.declared, tc.file)
			resp := finish("alice", "alice", form.UploadID)
			if resp.Code() != tc.code || !strings.Contains(resp.Errors[0].Message, tc.msg) {
				t.Fatalf("got %+v, want %s mentioning %q", resp.Errors, tc.code, tc.msg)
			}
		})
	}

	t.Run("ErrLargerThanDeclared", func(t *testing.T) {
		form := srv.MustCreatePhotoUpload(t, "alice", "image/jpeg", len(jpg)-1)
		if status, body := apitest.PostFile(t, form, "image/jpeg", jpg); status/100 == 2 {
			t.Fatalf("the store took a file larger than declared: %d %s", status, body)
		}
		if resp := finish("alice", "alice", form.UploadID); resp.Code() != "BAD_USER_INPUT" || !strings.Contains(resp.Errors[0].Message, "no file was sent") {
			t.Fatalf("got %+v", resp.Errors)
		}
	})
	t.Run("ErrNothingSent", func(t *testing.T) {
		form := srv.MustCreatePhotoUpload(t, "alice", "image/jpeg", len(jpg))
		if resp := finish("alice", "alice", form.UploadID); resp.Code() != "BAD_USER_INPUT" {
			t.Fatalf("got %+v", resp.Errors)
		}
	})
	t.Run("ErrBadUploadID", func(t *testing.T) {
		for _, id := range []string{"..", "../staging/x", "a/b", strings.Repeat("A", 32), "", "x"} {
			if resp := finish("alice", "alice", id); resp.Code() != "BAD_USER_INPUT" {
				t.Errorf("upload %q: %+v", id, resp.Errors)
			}
		}
	})
	t.Run("ErrURLAndUpload", func(t *testing.T) {
		resp := srv.As(t, "alice").Query(t, `mutation($in: UploadPhotoInput!) { uploadPhoto(input: $in) { timestamp } }`,
			map[string]any{"in": map[string]any{"owner": "alice", "upload": strings.Repeat("a", 32), "url": "https://cdn.example.com/x.jpg"}})
		if resp.Code() != "BAD_USER_INPUT" {
			t.Fatalf("got %+v", resp.Errors)
		}
	})
	t.Run("ErrAnotherUsersUpload", func(t *testing.T) {
		form := srv.MustCreatePhotoUpload(t, "alice", "image/jpeg", len(jpg))
		apitest.MustPostFile(t, form, "image/jpeg", jpg)
		if resp := finish("bob", "bob", form.UploadID); resp.Code() != "NOT_FOUND" {
			t.Fatalf("bob finishing alice's upload: %+v", resp.Errors)
		}
		if resp := finish("bob", "alice", form.UploadID); resp.Code() != "FORBIDDEN" {
			t.Fatalf("bob finishing as alice: %+v", resp.Errors)
		}
	})
	t.Run("ErrUsedTwice", func(t *testing.T) {
		form := srv.MustCreatePhotoUpload(t, "alice", "image/jpeg", len(jpg))
		apitest.MustPostFile(t, form, "image/jpeg", jpg)
		if resp := finish("alice", "alice", form.UploadID); resp.Code() != "" {
			t.Fatalf("first use: %+v", resp.Errors)
		}
		if resp := finish("alice", "alice", form.UploadID); resp.Code() != "CONFLICT" {
			t.Fatalf("second use: %+v", resp.Errors)
		}
	})
	t.Run("ErrRacing", func(t *testing.T) {
		form := srv.MustCreatePhotoUpload(t, "alice", "image/jpeg", len(jpg))
		apitest.MustPostFile(t, form, "image/jpeg", jpg)
		before := len(alicePhotos(t, srv))
		codes := make([]string, 4)
		var wg sync.WaitGroup
		for i := range codes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				resp := srv.As(t, "alice").Query(t, `mutation($in: UploadPhotoInput!) { uploadPhoto(input: $in) { timestamp } }`,
					map[string]any{"in": map[string]any{"owner": "alice", "upload": form.UploadID, "timestamp": time.Date(2020, 1, 1, 0, 0, i, 0, time.UTC).Format(time.RFC3339)}})
				codes[i] = resp.Code()
			}()
		}
		wg.Wait()
		won := 0
		for _, c := range codes {
			switch c {
			case "":
				won++
			case "CONFLICT":
			default:
				t.Errorf("a racing uploadPhoto answered %q", c)
			}
		}
		if won != 1 || len(alicePhotos(t, srv)) != before+1 {
			t.Fatalf("%d of the racing calls won (%v); alice has %d photos, had %d", won, codes, len(alicePhotos(t, srv)), before)
		}
	})
	t.Run("ErrExpired", func(t *testing.T) {
		form := srv.MustCreatePhotoUpload(t, "alice", "image/jpeg", len(jpg))
		apitest.MustPostFile(t, form, "image/jpeg", jpg)
		clock.Advance(media.DefaultUploadLifetime)
		if resp := finish("alice", "alice", form.UploadID); resp.Code() != "BAD_USER_INPUT" || !strings.Contains(resp.Errors[0].Message, "expired") {
			t.Fatalf("got %+v", resp.Errors)
		}
	})

	// Two photos were made (ErrUsedTwice, ErrRacing); the refusals wrote none.
	if n := len(alicePhotos(t, srv)); n != 2 {
		t.Fatalf("alice has %d photos, want 2", n)
	}
	srv.MustBeConsistent(t)
	// The sweeper removes whatever the refused uploads left, and nothing of the photos.
	clock.Advance(media.DefaultUploadLifetime + media.SweepGrace + time.Second)
	if _, err := srv.Media.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	keys := srv.Objects(t)
	uploads := map[string]bool{}
	for _, k := range imageKeys(keys) {
		uploads[strings.Split(k, "/")[1]] = true
	}
	// (The sample is smaller than a thumbnail, so its three sizes are one object.)
	if len(imageKeys(keys)) != len(keys) || len(uploads) != 2 {
		t.Fatalf("after the sweep the store holds %v, want the two photos' images alone", keys)
	}
	if uploads, err := srv.Store.ExpiredUploads(context.Background(), clock.Now().Add(time.Hour)); err != nil || len(uploads) != 0 {
		t.Fatalf("after the sweep %d upload records remain (%v)", len(uploads), err)
	}
}

func encodePNG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := pngEncode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

var pngEncode = png.Encode

// TestUploadFormRefusedWhenAltered: on either store, a form with any field altered, its key
// climbing out of the staging prefix, or a field added, takes no file.
func TestUploadFormRefusedWhenAltered(t *testing.T) {
	onBothStores(t, func(t *testing.T, srv *apitest.Server, _ bool) { alteredForms(t, srv) })
}

func alteredForms(t *testing.T, srv *apitest.Server) {
	srv.MustCreateUser(t, "alice")
	jpg := imaging.Sample("altered", 64, 48)
	form := srv.MustCreatePhotoUpload(t, "alice", "image/jpeg", len(jpg))
	fieldsOf := func() map[string]string {
		fields := map[string]string{}
		for _, f := range form.Fields {
			fields[f.Name] = f.Value
		}
		return fields
	}
	var changes []struct{ field, value string }
	for name, value := range fieldsOf() {
		altered := value[:len(value)-1] + string(rune('A'+(value[len(value)-1]+1)%26))
		changes = append(changes, struct{ field, value string }{name, altered})
	}
	changes = append(changes,
		struct{ field, value string }{"key", "staging/../images/x"},
		struct{ field, value string }{"key", "images/" + form.UploadID + "/x.jpg"},
		struct{ field, value string }{"Content-Type", "image/svg+xml"},
		struct{ field, value string }{"x-amz-meta-extra", "1"},
	)
	for _, change := range changes {
		fields := fieldsOf()
		fields[change.field] = change.value
		if status, body := apitest.PostForm(t, form.URL, fields, "image/jpeg", jpg); status/100 == 2 {
			t.Errorf("%s altered to %q: the store took it: %d %s", change.field, change.value, status, body)
		}
	}
	if keys := srv.Objects(t); len(keys) != 0 {
		t.Fatalf("refused forms stored %v", keys)
	}
	// The form itself, unaltered, works.
	apitest.MustPostFile(t, form, "image/jpeg", jpg)
}
