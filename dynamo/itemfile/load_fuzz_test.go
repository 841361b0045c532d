package itemfile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/quickphotos/quickphotos/ddb"
	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/dynamo"
)

// FuzzLoad loads any file into a real table (the embedded engine, in memory) and checks
// Load's promise: it writes every item up to the first bad one, stops there naming that
// item's line and how many it wrote, and the table then holds exactly those items (the last
// of each key), as they were read. A bad item is one the reader refuses, or one the engine
// refuses on its own (keys too long for the table).
func FuzzLoad(f *testing.F) {
	for _, seed := range []string{
		`{"PK": "USER#a", "SK": "#METADATA#a", "username": "a"}` + "\n" + `{"PK": "USER#b", "SK": "#METADATA#b"}`,
		`{"PK": "USER#a", "SK": "#METADATA#a"}` + "\n" + `{"PK": {"S": "USER#c"}, "SK": {"S": "#METADATA#c"}, "tags": {"SS": []}}` + "\n" + `{"PK": "USER#d", "SK": "#METADATA#d"}`,
		`{"PK": "USER#a", "SK": "PHOTO#a#2018-05-30T15:42:38", "timestamp": "2018-05-30T15:42:38"}`,
		`{"PK": "USER#a", "SK": "#METADATA#a", "n": 1}` + "\n" + `{"PK": "USER#a", "SK": "#METADATA#a", "n": 2}`,
		`{"PK": "USER#a", "SK": "x", "": 1}`,
		`{"PK": "USER#a"}`,
		// Keys too long for the table (and its index, whose sort key is PK): refused by the
		// engine, not the reader.
		`{"PK": "USER#a", "SK": "x"}` + "\n" + `{"PK": "USER#b", "SK": "` + strings.Repeat("s", 1025) + `"}` + "\n" + `{"PK": "USER#c", "SK": "x"}`,
		`{"PK": "USER#` + strings.Repeat("p", 1020) + `", "SK": "x"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		good, wantLine := readForLoad(data)

		engine, err := ddb.OpenMemory(nil)
		if err != nil {
			t.Fatal(err)
		}
		defer engine.Close()
		ctx := context.Background()
		store := dynamo.New(engine.API(), dynamo.DefaultTable)
		if err := store.CreateTable(ctx); err != nil {
			t.Fatal(err)
		}
		written, err := Load(ctx, engine.API(), dynamo.DefaultTable, NewItemReader(bytes.NewReader(data)), nil)

		var le *LineError
		// The reader does not check what depends on the table, such as the size of the keys:
		// DynamoDB refuses those items when they are sent. Load may stop at one of them
		// instead, when the engine refuses that item on its own; it may be on the reader's bad
		// line itself, before what breaks that line (testdata: refused-item-then-bad-text).
		if errors.As(err, &le) && (wantLine == 0 || le.Line <= wantLine) && strings.HasPrefix(le.Err.Error(), "DynamoDB refused the item") {
			i := sort.Search(len(good), func(i int) bool { return good[i].line >= le.Line })
			if i == len(good) || good[i].line != le.Line {
				t.Fatalf("Load = %v, but line %d starts no item", err, le.Line)
			}
			_, perr := engine.API().PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(dynamo.DefaultTable), Item: good[i].item})
			if !isValidationError(perr) {
				t.Fatalf("Load = %v, but the engine takes that item on its own (%v)", err, perr)
			}
			good, wantLine = good[:i], le.Line
		}
		want := map[dynamo.Key]Item{} // the last of each key
		for _, g := range good {
			want[dynamo.KeyOf(g.item)] = g.item
		}
		puts := len(good) // one an item, keys repeated or not
		switch {
		case wantLine == 0 && err != nil:
			t.Fatalf("Load refused a file the reader accepts: %v", err)
		case wantLine != 0 && (!errors.As(err, &le) || le.Line != wantLine):
			t.Fatalf("Load = %v, want the bad item of line %d", err, wantLine)
		case wantLine != 0 && !strings.HasSuffix(err.Error(), "("+writtenBefore(puts)+")"):
			t.Fatalf("Load = %v, which does not say that %d items were written", err, puts)
		case written != puts:
			t.Fatalf("Load wrote %d items, want the %d before the first bad one", written, puts)
		}
		out, err := engine.API().Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(dynamo.DefaultTable), ConsistentRead: aws.Bool(true)})
		if err != nil {
			t.Fatal(err)
		}
		if int(out.Count) != len(want) {
			t.Fatalf("the table holds %d items, want %d (Load wrote %d)", out.Count, len(want), written)
		}
		for _, got := range out.Items {
			w, ok := want[dynamo.KeyOf(got)]
			if !ok {
				t.Fatalf("the table holds %v, which the file did not give before its first bad item", dynamo.KeyOf(got))
			}
			if !attr.EqualItems(engineItem(t, got), engineItem(t, w)) {
				t.Fatalf("item %v reads back as %v, loaded as %v", dynamo.KeyOf(got), got, w)
			}
		}
	})
}

// lineItem is an item of an items file and the line it starts on.
type lineItem struct {
	line int
	item Item
}

// readForLoad reads data as Load does and returns the items before the first bad one, and
// that item's line (0 when there is none).
func readForLoad(data []byte) (good []lineItem, bad int) {
	r := NewItemReader(bytes.NewReader(data))
	for {
		item, err := r.Next()
		if err == io.EOF {
			return good, 0
		}
		if err == nil {
			item, err = checkLoadItem(item, r.Line())
		}
		if err != nil {
			return good, r.Line()
		}
		good = append(good, lineItem{r.Line(), item})
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
