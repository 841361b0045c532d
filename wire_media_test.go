package main

import (
	"context"
	"testing"
)

// TestMediaConfig_S3Client: an S3-compatible endpoint, from the flag or from
// AWS_ENDPOINT_URL_S3, is addressed path-style, and only one on this machine
// gets the dummy keys that stand in for missing credentials.
func TestMediaConfig_S3Client(t *testing.T) {
	for _, tc := range []struct {
		name, flag, env string
		pathStyle       bool
		dummyKeys       bool
	}{
		{"no endpoint", "", "", false, false},
		{"flag on loopback", "http://127.0.0.1:9000", "", true, true},
		{"variable on loopback", "", "http://localhost:9000", true, true},
		{"variable elsewhere", "", "https://s3.example.com", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("AWS_ENDPOINT_URL_S3", tc.env)
			t.Setenv("AWS_ENDPOINT_URL", "")
			t.Setenv("AWS_ACCESS_KEY_ID", "")
			t.Setenv("AWS_SECRET_ACCESS_KEY", "")
			t.Setenv("AWS_PROFILE", "")
			t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/none")
			t.Setenv("AWS_SHARED_CREDENTIALS_FILE", t.TempDir()+"/none")
			t.Setenv("AWS_EC2_METADATA_DISABLED", "true") // the "elsewhere" case must not ask either
			c := &mediaConfig{endpointURL: tc.flag}
			client, err := c.s3Client(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			o := client.Options()
			if o.UsePathStyle != tc.pathStyle {
				t.Errorf("UsePathStyle = %v, want %v", o.UsePathStyle, tc.pathStyle)
			}
			creds, err := o.Credentials.Retrieve(context.Background())
			if dummy := err == nil && creds.AccessKeyID == "local"; dummy != tc.dummyKeys {
				t.Errorf("dummy keys: %v (%v), want %v", dummy, err, tc.dummyKeys)
			}
		})
	}
}
