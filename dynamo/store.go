package dynamo

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/quickphotos/quickphotos/domain"
)

// API is the part of the DynamoDB API the store uses; *dynamodb.Client implements it.
type API interface {
	GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	PutItem(context.Context, *dynamodb.PutItemInput, ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
	UpdateItem(context.Context, *dynamodb.UpdateItemInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
	Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)
	Scan(context.Context, *dynamodb.ScanInput, ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
	BatchGetItem(context.Context, *dynamodb.BatchGetItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error)
	BatchWriteItem(context.Context, *dynamodb.BatchWriteItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error)
	TransactWriteItems(context.Context, *dynamodb.TransactWriteItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error)
	CreateTable(context.Context, *dynamodb.CreateTableInput, ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error)
	DescribeTable(context.Context, *dynamodb.DescribeTableInput, ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error)
	UpdateTable(context.Context, *dynamodb.UpdateTableInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateTableOutput, error)
	UpdateTimeToLive(context.Context, *dynamodb.UpdateTimeToLiveInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateTimeToLiveOutput, error)
	DescribeTimeToLive(context.Context, *dynamodb.DescribeTimeToLiveInput, ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error)
}

// DefaultTable is the table's name unless configured otherwise.
const DefaultTable = "quick-photos"

// Store runs the access patterns against one table. It is safe for concurrent use.
type Store struct {
	api   API
	table string
	// now is the clock for the timestamps the server assigns.
	now func() time.Time
	// retry bounds the retries of transaction conflicts and unprocessed batch items.
	retry retryPolicy
	// observer, when set, is told about every request.
	observer Observer
	// syncKey caches the key that signs change log cursors (synccursor.go).
	syncKey syncKeyCache
}

// New returns a Store for table, reached through api.
func New(api API, table string, opts ...Option) *Store {
	s := &Store{api: api, table: table, now: time.Now, retry: defaultRetry}
	for _, o := range opts {
		o(s)
	}
	return s
}

// WithClock makes now the store's clock, for the timestamps it assigns (time.Now without it):
// a test that needs a write made in the past, a photo deletion begun before its lease, say.
func WithClock(now func() time.Time) Option {
	return func(s *Store) { s.now = now }
}

// Table is the name of the store's table.
func (s *Store) Table() string { return s.table }

// Now is the store's clock, formatted as a timestamp.
func (s *Store) Now() string { return domain.Timestamp(s.now()) }

// retryPolicy is a bounded exponential backoff.
type retryPolicy struct {
	attempts int
	base     time.Duration
	max      time.Duration
}

var defaultRetry = retryPolicy{attempts: 8, base: 10 * time.Millisecond, max: 500 * time.Millisecond}

// wait sleeps before retry number attempt (1-based), with full jitter; false when ctx ended.
func (p retryPolicy) wait(ctx context.Context, attempt int) bool {
	d := p.base << (attempt - 1)
	if d > p.max || d <= 0 {
		d = p.max
	}
	d = time.Duration(jitter(int64(d)))
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
