package dynamo

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/domain"
)

// TestUploadPhotoFrom_RacingCallsOneWins: calls that all read the upload unused race to make a
// photo of it; the condition on the upload's record lets exactly one through, the others get
// Conflict, and only that one photo exists.
func TestUploadPhotoFrom_RacingCallsOneWins(t *testing.T) {
	ctx := context.Background()
	_, s := embedded(t)
	if _, err := s.CreateUser(ctx, "ada", domain.Profile{}); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	u := domain.Upload{ID: "0123456789abcdef0123456789abcdef", Owner: "ada", ContentType: "image/jpeg", Bytes: 100, Expires: now.Add(time.Minute).Truncate(time.Second)}
	if err := s.CreateUpload(ctx, u); err != nil {
		t.Fatal(err)
	}
	images := domain.Images{domain.ImageOriginal: {Key: "images/" + u.ID + "/a.jpg", Width: 4, Height: 3, ContentType: "image/jpeg"}}
	errs := make([]error, 8)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := domain.Photo{Owner: "ada", Timestamp: fmt.Sprintf("2024-05-01T10:00:%02d", i), Images: images, Width: 4, Height: 3}
			_, errs[i] = s.UploadPhotoFrom(ctx, p, u, now)
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch domain.ErrorCode(err) {
		case "":
			won++
		case domain.Conflict:
		default:
			t.Errorf("a racing call failed with %v", err)
		}
	}
	page, err := s.ListPhotos(ctx, "ada", domain.PageRequest{First: 20})
	if err != nil {
		t.Fatal(err)
	}
	if won != 1 || len(page.Items) != 1 {
		t.Fatalf("%d calls won, ada has %d photos; want 1 and 1", won, len(page.Items))
	}
	got := page.Items[0]
	if got.Upload != u.ID || got.Width != 4 || got.Images[domain.ImageOriginal] != images[domain.ImageOriginal] {
		t.Fatalf("stored photo %+v", got)
	}
	// The record names the winner, whose images the sweep keeps.
	if rec, err := s.GetUpload(ctx, u.ID); err != nil || !rec.Used || rec.PhotoTimestamp != got.Timestamp {
		t.Fatalf("upload record %+v (%v): want used by the photo at %s", rec, err, got.Timestamp)
	}
}

// TestUploadPhotoFrom_Refusals: the record's condition says why an upload may not be used.
func TestUploadPhotoFrom_Refusals(t *testing.T) {
	ctx := context.Background()
	_, s := embedded(t)
	if _, err := s.CreateUser(ctx, "ada", domain.Profile{}); err != nil {
		t.Fatal(err)
	}
	now := time.Now().Truncate(time.Second)
	for name, tc := range map[string]struct {
		upload domain.Upload
		owner  string
		at     time.Time
		code   domain.Code
	}{
		"ErrExpired":      {domain.Upload{Owner: "ada", Expires: now}, "ada", now, domain.Invalid},
		"ErrAnotherUsers": {domain.Upload{Owner: "bob", Expires: now.Add(time.Minute)}, "ada", now, domain.NotFound},
		"ErrUsed":         {domain.Upload{Owner: "ada", Expires: now.Add(time.Minute), Used: true}, "ada", now, domain.Conflict},
	} {
		t.Run(name, func(t *testing.T) {
			u := tc.upload
			u.ID, u.ContentType, u.Bytes = fmt.Sprintf("%032x", len(name)), "image/png", 1
			if err := s.CreateUpload(ctx, u); err != nil {
				t.Fatal(err)
			}
			// The call is given the upload as usable, as a Finish that read it a moment
			// before would: the transaction's condition alone refuses it.
			usable := u
			usable.Owner, usable.Used, usable.Expires = tc.owner, false, now.Add(time.Hour)
			p := domain.Photo{Owner: tc.owner, Timestamp: "2024-05-01T10:00:00", Images: domain.Images{}}
			_, err := s.UploadPhotoFrom(ctx, p, usable, tc.at)
			if got := domain.ErrorCode(err); got != tc.code {
				t.Fatalf("got %v (%s), want %s", err, got, tc.code)
			}
		})
	}
	page, err := s.ListPhotos(ctx, "ada", domain.PageRequest{First: 20})
	if err != nil || len(page.Items) != 0 {
		t.Fatalf("refused uploads made photos: %+v %v", page.Items, err)
	}
}

// TestUploadItems_RoundTrip: an uploaded photo keeps its images, dimensions and upload, and an
// upload record every field, through their items.
func TestUploadItems_RoundTrip(t *testing.T) {
	p := domain.Photo{Owner: "ada", Timestamp: "2019-03-03T18:20:10", Width: 1200, Height: 1600, Upload: "0123456789abcdef0123456789abcdef",
		Reactions: domain.ReactionCounts{domain.ReactionHeart: 0, domain.ReactionThumbsUp: 0, domain.ReactionSmiley: 0, domain.ReactionSunglasses: 0},
		Images: domain.Images{
			domain.ImageThumbnail: {Key: "images/0123456789abcdef0123456789abcdef/aa.jpg", Width: 240, Height: 320, ContentType: "image/jpeg"},
			domain.ImageDisplay:   {Key: "images/0123456789abcdef0123456789abcdef/bb.jpg", Width: 960, Height: 1280, ContentType: "image/jpeg"},
			domain.ImageOriginal:  {Key: "images/0123456789abcdef0123456789abcdef/cc.png", Width: 1200, Height: 1600, ContentType: "image/png"},
		}}
	item := photoItem(p)
	if _, ok := item[attrLocation]; ok {
		t.Errorf("an uploaded photo's item has a location: %v", item[attrLocation])
	}
	if got, err := photoFromItem(item); err != nil || !reflect.DeepEqual(got, p) {
		t.Errorf("photo round-trips to %+v, %v", got, err)
	}
	u := domain.Upload{ID: p.Upload, Owner: "ada", ContentType: "image/png", Bytes: 12345, Expires: time.Unix(1_800_000_000, 0).UTC(), Used: true, PhotoTimestamp: p.Timestamp}
	if got, err := uploadFromItem(uploadItem(u)); err != nil || got != u {
		t.Errorf("upload round-trips to %+v, %v", got, err)
	}
	if ttl := getInt(uploadItem(u), attrExpiresAt); int64(ttl) != u.Expires.Add(UploadRetention).Unix() {
		t.Errorf("TTL %d, want the expiry plus %s", ttl, UploadRetention)
	}
	bad := uploadItem(u)
	delete(bad, attrUsed)
	if _, err := uploadFromItem(bad); err == nil {
		t.Error("an upload record without its used flag was read")
	}
}
