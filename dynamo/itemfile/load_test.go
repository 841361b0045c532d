package itemfile

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
)

// fakeWriter is a table behind BatchWriteItem. It checks each request as DynamoDB does and
// leaves items unprocessed as unprocessed says.
type fakeWriter struct {
	t     *testing.T
	mu    sync.Mutex
	table map[dynamo.Key]Item
	puts  int
	calls []int // the size of each request
	// unprocessed returns how many of a request's last items to leave unprocessed; call is 1-based.
	unprocessed func(call, size int) int
	err         error
	// refuse, when set, makes a request holding an item it picks fail as a whole, as
	// DynamoDB's ValidationException does.
	refuse func(Item) bool
}

func newFakeWriter(t *testing.T) *fakeWriter {
	return &fakeWriter{t: t, table: map[dynamo.Key]Item{}, unprocessed: func(int, int) int { return 0 }}
}

func (f *fakeWriter) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	reqs := in.RequestItems["quick-photos"]
	if len(in.RequestItems) != 1 || len(reqs) == 0 || len(reqs) > 25 {
		f.t.Fatalf("bad request: %d tables, %d requests", len(in.RequestItems), len(reqs))
	}
	seen := map[dynamo.Key]bool{}
	for _, r := range reqs {
		if f.refuse != nil && f.refuse(r.PutRequest.Item) {
			return nil, &smithy.GenericAPIError{Code: "ValidationException", Message: "One or more parameter values were invalid: refused by the test"}
		}
		k := fakeKeyOf(r.PutRequest.Item)
		if seen[k] {
			return nil, &smithy.GenericAPIError{Code: "ValidationException", Message: "Provided list of item keys contains duplicates"}
		}
		seen[k] = true
	}
	f.calls = append(f.calls, len(reqs))
	n := min(len(reqs), f.unprocessed(len(f.calls), len(reqs)))
	for _, r := range reqs[:len(reqs)-n] {
		f.table[fakeKeyOf(r.PutRequest.Item)] = r.PutRequest.Item
		f.puts++
	}
	out := &dynamodb.BatchWriteItemOutput{UnprocessedItems: map[string][]types.WriteRequest{}}
	if n > 0 {
		out.UnprocessedItems["quick-photos"] = reqs[len(reqs)-n:]
	}
	return out, nil
}

func fakeKeyOf(item Item) dynamo.Key {
	return dynamo.Key{PK: item["PK"].(*types.AttributeValueMemberS).Value, SK: item["SK"].(*types.AttributeValueMemberS).Value}
}

// itemLines is n items in plain JSON, one a line: user0 … user<n-1>.
func itemLines(n int) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf(`{"PK": "USER#user%d", "SK": "#METADATA#user%d", "followers": %d}`, i, i, i)
	}
	return lines
}

func fastRetry(t *testing.T, attempts int) {
	saved := loadRetry
	loadRetry = dynamo.Backoff{Attempts: attempts, Base: time.Microsecond, Max: 10 * time.Microsecond}
	t.Cleanup(func() { loadRetry = saved })
}

func load(ctx context.Context, f *fakeWriter, input string) (int, []int, error) {
	var progress []int
	n, err := Load(ctx, f, "quick-photos", NewItemReader(strings.NewReader(input)), func(w int) { progress = append(progress, w) })
	return n, progress, err
}

