package engine

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/quickphotos/quickphotos/ddb/attr"

	gojson "github.com/goccy/go-json"
	bolt "go.etcd.io/bbolt"
)

// The forms of a stored token's hash (tokenRecord.Form): 0 (no form) is a
// requestHash, TokenFormTyped a TypedRequestHash, both stored by earlier
// versions; TokenFormBinary, a BinaryRequestHash, is what tokens are stored
// with now.
const (
	TokenFormTyped  = 1
	TokenFormBinary = 2
)

// requestDigest identifies a TransactWriteItems request for its token:
// binary is its BinaryRequestHash; typed and earlier compute the hashes
// that records stored by earlier versions hold (TypedRequestHash, and the
// requestHash of the request's JSON), only when such a record is found.
type requestDigest struct {
	binary  []byte
	typed   func() []byte
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
	Form     int             `json:"form,omitempty"` // how Hash was computed: 0 requestHash, TokenFormTyped
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
	var hash []byte
	switch rec.Form {
	case TokenFormBinary:
		hash = d.binary
	case TokenFormTyped:
		hash = d.typed()
	default:
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
	return b.Put([]byte(token), appendTokenRecord(nil, d.binary, now.Unix(), out))
}

// appendTokenRecord appends the JSON of a tokenRecord of form
// TokenFormBinary, byte for byte what encoding/json writes for it (fields
// in declared order, the hash in standard base64), without reflection.
func appendTokenRecord(dst, hash []byte, unix int64, response []byte) []byte {
	dst = append(dst, `{"hash":"`...)
	dst = base64.StdEncoding.AppendEncode(dst, hash)
	dst = append(dst, `","form":`...)
	dst = strconv.AppendInt(dst, TokenFormBinary, 10)
	dst = append(dst, `,"unix":`...)
	dst = strconv.AppendInt(dst, unix, 10)
	dst = append(dst, `,"response":`...)
	dst = append(dst, response...)
	return append(dst, '}')
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
// TokenFormTyped (still honoured for ten minutes after an upgrade): that of
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

// TypedRequestHash is the hash ClientRequestTokens were stored with in
// TokenFormTyped (still honoured for ten minutes after an upgrade): that of
// the decoded request as go-json writes it. Struct fields come in their
// declared order and map keys sorted, so a request serialized with another
// map order, or received over HTTP rather than in process, hashes the same.
func TypedRequestHash(in *TransactWriteInput) []byte {
	body, err := gojson.Marshal(in)
	if err != nil {
		return UnmatchableHash()
	}
	sum := sha256.Sum256(body)
	return sum[:]
}

// BinaryRequestHash is the hash a ClientRequestToken is stored with
// (TokenFormBinary): the SHA-256 of the decoded request written field by
// field in a form of its own, every string length-prefixed, every absent
// member marked as such, items and attribute values in the engine's binary
// codec (attr.AppendBinary: names in order, values tagged, numbers
// canonical), names maps with their keys sorted. Like TypedRequestHash it
// sees every member of the request, whatever its map order or the path it
// came by, so two requests hash alike exactly when they are the same
// request; unlike it, it runs no reflection and no JSON, and allocates
// next to nothing. A field added to transactWriteInput, transactWriteItem or
// transactAction must be added here (TestToken_BinaryHashSeesEveryField).
func BinaryRequestHash(in *TransactWriteInput) (sum []byte) {
	defer func() {
		// attr.AppendBinary panics on a value without a type, which no
		// decoded request holds; should one, its token matches nothing.
		if recover() != nil {
			sum = UnmatchableHash()
		}
	}()
	// The form is written into a recycled buffer: one on the stack would
	// escape, as the writer's methods grow it (a kilobyte per request).
	bp := hashBufs.Get().(*[]byte)
	h := hashWriter{buf: (*bp)[:0]}
	defer func() {
		if cap(h.buf) <= maxHashBuf {
			*bp = h.buf[:0]
			hashBufs.Put(bp)
		}
	}()
	h.buf = append(h.buf, "TransactWriteItems\x00"...)
	h.uvarint(uint64(len(in.TransactItems)))
	for i := range in.TransactItems {
		ti := &in.TransactItems[i]
		for _, a := range [...]*TransactAction{ti.ConditionCheck, ti.Put, ti.Delete, ti.Update} {
			h.action(a)
		}
	}
	h.str(in.ClientRequestToken)
	h.str(in.ReturnConsumedCapacity)
	h.str(in.ReturnItemCollectionMetrics)
	s := sha256.Sum256(h.buf)
	return s[:]
}

// hashBufs recycles BinaryRequestHash's buffers; one that grew past
// maxHashBuf (a transaction of large items) is left to the collector.
var hashBufs = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

const maxHashBuf = 64 << 10

// hashWriter writes BinaryRequestHash's form of a request.
type hashWriter struct{ buf []byte }

func (h *hashWriter) uvarint(n uint64) { h.buf = binary.AppendUvarint(h.buf, n) }

func (h *hashWriter) str(s string) {
	h.uvarint(uint64(len(s)))
	h.buf = append(h.buf, s...)
}

// present writes whether a member is there (1) or absent (0).
func (h *hashWriter) present(ok bool) bool {
	if ok {
		h.buf = append(h.buf, 1)
	} else {
		h.buf = append(h.buf, 0)
	}
	return ok
}

func (h *hashWriter) optStr(s *string) {
	if h.present(s != nil) {
		h.str(*s)
	}
}

// item writes an item (or a map of expression attribute values): absent,
// or its count and then its attributes in the binary codec, names in
// order.
func (h *hashWriter) item(it map[string]attr.Value) {
	if h.present(it != nil) {
		h.buf = attr.AppendBinary(h.buf, it, len(it))
	}
}

func (h *hashWriter) action(a *TransactAction) {
	if !h.present(a != nil) {
		return
	}
	h.str(a.TableName)
	h.item(a.Key)
	h.item(a.Item)
	h.optStr(a.ConditionExpression)
	h.optStr(a.UpdateExpression)
	h.str(a.ReturnValuesOnConditionCheckFailure)
	if h.present(a.ExpressionAttributeNames != nil) {
		h.uvarint(uint64(len(a.ExpressionAttributeNames)))
		for _, k := range slices.Sorted(maps.Keys(a.ExpressionAttributeNames)) {
			h.str(k)
			h.str(a.ExpressionAttributeNames[k])
		}
	}
	h.item(a.ExpressionAttributeValues)
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
