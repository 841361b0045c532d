package domain

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
)

// A global id names one entity of any type: its type name and the parts of its key, a JSON
// array of strings, encoded as base64url without padding, like a cursor:
//
//	["User", username]
//	["Photo", owner, timestamp]
//	["Reaction", username, type, owner, timestamp]     type: HEART, SMILEY, THUMBS_UP, SUNGLASSES
//	["Friendship", follower, followed]
//
// The parts are the domain's key as the server stores it (a photo's timestamp in the canonical
// form), so one entity has exactly one id and an id names the entity whatever the timestamp
// form is. Clients treat ids as opaque; the server accepts only the spelling it issues, and
// checks every part as it checks arguments, before any request reaches the store.

// The type names of ids: the schema's names of the types that implement Node.
const (
	NodeUser       = "User"
	NodePhoto      = "Photo"
	NodeReaction   = "Reaction"
	NodeFriendship = "Friendship"
)

// maxIDLength bounds the ids decoded: the longest an issued id can be (a reaction's, two
// usernames of 64 characters and a timestamp) is under 300 characters.
const maxIDLength = 1024

// reactionTypeNames spell reaction types in ids as the schema does.
var reactionTypeNames = map[ReactionType]string{
	ReactionHeart:      "HEART",
	ReactionSmiley:     "SMILEY",
	ReactionThumbsUp:   "THUMBS_UP",
	ReactionSunglasses: "SUNGLASSES",
}

// NodeTypeName is the schema's name of the type k identifies.
func NodeTypeName(k NodeKey) string {
	switch k.(type) {
	case UserKey:
		return NodeUser
	case PhotoKey:
		return NodePhoto
	case ReactionKey:
		return NodeReaction
	case FriendshipKey:
		return NodeFriendship
	}
	return ""
}

// NodeID returns the global id of the entity k identifies.
func NodeID(k NodeKey) string {
	var parts []string
	switch k := k.(type) {
	case UserKey:
		parts = []string{NodeUser, k.Username}
	case PhotoKey:
		parts = []string{NodePhoto, k.Owner, k.Timestamp}
	case ReactionKey:
		parts = []string{NodeReaction, k.Username, reactionTypeNames[k.Type], k.Photo.Owner, k.Photo.Timestamp}
	case FriendshipKey:
		parts = []string{NodeFriendship, k.Follower, k.Followed}
	default:
		panic(fmt.Sprintf("domain: NodeID of %T", k))
	}
	b, err := json.Marshal(parts)
	if err != nil {
		panic(err) // a []string always marshals
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// ParseNodeID returns the key an id names, or an Invalid error naming field when id is not
// one the server issues: malformed, of an unknown type, with a part a valid key cannot hold
// (a username outside the alphabet, a timestamp not in the canonical form, a user following
// themselves), or spelt otherwise than the server spells it. Whether the entity exists is the
// store's to say.
func ParseNodeID(field, id string) (NodeKey, error) {
	bad := func(why string) error {
		return Errorf(Invalid, "%s: not an id of this server (%s); pass the id of a User, Photo, Reaction or Friendship as the server returned it", field, why)
	}
	if len(id) > maxIDLength {
		return nil, bad(fmt.Sprintf("%d characters, ids are at most %d", len(id), maxIDLength))
	}
	b, err := base64.RawURLEncoding.DecodeString(id)
	if err != nil {
		return nil, bad("not base64url")
	}
	var parts []string
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&parts); err != nil || dec.More() || len(parts) == 0 {
		return nil, bad("not a list of key parts")
	}
	k, err := nodeKeyOf(parts)
	if err != nil {
		return nil, bad(err.Error())
	}
	// Only the spelling the server issues: JSON decoding forgives white space, escapes and
	// trailing bytes and turns invalid UTF-8 into U+FFFD, and base64 may carry stray bits,
	// any of which would give one entity many ids.
	if NodeID(k) != id {
		return nil, bad("not spelt as the server spells ids")
	}
	return k, nil
}

// nodeKeyOf reads the parts of an id, checking each as the argument it stands for is checked.
func nodeKeyOf(parts []string) (NodeKey, error) {
	want := map[string]int{NodeUser: 2, NodePhoto: 3, NodeReaction: 5, NodeFriendship: 3}
	n, known := want[parts[0]]
	switch {
	case !known:
		return nil, fmt.Errorf("%q is not a type with ids", parts[0])
	case len(parts) != n:
		return nil, fmt.Errorf("a %s id has %d parts, this one %d", parts[0], n, len(parts))
	}
	// The part's own error, without its code: the id as a whole is what is invalid.
	reason := func(err error) error {
		var e *Error
		if errors.As(err, &e) {
			return errors.New(e.Message)
		}
		return err
	}
	switch parts[0] {
	case NodeUser:
		if err := ValidateUsername("username", parts[1]); err != nil {
			return nil, reason(err)
		}
		return UserKey{Username: parts[1]}, nil
	case NodePhoto:
		k := PhotoKey{Owner: parts[1], Timestamp: parts[2]}
		if err := ValidatePhotoKey(k); err != nil {
			return nil, reason(err)
		}
		return k, nil
	case NodeReaction:
		k := ReactionKey{Username: parts[1], Photo: PhotoKey{Owner: parts[3], Timestamp: parts[4]}}
		for t, name := range reactionTypeNames {
			if name == parts[2] {
				k.Type = t
			}
		}
		if k.Type == 0 {
			return nil, fmt.Errorf("%q is not a reaction type", parts[2])
		}
		if err := ValidateReactionKey(k); err != nil {
			return nil, reason(err)
		}
		return k, nil
	default:
		k := FriendshipKey{Follower: parts[1], Followed: parts[2]}
		if err := ValidateFriendship(k); err != nil {
			return nil, reason(err)
		}
		return k, nil
	}
}

// MaxNodeIDs bounds the ids one `nodes` field reads, as MaxPageSize bounds a page.
const MaxNodeIDs = MaxPageSize

// ParseNodeIDs returns the keys ids name, in order, or an Invalid error naming field and the
// position of the first id that ParseNodeID refuses; more than MaxNodeIDs ids are refused.
func ParseNodeIDs(field string, ids []string) ([]NodeKey, error) {
	if len(ids) > MaxNodeIDs {
		return nil, Errorf(Invalid, "%s: at most %d ids, got %d", field, MaxNodeIDs, len(ids))
	}
	keys := make([]NodeKey, len(ids))
	for i, id := range ids {
		k, err := ParseNodeID(fmt.Sprintf("%s[%d]", field, i), id)
		if err != nil {
			return nil, err
		}
		keys[i] = k
	}
	return keys, nil
}
