package versitygw_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"

	"github.com/quickphotos/quickphotos/internal/testkit/versitygw"
)

// TestServer_ChecksSignatures: the gateway is only worth testing against if it refuses a
// request signed with the wrong secret, as S3 does.
func TestServer_ChecksSignatures(t *testing.T) {
	ctx := context.Background()
	gw := versitygw.Start(t)
	bucket := gw.CreateBucket(t, "sig")
	put := func(c *s3.Client) error {
		_, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String("k"), Body: strings.NewReader("v")})
		return err
	}
	if err := put(gw.Client()); err != nil {
		t.Fatalf("put with the right secret: %v", err)
	}
	wrong := gw.Client()
	wrong = s3.New(wrong.Options(), func(o *s3.Options) {
		o.Credentials = credentials.NewStaticCredentialsProvider(gw.AccessKey, gw.SecretKey+"x", "")
	})
	var ae smithy.APIError
	if err := put(wrong); !errors.As(err, &ae) || ae.ErrorCode() != "SignatureDoesNotMatch" {
		t.Errorf("put with a wrong secret: %v, want SignatureDoesNotMatch", err)
	}
}