func TestLoad(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		f := newFakeWriter(t)
		n, progress, err := load(context.Background(), f, strings.Join(itemLines(60), "\n"))
		if err != nil || n != 60 || len(f.table) != 60 {
			t.Fatalf("Load = %d, %v; table has %d items, want 60", n, err, len(f.table))
		}
		if fmt.Sprint(f.calls) != "[25 25 10]" || fmt.Sprint(progress) != "[25 50 60]" {
			t.Errorf("requests %v, progress %v; want [25 25 10], [25 50 60]", f.calls, progress)
		}
	})

	t.Run("Empty", func(t *testing.T) {
		f := newFakeWriter(t)
		if n, _, err := load(context.Background(), f, "\n"); n != 0 || err != nil || len(f.calls) != 0 {
			t.Errorf("Load = %d, %v after %d requests", n, err, len(f.calls))
		}
	})

	t.Run("AnItemDynamoDBRefusesIsNamedByItsLine", func(t *testing.T) {
		f := newFakeWriter(t)
		f.refuse = func(item Item) bool { return fakeKeyOf(item).PK == "USER#user19" }
		n, _, err := load(context.Background(), f, strings.Join(itemLines(30), "\n"))
		var le *LineError
		if !errors.As(err, &le) || le.Line != 20 || !strings.Contains(err.Error(), "refused by the test") || !strings.Contains(err.Error(), "19 items before it were written") {
			t.Fatalf("Load = %d, %v; want line 20 refused with DynamoDB's message after 19 items", n, err)
		}
		if n != 19 || len(f.table) != 19 {
			t.Fatalf("wrote %d (table %d), want the 19 items before line 20", n, len(f.table))
		}
		for i := range 19 {
			if _, ok := f.table[dynamo.Key{PK: fmt.Sprintf("USER#user%d", i), SK: fmt.Sprintf("#METADATA#user%d", i)}]; !ok {
				t.Errorf("item of line %d not written", i+1)
			}
		}
	})

	t.Run("RetriesUnprocessed", func(t *testing.T) {
		fastRetry(t, 3)
		f := newFakeWriter(t)
		// The first three requests each leave 10 items unprocessed, then all goes through.
		f.unprocessed = func(call, size int) int {
			if call <= 3 {
				return 10
			}
			return 0
		}
		n, progress, err := load(context.Background(), f, strings.Join(itemLines(30), "\n"))
		if err != nil || n != 30 || len(f.table) != 30 || f.puts != 30 {
			t.Fatalf("Load = %d, %v; table has %d items after %d puts, want 30", n, err, len(f.table), f.puts)
		}
		if fmt.Sprint(f.calls) != "[25 10 10 10 5]" || fmt.Sprint(progress) != "[15 25 30]" {
			t.Errorf("requests %v, progress %v", f.calls, progress)
		}
	})

	t.Run("ProgressResetsRetries", func(t *testing.T) {
		fastRetry(t, 2)
		f := newFakeWriter(t)
		// One item a request: many retries in all, but each one makes progress.
		f.unprocessed = func(_, size int) int { return size - 1 }
		n, _, err := load(context.Background(), f, strings.Join(itemLines(25), "\n"))
		if err != nil || n != 25 || len(f.calls) != 25 {
			t.Fatalf("Load = %d, %v after %d requests; want 25, nil after 25", n, err, len(f.calls))
		}
	})

	t.Run("DuplicateKeys", func(t *testing.T) {
		f := newFakeWriter(t)
		lines := itemLines(10)
		lines[6] = `{"PK": "USER#user2", "SK": "#METADATA#user2", "followers": 99}`
		n, _, err := load(context.Background(), f, strings.Join(lines, "\n"))
		if err != nil || n != 10 || len(f.table) != 9 {
			t.Fatalf("Load = %d, %v; table has %d items; want 10 written, 9 in the table", n, err, len(f.table))
		}
		if fmt.Sprint(f.calls) != "[6 4]" {
			t.Errorf("requests %v, want [6 4]: flushed before the duplicate", f.calls)
		}
		if got := f.table[dynamo.UserKey("user2")]["followers"].(*types.AttributeValueMemberN).Value; got != "99" {
			t.Errorf("user2 has followers %s, want the later item's 99", got)
		}
	})

	t.Run("ErrBadLine", func(t *testing.T) {
		f := newFakeWriter(t)
		lines := itemLines(60)
		lines[39] = `{"PK": "USER#bad", "SK": oops}`
		n, _, err := load(context.Background(), f, strings.Join(lines, "\n"))
		var le *LineError
		if !errors.As(err, &le) || le.Line != 40 {
			t.Fatalf("error %v, want a *LineError at line 40", err)
		}
		if n != 39 || len(f.table) != 39 {
			t.Errorf("Load = %d with %d items in the table, want the 39 before the bad line", n, len(f.table))
		}
		if msg := err.Error(); !strings.Contains(msg, "line 40") || !strings.Contains(msg, "39 items before it were written") {
			t.Errorf("error %q does not name the line and the items written", msg)
		}
	})

	t.Run("ErrBadSecondLine", func(t *testing.T) {
		f := newFakeWriter(t)
		lines := append(itemLines(1), `{"PK": {"S": "USER#bad"}, "SK": {"S": "x"}, "tags": {"SS": []}}`)
		n, _, err := load(context.Background(), f, strings.Join(lines, "\n"))
		want := `line 2: attribute "tags": One or more parameter values were invalid: An string set  may not be empty`
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasSuffix(err.Error(), "(the 1 item before it was written)") || n != 1 || len(f.table) != 1 {
			t.Errorf("Load = %d, %v; want %q and the 1 item before it written", n, err, want)
		}
	})

	t.Run("ErrItemWithoutKey", func(t *testing.T) {
		f := newFakeWriter(t)
		lines := append(itemLines(3), `{"PK": "USER#x", "name": "no sort key"}`)
		n, _, err := load(context.Background(), f, strings.Join(lines, "\n"))
		if err == nil || !strings.Contains(err.Error(), "line 4: item without its key: want a non-empty string attribute SK") || n != 3 {
			t.Errorf("Load = %d, %v", n, err)
		}
	})

	t.Run("ErrStaysUnprocessed", func(t *testing.T) {
		fastRetry(t, 3)
		f := newFakeWriter(t)
		f.unprocessed = func(int, int) int { return 5 }
		n, _, err := load(context.Background(), f, strings.Join(itemLines(8), "\n"))
		if domain.ErrorCode(err) != domain.Unavailable {
			t.Fatalf("error %v, want one with code %s", err, domain.Unavailable)
		}
		if n != 3 || len(f.calls) != 1+3 || !strings.Contains(err.Error(), "lines 1-8: 5 items stayed unprocessed") {
			t.Errorf("Load = %d after %d requests: %v", n, len(f.calls), err)
		}
	})

	t.Run("ErrContextCanceled", func(t *testing.T) {
		saved := loadRetry
		loadRetry = dynamo.Backoff{Attempts: 5, Base: time.Hour, Max: time.Hour}
		t.Cleanup(func() { loadRetry = saved })
		f := newFakeWriter(t)
		f.unprocessed = func(int, int) int { return 1 }
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		n, _, err := load(ctx, f, strings.Join(itemLines(3), "\n"))
		if !errors.Is(err, context.DeadlineExceeded) || n != 2 {
			t.Errorf("Load = %d, %v; want 2 and the context's error", n, err)
		}
	})

	t.Run("ErrClient", func(t *testing.T) {
		f := newFakeWriter(t)
		f.err = &smithy.GenericAPIError{Code: "ResourceNotFoundException", Message: "no table"}
		_, _, err := load(context.Background(), f, strings.Join(itemLines(3), "\n"))
		if err == nil || !strings.Contains(err.Error(), "lines 1-3") || !strings.Contains(err.Error(), "table or index missing") {
			t.Errorf("error %v", err)
		}
	})
}
