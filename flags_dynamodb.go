package main

import "github.com/quickphotos/quickphotos/ddb/sigv4auth"

// dynamodbAuth is how the engine's DynamoDB listener authenticates its callers: by AWS
// Signature Version 4 with the access keys of --dynamodb-keys, or, on loopback only and
// without keys, not at all, as DynamoDB Local (any or no credentials are accepted).
type dynamodbAuth struct {
	keysFile string
	// keys are the loaded keys, nil without --dynamodb-keys.
	keys *sigv4auth.Keys
}

func (c *dynamodbAuth) register(f *flags) {
	f.String(&c.keysFile, "dynamodb-keys", "", "accept only DynamoDB requests signed (AWS Signature Version 4) with the access keys of this file: one a line, ACCESS_KEY_ID SECRET [read-only], secrets of 16 characters or more, the file readable by its owner (and group) only; required on an address other than loopback")
}
