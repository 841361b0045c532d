package itemfile

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// FuzzItemJSON: every item ItemReader accepts, WriteItemJSON writes so that ItemReader reads
// back the same item, which it writes again in the same bytes, and DynamoDB would store it
// (validateItem); nothing panics.
func FuzzItemJSON(f *testing.F) {
	for _, seed := range []string{
		`{"PK": "USER#a", "SK": "#METADATA#a", "followers": 3, "interests": ["x"], "m": {"k": null}}`,
		`{"PK": {"S": "p"}, "SK": {"S": "s"}, "ss": {"SS": ["a", "b"]}, "ns": {"NS": ["1", "2.5"]}, "b": {"B": "AAE="}}`,
		`{"Item": {"PK": {"S": "p"}, "n": {"N": "+1.0e3"}}}`,
		`{"PK": {"S": "p"}, "tags": {"SS": []}}`,
		`{"PK": "p", "": 1}`,
		`{"PK": "p\ud800"}`,
		`{"M": {"S": "x"}}`,
		`{"Item": {"Item": {}}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewItemReader(bytes.NewReader(data))
		for range 100 {
			item, err := r.Next()
			if err == io.EOF {
				return
			}
			var le *LineError
			if err != nil {
				if !errors.As(err, &le) {
					t.Fatalf("error %v is not a *LineError", err)
				}
				continue
			}
			if err := validateItem(item); err != nil {
				t.Fatalf("accepted an item DynamoDB refuses: %v", err)
			}
			var buf bytes.Buffer
			if err := WriteItemJSON(&buf, item); err != nil {
				t.Fatalf("cannot write an accepted item: %v", err)
			}
			line := buf.String()
			back, err := NewItemReader(strings.NewReader(line)).Next()
			if err != nil {
				t.Fatalf("cannot read back %s: %v", line, err)
			}
			if !reflect.DeepEqual(back, item) {
				t.Fatalf("read back %s as %#v, want %#v", line, back, item)
			}
			var again bytes.Buffer
			if err := WriteItemJSON(&again, back); err != nil || again.String() != line {
				t.Fatalf("written again as %s (%v), first as %s", again.String(), err, line)
			}
		}
	})
}
