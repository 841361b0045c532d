package dynamo

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/domain"
)

func TestCursor_RoundTrip(t *testing.T) {
	k := PhotoKey(domain.PhotoKey{Owner: "ada", Timestamp: "2019-03-03T18:20:10Z"})
	c := encodeCursor(listPhotos, k)
	got, ok, err := decodeCursor(c, listPhotos, func(Key) bool { return true })
	if err != nil || !ok || got != k {
		t.Fatalf("decoded %+v %v %v", got, ok, err)
	}
	if strings.Contains(c, "USER#") {
		t.Fatalf("cursor %q is not opaque", c)
	}
}

func TestCursor_Refused(t *testing.T) {
	k := PhotoKey(domain.PhotoKey{Owner: "ada", Timestamp: "2019-03-03T18:20:10Z"})
	inAda := func(k Key) bool { return k.PK == userPK("ada") }
	for name, tc := range map[string]struct {
		cursor string
		valid  func(Key) bool
	}{
		"Garbage":        {"%%%", inAda},
		"NotJSON":        {base64.RawURLEncoding.EncodeToString([]byte("hello")), inAda},
		"UnknownFields":  {base64.RawURLEncoding.EncodeToString([]byte(`{"l":"photos","p":"USER#ada","s":"x","z":1}`)), inAda},
		"OtherList":      {encodeCursor(listFollowers, k), inAda},
		"OtherPartition": {encodeCursor(listPhotos, PhotoKey(domain.PhotoKey{Owner: "bob", Timestamp: "2019-03-03T18:20:10Z"})), inAda},
		"TooLong":        {strings.Repeat("A", 5000), inAda},
	} {
		_, _, err := decodeCursor(tc.cursor, listPhotos, tc.valid)
		if domain.ErrorCode(err) != domain.Invalid {
			t.Errorf("%s: err %v, want invalid", name, err)
		}
	}
	if _, ok, err := decodeCursor("", listPhotos, inAda); ok || err != nil {
		t.Errorf("empty cursor: %v %v", ok, err)
	}
}
