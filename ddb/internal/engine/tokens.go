package engine

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	gojson "github.com/goccy/go-json"
	bolt "go.etcd.io/bbolt"
)

// tokenFormTyped marks a token stored with typedRequestHash; older records
// hold a requestHash.
const tokenFormTyped = 1

// requestDigest identifies a TransactWriteItems request for its token:
// typed is its typedRequestHash, earlier computes the requestHash that
// records stored by earlier versions hold.
type requestDigest struct {
	typed   []byte
	earlier func() []byte
}

// TokenTTL is how long a ClientRequestToken stays in force.
const TokenTTL = 10 * time.Minute

// Tokens are kept in generations, one bucket per tokenTTL of time (by the
// engine clock), inside bucketTokenGenerations: a token saved in generation
// g is in force until some time in generation g+1, so a lookup reads the
// current generation and the one before, and the sweeper drops every older
// generation whole. Keeping every token in one bucket, as earlier versions
// did, made each sweep read and decode every token still in force: with a
// sustained load of TransactWriteItems (the SDK gives each a token), a
// million of them, two to three seconds holding the write lock every minute.
var BucketTokenGenerations = []byte("tokengens")

// BucketTokens holds the tokens stored by earlier versions, all in one
// bucket: still looked up, swept record by record, and deleted once empty.
var BucketTokens = []byte("tokens")

// TokenGeneration is the key, within bucketTokenGenerations, of the
// generation of tokens saved at t.
func TokenGeneration(t time.Time) []byte {
	g := max(t.Unix(), 0) / int64(TokenTTL/time.Second)
	return binary.BigEndian.AppendUint64(nil, uint64(g))
}

// previousTokenGeneration is the generation before that of tokens saved at
// t: the oldest that can hold a token still in force at t.
func previousTokenGeneration(t time.Time) []byte {
	return TokenGeneration(t.Add(-TokenTTL))
}

// TokenRecord is a stored ClientRequestToken: the hash of the request it
// came with, when, and the response returned.
type TokenRecord struct {
	Hash     []byte          `json:"hash"`
	Form     int             `json:"form,omitempty"` // how Hash was computed: 0 requestHash, tokenFormTyped
	Unix     int64           `json:"unix"`
	Response json.RawMessage `json:"response"`
}

// lookupToken returns the stored response of an earlier identical request
// with this token (nil if none or expired), or
// IdempotentParameterMismatchException when the token came with another
// request.
func (e *Engine) lookupToken(tx *bolt.Tx, token string, d requestDigest) (*TransactWriteOutput, error) {
	rec, err := e.findToken(tx, []byte(token))
	if rec == nil || err != nil {
		return nil, err
	}
	if e.Now().Sub(time.Unix(rec.Unix, 0)) > TokenTTL {
		return nil, nil
	}
	hash := d.typed
	if rec.Form != tokenFormTyped {
		hash = d.earlier()
	}
	if string(rec.Hash) != string(hash) {
		return nil, &Error{Type: TypeIdempotentMismatch, Message: "The request uses the same client token as a previous, but non-identical request."}
	}
	var out TransactWriteOutput
	if err := json.Unmarshal(rec.Response, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// findToken returns the latest record of token among the generations that
// can hold it in force (later ones too, should the clock have gone back)
// and the bucket of earlier versions, or nil.
func (e *Engine) findToken(tx *bolt.Tx, token []byte) (*TokenRecord, error) {
	var raws [][]byte
	if gens := tx.Bucket(BucketTokenGenerations); gens != nil {
		c := gens.Cursor()
		for k, _ := c.Seek(previousTokenGeneration(e.Now())); k != nil; k, _ = c.Next() {
			if raw := gens.Bucket(k).Get(token); raw != nil {
				raws = append(raws, raw)
			}
		}
	}
	if old := tx.Bucket(BucketTokens); old != nil {
		if raw := old.Get(token); raw != nil {
			raws = append(raws, raw)
		}
	}
	var latest *TokenRecord
	for _, raw := range raws {
		var rec TokenRecord
		if err := gojson.Unmarshal(raw, &rec); err != nil {
			return nil, fmt.Errorf("ddb: token record: %w", err)
		}
		if latest == nil || rec.Unix > latest.Unix {
			latest = &rec
		}
	}
	return latest, nil
}

// saveToken records a token, in the current generation, with the hash of
// its request and the response.
func (e *Engine) saveToken(tx *bolt.Tx, token string, d requestDigest, resp *TransactWriteOutput) error {
	gens, err := tx.CreateBucketIfNotExists(BucketTokenGenerations)
	if err != nil {
		return err
	}
	now := e.Now()
	b, err := gens.CreateBucketIfNotExists(TokenGeneration(now))
	if err != nil {
		return err
	}
	out, err := gojson.Marshal(resp)
	if err != nil {
		return err
	}
	raw, err := gojson.Marshal(TokenRecord{Hash: d.typed, Form: tokenFormTyped, Unix: now.Unix(), Response: out})
	if err != nil {
		return err
	}
	return b.Put([]byte(token), raw)
}

// PurgeTokens deletes the tokens no longer in force; the TTL sweeper calls
// it. Generations older than the one before the current go whole, each
// bucket deleted without a record decoded (bbolt still walks its pages;
// BenchmarkPurgeTokens measured 50–70 ms for a million tokens, once a
// generation, on the development machine); tokens of earlier versions are
// read one by one, which lasts only until the last of them expires.
func (e *Engine) PurgeTokens() error {
	return e.Update(func(tx *bolt.Tx) error {
		if gens := tx.Bucket(BucketTokenGenerations); gens != nil {
			keep := previousTokenGeneration(e.Now())
			var old [][]byte
			c := gens.Cursor()
			for k, _ := c.First(); k != nil && bytes.Compare(k, keep) < 0; k, _ = c.Next() {
				old = append(old, append([]byte(nil), k...))
			}
			for _, k := range old {
				if err := gens.DeleteBucket(k); err != nil {
					return err
				}
			}
		}
		return e.purgeEarlierTokens(tx)
	})
}

// purgeEarlierTokens deletes the expired tokens of earlier versions, and
// their bucket once it is empty.
func (e *Engine) purgeEarlierTokens(tx *bolt.Tx) error {
	b := tx.Bucket(BucketTokens)
	if b == nil {
		return nil
	}
	var old [][]byte
	left := 0
	err := b.ForEach(func(k, v []byte) error {
		var rec TokenRecord
		if json.Unmarshal(v, &rec) != nil || e.Now().Sub(time.Unix(rec.Unix, 0)) > TokenTTL {
			old = append(old, append([]byte(nil), k...))
		} else {
			left++
		}
		return nil
	})
	if err != nil {
		return err
	}
	if left == 0 {
		return tx.DeleteBucket(BucketTokens)
	}
	for _, k := range old {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// RequestHash is the hash ClientRequestTokens were stored with before
// tokenFormTyped (still honoured for ten minutes after an upgrade): that of
// the request body in canonical form (object keys sorted), so that the
// same request serialized with another map order matched.
func RequestHash(body []byte) []byte {
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
func typedRequestHash(in *TransactWriteInput) []byte {
	body, err := gojson.Marshal(in)
	if err != nil {
		return UnmatchableHash()
	}
	sum := sha256.Sum256(body)
	return sum[:]
}

// UnmatchableHash is the hash of a request that does not encode, which
// decoded requests always do. Should one not, a random hash keeps its token
// from matching any request, this one's retry included: a retry is refused,
// never applied twice.
func UnmatchableHash() []byte {
	sum := make([]byte, sha256.Size)
	_, _ = rand.Read(sum)
	return sum
}
