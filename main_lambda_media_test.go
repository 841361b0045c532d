package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/quickphotos/quickphotos/auth"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/internal/testkit/versitygw"
	"github.com/quickphotos/quickphotos/media/imaging"
)

// TestLambda_PhotoFilesOnS3: the two functions of a deployment with its photos bucket, run by
// the emulator over the engine and an S3 gateway that checks signatures and POST policies. A
// user uploads a file through the API function's presigned form, makes it a photo, and reads
// its image back from the bucket by its signed URL; once the photo is deleted, the fan-out
// function, handed the stream's records, deletes its images.
func TestLambda_PhotoFilesOnS3(t *testing.T) {
	rie := findRIE(t)
	gw := versitygw.Start(t)
	bucket := gw.CreateBucket(t, "photos")
	bootstrap := buildBootstrap(t)
	_, endpoint := dynamoDBEndpoint(t)
	runOK(t, "table", "create", "--store", "dynamodb", "--endpoint-url", endpoint)
	secret := "a-development-secret-of-32-bytes!"
	env := []string{
		"QUICKPHOTOS_ENDPOINT_URL=" + endpoint,
		"QUICKPHOTOS_MEDIA_STORE=s3",
		"QUICKPHOTOS_MEDIA_BUCKET=" + bucket,
		"QUICKPHOTOS_MEDIA_ENDPOINT_URL=" + gw.Endpoint,
		// The function's role, here the gateway's user (the engine on loopback takes any keys).
		"AWS_ACCESS_KEY_ID=" + gw.AccessKey,
		"AWS_SECRET_ACCESS_KEY=" + gw.SecretKey,
	}
	apiFn := startFunction(t, rie, []string{bootstrap}, append(env, "QUICKPHOTOS_LAMBDA_HANDLER=api", "QUICKPHOTOS_JWT_SECRET="+secret)...)
	fanOutFn := startFunction(t, rie, []string{bootstrap}, append(env, "QUICKPHOTOS_LAMBDA_HANDLER=fanout")...)
	token, err := auth.Mint([]byte(secret), "ada", time.Hour, auth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	graphql := func(query string, vars map[string]any) json.RawMessage {
		t.Helper()
		body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
		resp := apiFn.invokeHTTP(t, httpAPISample, map[string]string{"content-type": "application/json", "authorization": "Bearer " + token}, string(body))
		var out struct {
			Data   json.RawMessage
			Errors []json.RawMessage
		}
		if err := json.Unmarshal([]byte(resp.Body), &out); err != nil || resp.StatusCode != http.StatusOK || len(out.Errors) != 0 {
			t.Fatalf("%s: status %d: %s", query, resp.StatusCode, resp.Body)
		}
		return out.Data
	}
	objects := func() []string {
		t.Helper()
		out, err := gw.Client().ListObjectsV2(context.Background(), &s3.ListObjectsV2Input{Bucket: aws.String(bucket)})
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, o := range out.Contents {
			keys = append(keys, aws.ToString(o.Key))
		}
		return keys
	}

	graphql(`mutation { createUser(input: {username: "ada", name: "Ada"}) { username } }`, nil)
	file := imaging.Sample("lambda", 640, 480)
	var created struct{ CreatePhotoUpload apitest.UploadForm }
	if err := json.Unmarshal(graphql(apitest.CreatePhotoUpload, map[string]any{"in": map[string]any{"owner": "ada", "contentType": "image/jpeg", "byteSize": len(file)}}), &created); err != nil {
		t.Fatal(err)
	}
	form := created.CreatePhotoUpload
	if !strings.HasPrefix(form.URL, gw.Endpoint) {
		t.Fatalf("the upload form posts to %s, want the bucket at %s", form.URL, gw.Endpoint)
	}
	apitest.MustPostFile(t, form, "image/jpeg", file)
	var uploaded struct {
		UploadPhoto struct {
			Timestamp string
			Image     struct {
				URL           string
				Width, Height int
			}
		}
	}
	data := graphql(fmt.Sprintf(`mutation { uploadPhoto(input: {owner: "ada", upload: %q, timestamp: "2024-05-01T10:00:00"}) { timestamp image(size: THUMBNAIL) { url width height } } }`, form.UploadID), nil)
	if err := json.Unmarshal(data, &uploaded); err != nil {
		t.Fatal(err)
	}
	if img := uploaded.UploadPhoto.Image; img.Width != 320 || img.Height != 240 {
		t.Errorf("the thumbnail is %d × %d, want 320 × 240", img.Width, img.Height)
	}
	resp, err := http.Get(uploaded.UploadPhoto.Image.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/jpeg" {
		t.Errorf("GET the thumbnail's signed URL: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	images := 0
	for _, k := range objects() {
		if strings.HasPrefix(k, "images/") {
			images++
		}
	}
	if images == 0 {
		t.Fatalf("the bucket holds %v: no images", objects())
	}

	graphql(`mutation { deletePhoto(owner: "ada", timestamp: "2024-05-01T10:00:00") { timestamp } }`, nil)
	var fanned events.DynamoDBEventResponse
	fanOutFn.invoke(t, streamEvent(t, endpoint), &fanned)
	if len(fanned.BatchItemFailures) != 0 {
		t.Fatalf("fan-out: failures %+v", fanned.BatchItemFailures)
	}
	for _, k := range objects() {
		if strings.HasPrefix(k, "images/") {
			t.Errorf("after the fan-out took the delete, the bucket still holds %s", k)
		}
	}
}
