package dynamo

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/domain"
)

func TestCursor_RoundTrip(t *testing.T) {
	k := PhotoKey(domain.PhotoKey{Owner: "ada", Timestamp: "2019-03-03T18:20:10"})
	c := encodeCursor(listPhotos, k)
	got, ok, err := decodeCursor(c, listPhotos, func(Key) bool { return true })
	if err != nil || !ok || got != k {
		t.Fatalf("decoded %+v %v %v", got, ok, err)
	}
	if strings.Contains(c, "USER#") {
		t.Fatalf("cursor %q is not opaque", c)
	}
}

// TestCursor_SpelledAsEncodingJSONSpellsIt: the hand-written JSON of a cursor is encoding/json's,
// byte for byte, for keys as the server makes them and for strings that need escapes; a cursor
// issued before it was hand-written is the same cursor.
func TestCursor_SpelledAsEncodingJSONSpellsIt(t *testing.T) {
	for _, k := range []Key{
		PhotoKey(domain.PhotoKey{Owner: "ada", Timestamp: "2019-03-03T18:20:10"}),
		{PK: "REACTION#bob#+1", SK: "PHOTO#ada#2019-03-03T18:20:10.123456"},
		{PK: `quote " and \ backslash`, SK: "<html> & friends"},
		{PK: "tab\tnewline\ncontrol\x01del\x7f", SK: "ünïcödé \u2028 \u2029"},
		{PK: "invalid \xff utf-8", SK: ""},
	} {
		if got, want := encodeCursor(listFollowers, k), reflectedCursor(listFollowers, k); got != want {
			t.Errorf("%q: encodeCursor %q, encoding/json %q", k, got, want)
		}
	}
}

func FuzzCursor_SpelledAsEncodingJSONSpellsIt(f *testing.F) {
	f.Add("USER#ada", "PHOTO#ada#2019-03-03T18:20:10")
	f.Add("<", "\x00\xff\u2028")
	f.Fuzz(func(t *testing.T, pk, sk string) {
		k := Key{PK: pk, SK: sk}
		if got, want := encodeCursor(listPhotos, k), reflectedCursor(listPhotos, k); got != want {
			t.Fatalf("%q: encodeCursor %q, encoding/json %q", k, got, want)
		}
	})
}

