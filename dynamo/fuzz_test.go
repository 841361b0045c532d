package dynamo

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/domain"
)

// FuzzDecodeCursor: decoding any string never panics, refuses with BAD_USER_INPUT or accepts,
// and what it accepts is exactly the cursor the server would have issued for some key (this
// release or an earlier one, whose keys spelt timestamps with a Z) whose canonical form is the
// key decoded, so a key has one spelling and a cursor can only name a key in the partition
// asked for.
func FuzzDecodeCursor(f *testing.F) {
	photo := PhotoKey(domain.PhotoKey{Owner: "ada", Timestamp: "2019-03-03T18:20:10"})
	f.Add(encodeCursor(listPhotos, photo))
	f.Add(encodeCursor(listPhotos, PhotoKey(domain.PhotoKey{Owner: "ada", Timestamp: "2019-03-03T18:20:10Z"})))
	f.Add(encodeCursor(listFollowers, photo))
	f.Add("")
	f.Add(base64.RawURLEncoding.EncodeToString([]byte(`{"l":"photos","p":"USER#ada","s":"x","z":1}`)))
	inAda := func(k Key) bool { return k.PK == userPK("ada") && strings.HasPrefix(k.SK, photoPrefix("ada")) }
	f.Fuzz(func(t *testing.T, after string) {
		k, ok, err := decodeCursor(after, listPhotos, inAda)
		switch {
		case err != nil:
			if domain.ErrorCode(err) != domain.Invalid || ok {
				t.Fatalf("refused %q with %v (ok %v), want BAD_USER_INPUT", after, err, ok)
			}
		case !ok:
			if after != "" {
				t.Fatalf("%q read as the start", after)
			}
		default:
			if !inAda(k) {
				t.Fatalf("%q decoded to %+v, outside the partition", after, k)
			}
			if again := encodeCursor(listPhotos, k); again != after {
				b, _ := base64.RawURLEncoding.DecodeString(after)
				var issued cursor
				_ = json.Unmarshal(b, &issued)
				raw := Key{PK: issued.PK, SK: issued.SK}
				if encodeCursor(listPhotos, raw) != after || canonicalCursorKey(raw) != k {
					t.Fatalf("%q decoded to %+v, which the server spells %q, and is no earlier spelling of it", after, k, again)
				}
			}
		}
	})
}
