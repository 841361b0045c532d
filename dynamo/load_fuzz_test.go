package dynamo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/quickphotos/quickphotos/ddb"
	"github.com/quickphotos/quickphotos/ddb/attr"
)

// FuzzLoad loads any file into a real table (the embedded engine, in memory) and checks
// Load's promise: it writes every item up to the first bad one, stops there naming that
// item's line and how many it wrote, and the table then holds exactly those items (the last
// of each key), as they were read.
func FuzzLoad(f *testing.F) {
	for _, seed := range []string{
		`{"PK": "USER#a", "SK": "#METADATA#a", "username": "a"}` + "\n" + `{"PK": "USER#b", "SK": "#METADATA#b"}`,
		`{"PK": "USER#a", "SK": "#METADATA#a"}` + "\n" + `{"PK": {"S": "USER#c"}, "SK": {"S": "#METADATA#c"}, "tags": {"SS": []}}` + "\n" + `{"PK": "USER#d", "SK": "#METADATA#d"}`,
		`{"PK": "USER#a", "SK": "PHOTO#a#2018-05-30T15:42:38", "timestamp": "2018-05-30T15:42:38"}`,
		`{"PK": "USER#a", "SK": "#METADATA#a", "n": 1}` + "\n" + `{"PK": "USER#a", "SK": "#METADATA#a", "n": 2}`,
		`{"PK": "USER#a", "SK": "x", "": 1}`,
		`{"PK": "USER#a"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, wantLine := expectedLoad(data)

		engine, err := ddb.OpenMemory(nil)
		if err != nil {
			t.Fatal(err)
		}
		defer engine.Close()
		ctx := context.Background()
		store := New(engine.Client(), DefaultTable)
		if err := store.CreateTable(ctx); err != nil {
			t.Fatal(err)
		}
		written, err := Load(ctx, engine.Client(), DefaultTable, NewItemReader(bytes.NewReader(data)), nil)

		var le *LineError
		switch {
		case wantLine == 0 && err != nil:
			t.Fatalf("Load refused a file the reader accepts: %v", err)
		case wantLine != 0 && (!errors.As(err, &le) || le.Line != wantLine):
			t.Fatalf("Load = %v, want the bad item of line %d", err, wantLine)
		}
		out, err := engine.Client().Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(DefaultTable), ConsistentRead: aws.Bool(true)})
		if err != nil {
			t.Fatal(err)
		}
		if int(out.Count) != len(want) {
			t.Fatalf("the table holds %d items, want %d (Load wrote %d)", out.Count, len(want), written)
		}
		for _, got := range out.Items {
			w, ok := want[keyOf(got)]
			if !ok {
				t.Fatalf("the table holds %v, which the file did not give before its first bad item", keyOf(got))
			}
			if !attr.EqualItems(engineItem(t, got), engineItem(t, w)) {
				t.Fatalf("item %v reads back as %v, loaded as %v", keyOf(got), got, w)
			}
		}
	})
}

// expectedLoad reads data as Load does and returns the items Load must write (the last of
// each key) before the first bad item, and that item's line (0 when there is none).
func expectedLoad(data []byte) (map[Key]Item, int) {
	want := map[Key]Item{}
	r := NewItemReader(bytes.NewReader(data))
	for {
		item, err := r.Next()
		if err == io.EOF {
			return want, 0
		}
		if err == nil {
			item, err = checkLoadItem(item, r.Line())
		}
		if err != nil {
			return want, r.Line()
		}
		want[keyOf(item)] = item
	}
}

// engineItem is item as the engine holds it (numbers normalised), for comparing what was
// loaded with what reads back.
func engineItem(t *testing.T, item Item) attr.Item {
	t.Helper()
	typed, err := typedItem(item)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(typed)
	if err != nil {
		t.Fatal(err)
	}
	it, err := attr.DecodeItem(data)
	if err != nil {
		t.Fatal(err)
	}
	return it
}
