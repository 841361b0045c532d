package dynamo

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/quickphotos/quickphotos/domain"
)

// scriptedWriter answers each BatchWriteItem as its script says, by call: an error, or how many
// of the request's last items to leave unprocessed.
type scriptedWriter struct {
	calls  [][]Key
	answer func(call int) (unprocessed int, err error)
}

func (w *scriptedWriter) BatchWriteItem(_ context.Context, in *dynamodb.BatchWriteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	reqs := in.RequestItems["t"]
	var keys []Key
	for _, r := range reqs {
		keys = append(keys, keyOf(r.PutRequest.Item))
	}
	w.calls = append(w.calls, keys)
	n, err := w.answer(len(w.calls))
	if err != nil {
		return nil, err
	}
	return &dynamodb.BatchWriteItemOutput{UnprocessedItems: map[string][]types.WriteRequest{"t": reqs[len(reqs)-n:]}}, nil
}

func TestBackoff_PutItems(t *testing.T) {
	items := make([]Item, 4)
	for i := range items {
		items[i] = UserKey(fmt.Sprintf("u%d", i)).item()
	}
	refused := &smithy.GenericAPIError{Code: "ValidationException", Message: "refused"}
	for _, tc := range []struct {
		name      string
		answer    func(call int) (int, error)
		calls     int
		written   int
		unwritten int  // how many items PutItems returns as not written
		refused   bool // DynamoDB's ValidationException in the chain
		code      domain.Code
	}{
		{name: "all at once", answer: func(int) (int, error) { return 0, nil }, calls: 1, written: 4},
		{name: "unprocessed, then written", answer: func(call int) (int, error) { return max(0, 3-call), nil }, calls: 3, written: 4},
		{name: "refused", answer: func(int) (int, error) { return 0, refused }, calls: 1, unwritten: 4, refused: true, code: domain.Internal},
		{name: "refused after some were written", answer: func(call int) (int, error) {
			if call == 1 {
				return 3, nil
			}
			return 0, refused
		}, calls: 2, written: 1, unwritten: 3, refused: true, code: domain.Internal},
		{name: "unprocessed for good", answer: func(call int) (int, error) { return 2, nil }, calls: 3, written: 2, unwritten: 2, code: domain.Unavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &scriptedWriter{answer: tc.answer}
			written := 0
			left, err := Backoff{Attempts: 2, Base: time.Microsecond, Max: time.Microsecond}.PutItems(context.Background(), w, "t", items, func(n int) { written += n })
			var apiErr smithy.APIError
			switch {
			case len(w.calls) != tc.calls || written != tc.written || len(left) != tc.unwritten:
				t.Errorf("%d calls wrote %d, left %d (%v); want %d calls, %d written, %d left", len(w.calls), written, len(left), err, tc.calls, tc.written, tc.unwritten)
			case tc.unwritten == 0 && err != nil:
				t.Errorf("error %v", err)
			case tc.unwritten > 0 && domain.ErrorCode(err) != tc.code:
				t.Errorf("error %v, want code %s", err, tc.code)
			case errors.As(err, &apiErr) != tc.refused:
				t.Errorf("error %v: ValidationException in the chain %v, want %v", err, !tc.refused, tc.refused)
			}
			for i, item := range left { // the last ones: the scripted writer leaves a request's tail
				if want := items[len(items)-len(left)+i]; keyOf(item) != keyOf(want) {
					t.Errorf("left %v at %d, want %v", keyOf(item), i, keyOf(want))
				}
			}
		})
	}
}
