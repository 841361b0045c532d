package media_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/media"
	"github.com/quickphotos/quickphotos/media/blob"
	"github.com/quickphotos/quickphotos/media/imaging"
)

// resent is an upload of ada's whose first file was refused at the transaction (a photo was
// at that timestamp already) after its renditions were written, and whose second file, sent
// to the same form while it was still valid, was made into photo.
type resent struct {
	ticket media.Ticket
	photo  domain.Photo
	// strays are the first file's renditions, which no photo names.
	strays []string
}

func (f fixture) resend(t *testing.T) resent {
	t.Helper()
	ctx := context.Background()
	taken := domain.Photo{Owner: "ada", Timestamp: "2024-05-01T10:00:00", URL: "https://cdn.example.com/a.jpg"}
	if _, err := f.records.UploadPhoto(ctx, taken); err != nil {
		t.Fatal(err)
	}
	first, second := imaging.Sample("first", 400, 300), imaging.Sample("second", 400, 300)
	ticket, err := f.svc.CreateUpload(ctx, "ada", "image/jpeg", int64(max(len(first), len(second))), blob.PostSuccess{})
	if err != nil {
		t.Fatal(err)
	}
	key := ticket.Form.Fields["key"]
	if err := f.files.Write(ctx, key, "image/jpeg", first); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Finish(ctx, domain.Photo{Owner: "ada", Timestamp: taken.Timestamp}, ticket.Upload.ID); domain.ErrorCode(err) != domain.Conflict {
		t.Fatalf("finish at a taken timestamp: %v", err)
	}
	strays := f.keys(t)
	if err := f.files.Write(ctx, key, "image/jpeg", second); err != nil {
		t.Fatal(err)
	}
	photo, err := f.svc.Finish(ctx, domain.Photo{Owner: "ada", Timestamp: "2024-05-01T10:00:01"}, ticket.Upload.ID)
	if err != nil {
		t.Fatal(err)
	}
	strays = slices.DeleteFunc(strays, func(k string) bool { return k == key })
	for _, img := range photo.Images {
		if slices.Contains(strays, img.Key) {
			t.Fatalf("the second file's %s is the first's", img.Key)
		}
	}
	if len(strays) == 0 {
		t.Fatal("the refused Finish left no renditions")
	}
	return resent{ticket: ticket, photo: photo, strays: strays}
}

// TestService_ForgetDeletesEverythingUnderItsUpload: a photo owns its upload's whole prefix.
// Deleting the photo deletes the renditions a refused Finish left there too, which it does not
// name: they stayed for good, since the upload, used, is no longer the sweep's to clean.
func TestService_ForgetDeletesEverythingUnderItsUpload(t *testing.T) {
	f := newFixture(t, media.Config{})
	r := f.resend(t)
	if err := f.svc.Forget(context.Background(), []domain.Change{{Op: domain.Removed, Old: r.photo}}); err != nil {
		t.Fatal(err)
	}
	if got := f.keys(t); len(got) != 0 {
		t.Fatalf("after the photo was forgotten, the store holds %v (the refused file's were %v)", got, r.strays)
	}
}

// TestService_SweepRemovesWhatAUsedUploadsPhotoDoesNotName: the sweep left a used upload's
// images to its photo, all of them, so the renditions of a file refused before the one that
// made the photo stayed beside it for as long as the photo lived. It removes those and keeps
// the photo's; and everything, once the photo is gone, whether or not Forget has run yet.
func TestService_SweepRemovesWhatAUsedUploadsPhotoDoesNotName(t *testing.T) {
	for _, deleted := range []bool{false, true} {
		t.Run(map[bool]string{false: "the photo kept", true: "the photo deleted"}[deleted], func(t *testing.T) {
			f := newFixture(t, media.Config{})
			ctx := context.Background()
			r := f.resend(t)
			var want []string
			if deleted {
				if _, err := f.records.DeletePhoto(ctx, r.photo.Key()); err != nil {
					t.Fatal(err)
				}
			} else {
				for _, img := range r.photo.Images {
					want = append(want, img.Key)
				}
				slices.Sort(want)
				want = slices.Compact(want)
			}
			f.clock.Advance(media.DefaultUploadLifetime + media.SweepGrace + time.Second)
			if n, err := f.svc.Sweep(ctx); n != 1 || err != nil {
				t.Fatalf("swept %d, %v", n, err)
			}
			if got := f.keys(t); !slices.Equal(got, want) {
				t.Fatalf("after the sweep the store holds %v, want %v (the refused file's were %v)", got, want, r.strays)
			}
		})
	}
}
