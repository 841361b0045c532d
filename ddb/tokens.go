package ddb

import (
	"crypto/sha256"
	"encoding/json"
	"time"

	gojson "github.com/goccy/go-json"
	bolt "go.etcd.io/bbolt"
)

// tokenTTL is how long a ClientRequestToken stays in force.
const tokenTTL = 10 * time.Minute

// bucketTokens holds TransactWriteItems idempotency tokens.
var bucketTokens = []byte("tokens")

// tokenRecord is a stored ClientRequestToken: the hash of the request it
// came with, when, and the response returned.
type tokenRecord struct {
	Hash     []byte          `json:"hash"`
	Unix     int64           `json:"unix"`
	Response json.RawMessage `json:"response"`
}

// lookupToken returns the stored response of an earlier identical request
// with this token (nil if none or expired), or
// IdempotentParameterMismatchException when the token came with another
// request. hash is requestHash of the request body.
func (e *Engine) lookupToken(tx *bolt.Tx, token string, hash []byte) (map[string]any, error) {
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
	if string(rec.Hash) != string(hash) {
		return nil, &Error{Type: typeIdempotentMismatch, Message: "The request uses the same client token as a previous, but non-identical request."}
	}
	return decodeJSONMap(rec.Response)
}

// saveToken records a token with the hash of its request and the response.
func (e *Engine) saveToken(tx *bolt.Tx, token string, hash []byte, resp map[string]any) error {
	b, err := tx.CreateBucketIfNotExists(bucketTokens)
	if err != nil {
		return err
	}
	out, err := json.Marshal(resp)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(tokenRecord{Hash: hash, Unix: e.now().Unix(), Response: out})
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

// requestHash hashes a request body in canonical form (object keys sorted),
// so that the same request serialized with another map order matches.
// Callers compute it before their write transaction, which it would
// otherwise hold longer.
func requestHash(body []byte) []byte {
	sum := sha256.Sum256(canonicalJSON(body))
	return sum[:]
}

// canonicalJSON is body decoded into Go values and encoded again, as
// encoding/json does it: object keys sorted, numbers as float64 writes
// them. Tokens are stored with the hash of this form, so it must not change
// from one version to the next while they live. go-json gives the same bytes
// (FuzzCanonicalJSON) in about a third of the time; what it cannot read,
// encoding/json does.
func canonicalJSON(body []byte) []byte {
	var v any
	if gojson.Unmarshal(body, &v) == nil {
		if canon, err := gojson.Marshal(v); err == nil {
			return canon
		}
	}
	v = nil
	if json.Unmarshal(body, &v) == nil {
		if canon, err := json.Marshal(v); err == nil {
			return canon
		}
	}
	return body
}

// decodeJSONMap decodes a stored JSON response.
func decodeJSONMap(raw []byte) (map[string]any, error) {
	var m map[string]any
	err := json.Unmarshal(raw, &m)
	return m, err
}
