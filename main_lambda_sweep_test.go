package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/internal/testkit/versitygw"
	"github.com/quickphotos/quickphotos/media"
	"github.com/quickphotos/quickphotos/media/blob"
	"github.com/quickphotos/quickphotos/media/imaging"
)

// TestLambda_SweepFinishesWhatOthersLeft: the sweep function of a deployment with its photos
// bucket, run by the emulator over the engine and an S3 gateway that checks signatures, and
// invoked with a schedule's event, cleans up what the other functions leave when they are cut
// short, which nothing else on Lambda removes: a photo deletion stopped halfway (the photo
// marked, refusing reactions, some of its reactions left) and the images a refused uploadPhoto
// wrote under an upload now expired (outside the bucket's lifecycle rule on staging/). It
// leaves what is not its to take: a photo's own images, and a deletion begun within its lease,
// which a running deletePhoto may still be doing. What it did is its answer and its log line.
func TestLambda_SweepFinishesWhatOthersLeft(t *testing.T) {
	rie := findRIE(t)
	gw := versitygw.Start(t)
	bucket := gw.CreateBucket(t, "photos")
	bootstrap := buildBootstrap(t)
	engine, endpoint := dynamoDBEndpoint(t)
	runOK(t, "table", "create", "--store", "dynamodb", "--endpoint-url", endpoint)
	ctx := t.Context()

	// What the API's function left, made with clocks set back: a deletion begun two minutes
	// ago, past its lease, and uploads whose forms expired fifteen minutes ago, past the
	// sweep's grace.
	ago := func(d time.Duration) func() time.Time { return func() time.Time { return time.Now().Add(-d) } }
	cut := &transactionCutter{}
	then := dynamo.New(engine.Client(), dynamo.DefaultTable, dynamo.WithClock(ago(2*time.Minute)), dynamo.WithObserver(cut))
	now := dynamo.New(engine.Client(), dynamo.DefaultTable, dynamo.WithObserver(cut))
	fans := usersWithProfiles(t, then, 25)
	halfDeleted := photoWithReactions(t, then, "2024-05-01T10:00:00", fans) // 100 reactions: deleted in steps
	cut.deleteHalfway(t, then, halfDeleted)
	beingDeleted := photoWithReactions(t, now, "2024-05-01T11:00:00", fans)
	cut.deleteHalfway(t, now, beingDeleted)

	created := ago(media.DefaultUploadLifetime + 15*time.Minute)
	images, err := media.New(blob.NewS3Store(gw.Client(), bucket, ""), then, media.Config{Now: created})
	if err != nil {
		t.Fatal(err)
	}
	file := imaging.Sample("sweep", 640, 480)
	upload := func() string {
		t.Helper()
		// The record createPhotoUpload wrote then (a form cannot be presigned in the past),
		// and the file its form staged.
		id := hex.EncodeToString(binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, rand.Uint64()), rand.Uint64()))
		u := domain.Upload{ID: id, Owner: "ada", ContentType: "image/jpeg", Bytes: int64(len(file)),
			Expires: created().Add(media.DefaultUploadLifetime).Truncate(time.Second).UTC()}
		if err := then.CreateUpload(ctx, u); err != nil {
			t.Fatal(err)
		}
		_, err = gw.Client().PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(media.StagingPrefix + id),
			Body: bytes.NewReader(file), ContentType: aws.String("image/jpeg")})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	// uploadPhoto refused at a timestamp ada has a photo at: its images were written first.
	refused := upload()
	if _, err := images.Finish(ctx, domain.Photo{Owner: "ada", Timestamp: halfDeleted.Timestamp}, refused); domain.ErrorCode(err) != domain.Conflict {
		t.Fatalf("uploadPhoto over a photo: %v, want a conflict", err)
	}
	made := upload()
	if _, err := images.Finish(ctx, domain.Photo{Owner: "ada", Timestamp: "2024-05-01T12:00:00"}, made); err != nil {
		t.Fatal(err)
	}
	objects := func() (refusedLeft, madeLeft []string) {
		t.Helper()
		out, err := gw.Client().ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String(bucket)})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range out.Contents {
			switch k := aws.ToString(o.Key); {
			case strings.Contains(k, refused):
				refusedLeft = append(refusedLeft, k)
			case strings.Contains(k, made):
				madeLeft = append(madeLeft, k)
			default:
				t.Errorf("the bucket holds %s, of neither upload", k)
			}
		}
		return refusedLeft, madeLeft
	}
	refusedLeft, photosImages := objects()
	if !slices.Contains(refusedLeft, media.StagingPrefix+refused) || len(refusedLeft) < 2 || len(photosImages) == 0 {
		t.Fatalf("before the sweep, the bucket holds %v of the refused upload and %v of the photo's, want its staged file and images, and images", refusedLeft, photosImages)
	}
	if _, err := now.React(ctx, domain.ReactionKey{Username: fans[0], Type: domain.ReactionTypes[0], Photo: halfDeleted}); domain.ErrorCode(err) != domain.NotFound {
		t.Fatalf("a reaction to the photo deleted halfway: %v, want it refused as not found", err)
	}
	pending := func() []domain.PhotoKey {
		t.Helper()
		report, err := now.Check(ctx)
		if err != nil || len(report.Problems) != 0 {
			t.Fatalf("check: %v %v", err, report.Problems)
		}
		return report.PendingDeletions
	}
	if got := pending(); len(got) != 2 {
		t.Fatalf("deletions under way %v, want the two", got)
	}

	sweep := startFunction(t, rie, []string{bootstrap}, "QUICKPHOTOS_LAMBDA_HANDLER=sweep",
		"QUICKPHOTOS_ENDPOINT_URL="+endpoint,
		"QUICKPHOTOS_MEDIA_STORE=s3",
		"QUICKPHOTOS_MEDIA_BUCKET="+bucket,
		"QUICKPHOTOS_MEDIA_ENDPOINT_URL="+gw.Endpoint,
		// The function's role, here the gateway's user (the engine on loopback takes any keys).
		"AWS_ACCESS_KEY_ID="+gw.AccessKey,
		"AWS_SECRET_ACCESS_KEY="+gw.SecretKey,
	)
	var report sweepReport
	sweep.invoke(t, json.RawMessage(scheduledEventJSON), &report)
	if want := (sweepReport{DeletionsFinished: 1, UploadsSwept: 2}); report != want {
		t.Errorf("the sweep answered %+v, want %+v", report, want)
	}
	if got := pending(); !slices.Equal(got, []domain.PhotoKey{beingDeleted}) {
		t.Errorf("after the sweep, deletions under way %v, want only the one begun within its lease, %v", got, beingDeleted)
	}
	if got, err := now.GetPhotos(ctx, []domain.PhotoKey{halfDeleted}); err != nil || len(got) != 0 {
		t.Errorf("after the sweep, the photo deleted halfway: %v, %v; want it gone", got, err)
	}
	refusedLeft, madeLeft := objects()
	if len(refusedLeft) != 0 || !slices.Equal(madeLeft, photosImages) {
		t.Errorf("after the sweep, the bucket holds %v of the refused upload and %v of the photo's, want nothing and the photo's images %v", refusedLeft, madeLeft, photosImages)
	}
	for _, id := range []string{refused, made} {
		if _, err := now.GetUpload(ctx, id); domain.ErrorCode(err) != domain.NotFound {
			t.Errorf("after the sweep, upload %s's record: %v, want it gone", id, err)
		}
	}
	if out := sweep.output(); !strings.Contains(out, `"msg":"lambda: swept"`) || !strings.Contains(out, `"deletions_finished":1,"uploads_swept":2`) {
		t.Errorf("the sweep's log does not say what it did:\n%s", out)
	}

	// The next run finds nothing more; an operator's {} sweeps as a schedule does.
	sweep.invoke(t, map[string]any{}, &report)
	if report != (sweepReport{}) {
		t.Errorf("the next sweep answered %+v, want nothing done", report)
	}
}

