package ddb

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"time"

	gojson "github.com/goccy/go-json"
	bolt "go.etcd.io/bbolt"
)

// tokenFormTyped marks a token stored with typedRequestHash; older records
// hold a requestHash.
const tokenFormTyped = 1

// requestDigest identifies a TransactWriteItems request for its token:
// typed is its typedRequestHash, legacy computes the requestHash that
// records stored by earlier versions hold.
type requestDigest struct {
	typed  []byte
	legacy func() []byte
}

// tokenTTL is how long a ClientRequestToken stays in force.
const tokenTTL = 10 * time.Minute

// bucketTokens holds TransactWriteItems idempotency tokens.
var bucketTokens = []byte("tokens")

// tokenRecord is a stored ClientRequestToken: the hash of the request it
// came with, when, and the response returned.
type tokenRecord struct {
	Hash     []byte          `json:"hash"`
	Form     int             `json:"form,omitempty"` // how Hash was computed: 0 requestHash, tokenFormTyped
	Unix     int64           `json:"unix"`
	Response json.RawMessage `json:"response"`
}

// lookupToken returns the stored response of an earlier identical request
// with this token (nil if none or expired), or
// IdempotentParameterMismatchException when the token came with another
// request.
func (e *Engine) lookupToken(tx *bolt.Tx, token string, d requestDigest) (map[string]any, error) {
	b := tx.Bucket(bucketTokens)
	if b == nil {
		return nil, nil
	}
	raw := b.Get([]byte(token))
	if raw == nil {
		return nil, nil
	}
	var rec tokenRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, err
	}
	if e.now().Sub(time.Unix(rec.Unix, 0)) > tokenTTL {
		return nil, nil
	}
	hash := d.typed
	if rec.Form != tokenFormTyped {
		hash = d.legacy()
	}
	if string(rec.Hash) != string(hash) {
		return nil, &Error{Type: typeIdempotentMismatch, Message: "The request uses the same client token as a previous, but non-identical request."}
	}
	return decodeJSONMap(rec.Response)
}

// saveToken records a token with the hash of its request and the response.
func (e *Engine) saveToken(tx *bolt.Tx, token string, d requestDigest, resp map[string]any) error {
	b, err := tx.CreateBucketIfNotExists(bucketTokens)
	if err != nil {
		return err
	}
	out, err := json.Marshal(resp)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(tokenRecord{Hash: d.typed, Form: tokenFormTyped, Unix: e.now().Unix(), Response: out})
	if err != nil {
		return err
	}
	return b.Put([]byte(token), raw)
}

// purgeTokens deletes expired tokens; the TTL sweeper calls it.
func (e *Engine) purgeTokens() error {
	return e.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketTokens)
		if b == nil {
			return nil
		}
		var old [][]byte
		err := b.ForEach(func(k, v []byte) error {
			var rec tokenRecord
			if json.Unmarshal(v, &rec) != nil || e.now().Sub(time.Unix(rec.Unix, 0)) > tokenTTL {
				old = append(old, append([]byte(nil), k...))
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range old {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
}

// requestHash is the hash ClientRequestTokens were stored with before
// tokenFormTyped (still honoured for ten minutes after an upgrade): that of
// the request body in canonical form (object keys sorted), so that the
// same request serialized with another map order matched.
func requestHash(body []byte) []byte {
	var v any
	if err := json.Unmarshal(body, &v); err == nil {
		if canon, err := json.Marshal(v); err == nil {
			body = canon
		}
	}
	sum := sha256.Sum256(body)
	return sum[:]
}

// typedRequestHash is the hash a ClientRequestToken is stored with: that of
// the decoded request as go-json writes it. Struct fields come in their
// declared order and map keys sorted, so a request serialized with another
// map order, or received over HTTP rather than in process, hashes the same.
// It costs a few microseconds where requestHash's round trip through
// untyped values cost tens.
func typedRequestHash(in *transactWriteInput) []byte {
	body, err := gojson.Marshal(in)
	if err != nil {
		// Decoded requests always encode. Should one not, a random hash
		// keeps its token from matching any request, this one's retry
		// included: a retry is refused, never applied twice.
		sum := make([]byte, sha256.Size)
		_, _ = rand.Read(sum)
		return sum
	}
	sum := sha256.Sum256(body)
	return sum[:]
}

// decodeJSONMap decodes a stored JSON response.
func decodeJSONMap(raw []byte) (map[string]any, error) {
	var m map[string]any
	err := json.Unmarshal(raw, &m)
	return m, err
}