// reflectedCursor is a cursor as encoding/json spells it.
func reflectedCursor(l list, k Key) string {
	b, err := json.Marshal(cursor{List: l, PK: k.PK, SK: k.SK})
	if err != nil {
		panic(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

func TestCursor_Refused(t *testing.T) {
	k := PhotoKey(domain.PhotoKey{Owner: "ada", Timestamp: "2019-03-03T18:20:10"})
	inAda := func(k Key) bool { return k.PK == userPK("ada") }
	for name, tc := range map[string]struct {
		cursor string
		valid  func(Key) bool
	}{
		"Garbage":        {"%%%", inAda},
		"NotJSON":        {base64.RawURLEncoding.EncodeToString([]byte("hello")), inAda},
		"UnknownFields":  {base64.RawURLEncoding.EncodeToString([]byte(`{"l":"photos","p":"USER#ada","s":"x","z":1}`)), inAda},
		"OtherList":      {encodeCursor(listFollowers, k), inAda},
		"OtherPartition": {encodeCursor(listPhotos, PhotoKey(domain.PhotoKey{Owner: "bob", Timestamp: "2019-03-03T18:20:10"})), inAda},
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

// TestCursor_EarlierReleasesKeys: a cursor an earlier release issued, whose key spells the
// timestamp with a Z, goes on from the canonical key of the same item, in every list whose
// keys hold a timestamp; the partition check then applies to the canonical key.
func TestCursor_EarlierReleasesKeys(t *testing.T) {
	for _, tc := range []struct {
		list      list
		old, want Key
		valid     func(Key) bool
	}{
		{listPhotos, Key{"USER#ada", "PHOTO#ada#2019-03-03T18:20:10Z"}, Key{"USER#ada", "PHOTO#ada#2019-03-03T18:20:10"},
			func(k Key) bool { return k.PK == "USER#ada" }},
		{listPhotoReactions, Key{"REACTION#bob#heart", "PHOTO#ada#2019-03-03T18:20:10Z"}, Key{"REACTION#bob#heart", "PHOTO#ada#2019-03-03T18:20:10"},
			func(k Key) bool {
				return k.SK == photoSK(domain.PhotoKey{Owner: "ada", Timestamp: "2019-03-03T18:20:10"})
			}},
		{listUserReactions, Key{"REACTION#bob#heart", "PHOTO#ada#2019-03-03T18:20:10Z"}, Key{"REACTION#bob#heart", "PHOTO#ada#2019-03-03T18:20:10"},
			func(k Key) bool { return k.PK == "REACTION#bob#heart" }},
		{listFeed, Key{"FEED#bob", "2019-03-03T18:20:10Z#ada"}, Key{"FEED#bob", "2019-03-03T18:20:10#ada"},
			func(k Key) bool { return k.PK == "FEED#bob" }},
		{listFollowers, Key{"USER#ada", "#FRIEND#bob"}, Key{"USER#ada", "#FRIEND#bob"},
			func(k Key) bool { return k.PK == "USER#ada" }},
	} {
		got, ok, err := decodeCursor(encodeCursor(tc.list, tc.old), tc.list, tc.valid)
		if err != nil || !ok || got != tc.want {
			t.Errorf("%s cursor at %v: %v %v %v, want %v", tc.list, tc.old, got, ok, err, tc.want)
		}
	}
}

// TestCheckCursor: before anything is read, a cursor of each list passes for that list only,
// whatever its partition, and one that is not spelt as the server spells it passes for none.
func TestCheckCursor(t *testing.T) {
	photo := PhotoKey(domain.PhotoKey{Owner: "ada", Timestamp: "2019-03-03T18:20:10"})
	ofAda := map[domain.List]string{}
	for l, tag := range cursorLists {
		ofAda[l] = encodeCursor(tag, photo)
	}
	ofAda[domain.ListChanges] = signCursor(make([]byte, 32), syncCursor{Caller: "ada", Own: 7, Since: 1})
	lists := []domain.List{domain.ListPhotos, domain.ListFeed, domain.ListFollowers, domain.ListFollowing,
		domain.ListPhotoReactions, domain.ListUserReactions, domain.ListChanges}
	if len(ofAda) != len(lists) {
		t.Fatalf("cursors are made for %d lists, want the %d of domain", len(ofAda), len(lists))
	}
	photosOfBob := encodeCursor(listPhotos, PhotoKey(domain.PhotoKey{Owner: "bob", Timestamp: "2019-03-03T18:20:10"}))
	for _, l := range lists {
		for _, tc := range []struct {
			name, after string
			ok          bool
		}{
			{"Empty", "", true},
			{"OfThisList", ofAda[l], true},
			{"OfThisListInAnotherPartition", photosOfBob, l == domain.ListPhotos}, // the read refuses it
			{"Garbage", "garbage", false},
			{"NotBase64", "%%%", false},
			{"NotJSON", base64.RawURLEncoding.EncodeToString([]byte("hello")), false},
			{"UnknownFields", base64.RawURLEncoding.EncodeToString([]byte(`{"l":"` + string(cursorLists[l]) + `","p":"USER#ada","s":"x","z":1}`)), false},
			{"SpeltAnotherWay", base64.RawURLEncoding.EncodeToString([]byte(`{"l": "` + string(cursorLists[l]) + `","p":"USER#ada","s":"x"}`)), false},
			{"Padded", ofAda[l] + "=", false},
			{"TooLong", strings.Repeat("A", 5000), false},
			{"ChangesWithAShortSignature", "e30.AAAA", false},
		} {
			t.Run(string(l)+"/"+tc.name, func(t *testing.T) {
				err := CheckCursor(l, tc.after)
				if tc.ok != (err == nil) || (err != nil && domain.ErrorCode(err) != domain.Invalid) {
					t.Errorf("CheckCursor(%q) = %v, want ok %v", tc.after, err, tc.ok)
				}
			})
		}
		for _, other := range lists {
			if other != l {
				if err := CheckCursor(l, ofAda[other]); domain.ErrorCode(err) != domain.Invalid {
					t.Errorf("%s took a cursor of %s: %v", l, other, err)
				}
			}
		}
	}
}
