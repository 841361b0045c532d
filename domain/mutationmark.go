package domain

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"
	"unicode"
	"unicode/utf8"
)

// Replay-safe mutations. A client may name a mutation with a client mutation id (Relay's
// clientMutationId) so that sending it again, after an answer that never arrived, cannot apply
// it twice: the first outcome is kept in a mark, per caller and id, written in the same
// transaction as the mutation's own writes, and a mutation sent again with the same id and
// input is answered from the mark instead of running.

// MaxClientMutationIDLength is the longest client mutation id, in characters: room for a UUID
// or a ULID with a prefix, and short enough to key an item.
const MaxClientMutationIDLength = 64

// DefaultMutationRetention is how long a mark is kept unless configured otherwise: a week, for
// a phone offline over a weekend abroad.
const DefaultMutationRetention = 7 * 24 * time.Hour

// ValidateClientMutationID checks a client mutation id: 1 to MaxClientMutationIDLength
// printable characters (letters, marks, numbers, punctuation, symbols and the space U+0020).
func ValidateClientMutationID(field, id string) error {
	switch n := utf8.RuneCountInString(id); {
	case !utf8.ValidString(id):
		return Errorf(Invalid, "%s: not valid UTF-8", field)
	case n == 0:
		return Errorf(Invalid, "%s: empty; leave it out, or give 1 to %d printable characters", field, MaxClientMutationIDLength)
	case n > MaxClientMutationIDLength:
		return Errorf(Invalid, "%s: %d characters, at most %d", field, n, MaxClientMutationIDLength)
	}
	for i, r := range []rune(id) {
		if !unicode.IsPrint(r) {
			return Errorf(Invalid, "%s: character %d (U+%04X) is not printable", field, i+1, r)
		}
	}
	return nil
}

// InputHash is the hash by which a mark recognises a mutation's input: the mutation's name and
// its arguments as canonical JSON (object keys sorted, no spaces), without the client mutation
// id itself.
func InputHash(mutation string, args map[string]any) (string, error) {
	b, err := json.Marshal(args)
	if err != nil {
		return "", fmt.Errorf("hashing the input of %s: %w", mutation, err)
	}
	h := sha256.New()
	h.Write([]byte(mutation))
	h.Write([]byte{0})
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// MutationMark is the mark a mutation sent with a client mutation id leaves: who sent it
// (Caller, the user the mutation acts as), the id, which mutation with which input, and how
// long it is kept. The store that writes the mutation writes the mark in the same
// transaction, with the outcome, and says so in Written.
type MutationMark struct {
	Caller, ID string
	Mutation   string
	InputHash  string
	Retention  time.Duration
	// Written is set by the store once the mark is committed with the mutation's writes.
	Written bool
}

// MutationOutcome is what a mark recorded: the object a mutation returned (Node, by its key,
// read again as it is now, and Returned, the object as returned, for a replay once it is gone;
// or Removed, the object as a removal returned it; or Answer, the JSON of an answer that is no
// stored object) or the error it was refused with.
type MutationOutcome struct {
	Mutation  string
	InputHash string
	Node      NodeKey
	// Returned is nil when updateUser's mark commits with its update, before the profile is
	// read back: a profile is never removed.
	Returned Node
	Removed  Node
	Answer   []byte
	Err      *Error
	// Deletion is the id of the photo deletion in steps the mutation began (a deletePhoto
	// whose photo had too many reactions for one transaction), "" for none: its mark commits
	// with the first step, so a replay finishes the deletion if it is still under way.
	Deletion string
}

type markKey struct{}

// WithMutationMark returns ctx carrying m, for the store to write with the mutation's writes.
// The mark travels in the context because some mutations reach the store through other
// services (uploads go through media.Service), which need not know about it.
func WithMutationMark(ctx context.Context, m *MutationMark) context.Context {
	return context.WithValue(ctx, markKey{}, m)
}

// MutationMarkFrom returns the mark WithMutationMark put in ctx, or nil.
func MutationMarkFrom(ctx context.Context) *MutationMark {
	m, _ := ctx.Value(markKey{}).(*MutationMark)
	return m
}

// ErrMutationMarked is how the store reports that a write carrying a mark was cancelled
// because the mark already exists: a replay racing this one committed first, and this one
// answers from its mark.
var ErrMutationMarked = Errorf(Conflict, "this client mutation id was used by a mutation that committed meanwhile")