// transactionCutter is a store's observer that cancels a request's context once a number of
// transactions have committed: a deletion in steps cut short between two of them, as a
// function's timeout cuts it.
type transactionCutter struct {
	mu     sync.Mutex
	left   int
	cancel context.CancelFunc
}

func (c *transactionCutter) BeginRequest(ctx context.Context, operation, _ string) (context.Context, func(dynamo.RequestOutcome)) {
	return ctx, func(o dynamo.RequestOutcome) {
		c.mu.Lock()
		defer c.mu.Unlock()
		if operation == "TransactWriteItems" && o.Err == nil && c.cancel != nil {
			if c.left--; c.left == 0 {
				c.cancel()
				c.cancel = nil
			}
		}
	}
}

// deleteHalfway deletes the photo at key through store, cut short after its mark and its first
// step: the photo marked, 98 of its reactions gone.
func (c *transactionCutter) deleteHalfway(t *testing.T, store *dynamo.Store, key domain.PhotoKey) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	c.mu.Lock()
	c.left, c.cancel = 2, cancel
	c.mu.Unlock()
	if _, err := store.DeletePhoto(ctx, key); ctx.Err() == nil {
		t.Fatalf("the delete of %v was not cut short: %v", key, err)
	}
}

// usersWithProfiles creates ada and n fans, and returns the fans.
func usersWithProfiles(t *testing.T, store *dynamo.Store, n int) []string {
	t.Helper()
	var fans []string
	for i := range n + 1 {
		name := fmt.Sprintf("fan%02d", i)
		if i == n {
			name = "ada"
		} else {
			fans = append(fans, name)
		}
		if _, err := store.CreateUser(t.Context(), name, domain.Profile{}); err != nil {
			t.Fatal(err)
		}
	}
	return fans
}

// photoWithReactions uploads ada's photo at timestamp, and every fan reacts to it with every
// type.
func photoWithReactions(t *testing.T, store *dynamo.Store, timestamp string, fans []string) domain.PhotoKey {
	t.Helper()
	p := domain.Photo{Owner: "ada", Timestamp: timestamp, URL: "https://cdn.example.com/ada.jpg"}
	if _, err := store.UploadPhoto(t.Context(), p); err != nil {
		t.Fatal(err)
	}
	for _, fan := range fans {
		for _, typ := range domain.ReactionTypes {
			if _, err := store.React(t.Context(), domain.ReactionKey{Username: fan, Type: typ, Photo: p.Key()}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return p.Key()
}
