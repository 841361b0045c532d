package dynamo

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/domain"
)

// A change log cursor is the caller's position in each log they read: their own, and the
// public log of each popular user they follow, with the time below which no entry after
// those positions was written. It is signed, with a key kept in the table (one per table, made
// the first time a cursor is needed), so that every server of the table checks the cursors
// any of them issued, and a cursor altered by a byte, truncated, or made up is refused rather
// than read from: its positions would otherwise skip changes silently. It names its caller,
// and is refused to anyone else.

// syncCursor is a cursor, decoded.
type syncCursor struct {
	Caller string `json:"u"`
	// Own is the position in the caller's own log.
	Own uint64 `json:"s"`
	// Popular is the position in each popular user's public log read so far.
	Popular map[string]uint64 `json:"p,omitempty"`
	// Since is when the oldest entry after these positions may have been written, in
	// milliseconds since the Unix epoch: the cursor expires with the retention after it.
	Since int64 `json:"t"`
}

// syncMACLength is the bytes of the cursor's signature kept: 128 bits.
const syncMACLength = 16

// signingKey returns the table's cursor signing key, made on first use. Two servers making it
// at once both put it on condition that there is none; the loser reads the winner's.
func (s *Store) signingKey(ctx context.Context) ([]byte, error) {
	s.syncKey.mu.Lock()
	defer s.syncKey.mu.Unlock()
	if s.syncKey.key != nil {
		return s.syncKey.key, nil
	}
	for range 2 {
		item, err := s.getItem(ctx, syncSigningKey)
		if err != nil {
			return nil, err
		}
		if b, ok := item[attrSyncKey].(*types.AttributeValueMemberB); ok && len(b.Value) == 32 {
			s.syncKey.key = b.Value
			return b.Value, nil
		}
		key := make([]byte, 32)
		_, _ = rand.Read(key)
		err = s.putItem(ctx, &dynamodb.PutItemInput{
			Item:                Item{attrPK: str(syncSigningKey.PK), attrSK: str(syncSigningKey.SK), attrSyncKey: &types.AttributeValueMemberB{Value: key}},
			ConditionExpression: itemIsNew,
		})
		if err == nil {
			s.syncKey.key = key
			return key, nil
		}
		if !isConditionFailed(err) {
			return nil, err
		}
	}
	return nil, domain.Errorf(domain.Internal, "the change log cursor key could not be read or made")
}

// syncKeyCache holds the signing key once read.
type syncKeyCache struct {
	mu  sync.Mutex
	key []byte
}

// attrSyncKey is the signing key's attribute.
const attrSyncKey = "key"

func (s *Store) encodeSyncCursor(ctx context.Context, c syncCursor) (string, error) {
	key, err := s.signingKey(ctx)
	if err != nil {
		return "", err
	}
	return signCursor(key, c), nil
}

func signCursor(key []byte, c syncCursor) string {
	body, _ := json.Marshal(c)
	mac := hmac.New(sha256.New, key)
	mac.Write(body)
	return base64.RawURLEncoding.EncodeToString(body) + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil)[:syncMACLength])
}

// decodeSyncCursor checks and reads a cursor for caller. Every refusal says the same, so that
// a cursor of another caller tells nothing about them.
func (s *Store) decodeSyncCursor(ctx context.Context, after, caller string) (syncCursor, error) {
	bad := errNotYourChanges()
	body, mac, ok := splitSyncCursor(after)
	if !ok {
		return syncCursor{}, bad
	}
	key, err := s.signingKey(ctx)
	if err != nil {
		return syncCursor{}, err
	}
	want := hmac.New(sha256.New, key)
	want.Write(body)
	if !hmac.Equal(mac, want.Sum(nil)[:syncMACLength]) {
		return syncCursor{}, bad
	}
	var c syncCursor
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil || c.Caller != caller || signCursor(key, c) != after {
		return syncCursor{}, bad
	}
	return c, nil
}

// splitSyncCursor reads a cursor's body and signature, neither checked: ok is false for one
// not spelt as signCursor spells them, which is refused without the signing key.
func splitSyncCursor(after string) (body, mac []byte, ok bool) {
	if len(after) > 4096 {
		return nil, nil, false
	}
	body64, mac64, ok := strings.Cut(after, ".")
	body, err1 := base64.RawURLEncoding.DecodeString(body64)
	mac, err2 := base64.RawURLEncoding.DecodeString(mac64)
	return body, mac, ok && err1 == nil && err2 == nil && len(mac) == syncMACLength
}

// errNotYourChanges is the refusal of a change log cursor: the same whatever is wrong with it.
func errNotYourChanges() error {
	return domain.Errorf(domain.Invalid, "after: not a cursor of your changes; pass the cursor of a previous page of changes, or none to start a sync")
}

func (c syncCursor) since() time.Time { return time.UnixMilli(c.Since) }
