package dynamo

import (
	"encoding/base64"
	"encoding/json"
	"strings"

	"github.com/quickphotos/quickphotos/domain"
)

// list names the lists a cursor can belong to; a cursor of one list is refused by another.
type list string

const (
	listPhotos         list = "photos"
	listFollowers      list = "followers"
	listFollowing      list = "following"
	listPhotoReactions list = "photoReactions"
	listUserReactions  list = "userReactions"
	listFeed           list = "feed"
)

// cursor is the position after which a page starts: the key of the last item of the previous
// page. Encoded, it is opaque to clients; decoded, it is checked against the partition the
// request reads, so a forged cursor can never move a Query elsewhere.
type cursor struct {
	List list   `json:"l"`
	PK   string `json:"p"`
	SK   string `json:"s"`
}

// encodeCursor spells a cursor: the base64 of cursor's JSON, byte for byte what encoding/json
// writes, since decodeCursor accepts only that spelling. A page encodes one cursor per item, so
// the JSON is written by hand rather than through reflection.
func encodeCursor(l list, k Key) string {
	var buf [128]byte
	b := append(buf[:0], `{"l":`...)
	b = appendJSONString(b, string(l))
	b = append(b, `,"p":`...)
	b = appendJSONString(b, k.PK)
	b = append(b, `,"s":`...)
	b = appendJSONString(b, k.SK)
	b = append(b, '}')
	return base64.RawURLEncoding.EncodeToString(b)
}

// appendJSONString appends s as encoding/json quotes it. Keys are printable ASCII, which it
// writes as they are; any other string is left to encoding/json, whose escapes (of <, > and &,
// of control characters, of invalid UTF-8) the spelling must keep.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			quoted, _ := json.Marshal(s)
			return append(b, quoted...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// decodeCursor returns the key after which list l continues. valid checks that the key lies
// in the partition the request reads. An empty cursor is the start: ok is false.
func decodeCursor(after string, l list, valid func(Key) bool) (k Key, ok bool, err error) {
	if after == "" {
		return Key{}, false, nil
	}
	k, err = parseCursor(after, l)
	if err != nil {
		return Key{}, false, err
	}
	k = canonicalCursorKey(k)
	if !valid(k) {
		return Key{}, false, errNotThisList()
	}
	return k, true, nil
}

// parseCursor reads a cursor of list l, not yet checked against a partition: one of another
// list, or not spelt as encodeCursor spells it, is refused.
func parseCursor(after string, l list) (Key, error) {
	if len(after) > 4096 {
		return Key{}, errNotThisList()
	}
	b, err := base64.RawURLEncoding.DecodeString(after)
	if err != nil {
		return Key{}, errNotThisList()
	}
	var c cursor
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil || c.List != l {
		return Key{}, errNotThisList()
	}
	k := Key{PK: c.PK, SK: c.SK}
	// Only the spelling the server issues is accepted: JSON decoding forgives trailing bytes
	// and turns invalid UTF-8 into U+FFFD, which would give one position many cursors and
	// let a cursor name a key its bytes do not hold.
	if encodeCursor(l, k) != after {
		return Key{}, errNotThisList()
	}
	return k, nil
}

// errNotThisList is the refusal of a cursor: the same whatever is wrong with it.
func errNotThisList() error {
	return domain.Errorf(domain.Invalid, "after: not a cursor of this list; pass the endCursor of a previous page of the same list")
}

// cursorLists is the list tag, as cursors spell it, of each list of domain's that has one.
var cursorLists = map[domain.List]list{
	domain.ListPhotos:         listPhotos,
	domain.ListFeed:           listFeed,
	domain.ListFollowers:      listFollowers,
	domain.ListFollowing:      listFollowing,
	domain.ListPhotoReactions: listPhotoReactions,
	domain.ListUserReactions:  listUserReactions,
}

// CheckCursor checks a cursor a client passed as `after` to list l as far as it can be checked
// before anything is read: that it is spelt as the server spells the cursors of l (a change
// log cursor's signature aside, which needs the table's key). That it is of the very user or
// photo read, and a change log cursor's signature and caller, are checked when the page is
// read. An empty cursor, the start of a list, passes. Every refusal is domain.Invalid, with
// the message reading the page would give.
func CheckCursor(l domain.List, after string) error {
	if after == "" {
		return nil
	}
	if l == domain.ListChanges {
		if _, _, ok := splitSyncCursor(after); !ok {
			return errNotYourChanges()
		}
		return nil
	}
	tag, ok := cursorLists[l]
	if !ok {
		return domain.Errorf(domain.Internal, "no cursors are made for list %q", l)
	}
	_, err := parseCursor(after, tag)
	return err
}

// canonicalCursorKey is the position k names with its timestamp in canonical form. Earlier
// releases spelt timestamps in keys with a Z (2018-05-30T15:42:38Z), and so do the cursors they
// issued; such a cursor goes on from the same item once `quickphotos migrate timestamps` has
// rewritten its key, since the canonical key is where that item is now. Before that, the
// canonical key sorts just below the old one, so a list read newest first (photos, the feed)
// still goes on after it, and one read in ascending order gives that item once more.
func canonicalCursorKey(k Key) Key {
	item, err := canonicalTimestamps(k.item())
	if err != nil {
		return k // not a timestamp at all: valid refuses it, or the Query finds nothing
	}
	return keyOf(item)
}
