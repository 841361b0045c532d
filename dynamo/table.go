package dynamo

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// ErrTableMissing is returned by CheckTable when the table or its index does not exist.
var ErrTableMissing = errors.New("table missing")

var (
	keyAttributes = []types.AttributeDefinition{
		{AttributeName: aws.String(attrPK), AttributeType: types.ScalarAttributeTypeS},
		{AttributeName: aws.String(attrSK), AttributeType: types.ScalarAttributeTypeS},
	}
	invertedIndex = types.GlobalSecondaryIndex{
		IndexName: aws.String(InvertedIndexName),
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String(attrSK), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(attrPK), KeyType: types.KeyTypeRange},
		},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
	}
)

// TableDefinition is the table named table as CreateTable creates it: PK and SK strings, the
// InvertedIndex, on-demand billing and a stream with new and old images. The deployment
// template (deploy/template.yaml) is checked against it, so the two cannot drift apart.
func TableDefinition(table string) *dynamodb.CreateTableInput {
	stream := tableStream
	return &dynamodb.CreateTableInput{
		TableName:              aws.String(table),
		AttributeDefinitions:   slices.Clone(keyAttributes),
		KeySchema:              tableKeySchema(),
		BillingMode:            types.BillingModePayPerRequest,
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{invertedIndex},
		StreamSpecification:    &stream,
	}
}

// CreateTable creates the table with its InvertedIndex, on-demand billing, and waits until both
// are active. It is idempotent: an existing table with the right keys is fine, and the index is
// added to one that lacks it (as the tutorial does after loading its data). A table whose keys
// differ is an error that names the difference.
func (s *Store) CreateTable(ctx context.Context) error {
	desc, err := s.describe(ctx)
	if errors.Is(err, ErrTableMissing) {
		_, err = s.api.CreateTable(ctx, TableDefinition(s.table))
		var inUse *types.ResourceInUseException
		if err != nil && !errors.As(err, &inUse) {
			return fmt.Errorf("creating table %s: %w", s.table, err)
		}
		if err := s.waitActive(ctx); err != nil {
			return err
		}
		return s.enableExpiry(ctx)
	}
	if err != nil {
		return err
	}
	if err := checkKeys(s.table, desc); err != nil {
		return err
	}
	if findIndex(desc) == nil {
		_, err := s.api.UpdateTable(ctx, &dynamodb.UpdateTableInput{
			TableName:            &s.table,
			AttributeDefinitions: keyAttributes,
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
				IndexName: invertedIndex.IndexName, KeySchema: invertedIndex.KeySchema, Projection: invertedIndex.Projection,
				ProvisionedThroughput: provisionedFor(desc),
			}}},
		})
		if err != nil {
			return fmt.Errorf("adding %s to table %s: %w", InvertedIndexName, s.table, err)
		}
	} else if err := checkIndex(desc); err != nil {
		return err
	}
	if err := s.waitActive(ctx); err != nil {
		return err
	}
	if err := s.enableStream(ctx, desc); err != nil {
		return err
	}
	return s.enableExpiry(ctx)
}

// CheckTable verifies that the table and its index exist with the keys the access patterns
// need. ErrTableMissing (wrapped, with a hint) when something is absent.
func (s *Store) CheckTable(ctx context.Context) error {
	desc, err := s.describe(ctx)
	if err != nil {
		return err
	}
	if err := checkKeys(s.table, desc); err != nil {
		return err
	}
	if findIndex(desc) == nil {
		return fmt.Errorf("%w: table %s has no %s index; run `quickphotos table create` or serve with --create-table", ErrTableMissing, s.table, InvertedIndexName)
	}
	return checkIndex(desc)
}

func (s *Store) describe(ctx context.Context) (*types.TableDescription, error) {
	out, err := s.api.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: &s.table})
	var nf *types.ResourceNotFoundException
	if errors.As(err, &nf) {
		return nil, fmt.Errorf("%w: table %s does not exist; run `quickphotos table create` or serve with --create-table", ErrTableMissing, s.table)
	}
	if err != nil {
		return nil, fmt.Errorf("describing table %s: %w", s.table, err)
	}
	return out.Table, nil
}

func tableKeySchema() []types.KeySchemaElement {
	return []types.KeySchemaElement{
		{AttributeName: aws.String(attrPK), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String(attrSK), KeyType: types.KeyTypeRange},
	}
}

func checkKeys(table string, d *types.TableDescription) error {
	if !sameKeys(d.KeySchema, tableKeySchema()) || !stringKeys(d.AttributeDefinitions) {
		return fmt.Errorf("table %s exists with another key schema: quickphotos needs PK (HASH, S) and SK (RANGE, S)", table)
	}
	return nil
}

func checkIndex(d *types.TableDescription) error {
	gsi := findIndex(d)
	if !sameKeys(gsi.KeySchema, invertedIndex.KeySchema) || gsi.Projection == nil || gsi.Projection.ProjectionType != types.ProjectionTypeAll {
		return fmt.Errorf("index %s of table %s differs: quickphotos needs SK (HASH), PK (RANGE) and projection ALL", InvertedIndexName, aws.ToString(d.TableName))
	}
	return nil
}

func findIndex(d *types.TableDescription) *types.GlobalSecondaryIndexDescription {
	for i := range d.GlobalSecondaryIndexes {
		if aws.ToString(d.GlobalSecondaryIndexes[i].IndexName) == InvertedIndexName {
			return &d.GlobalSecondaryIndexes[i]
		}
	}
	return nil
}

func sameKeys(a, b []types.KeySchemaElement) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if aws.ToString(a[i].AttributeName) != aws.ToString(b[i].AttributeName) || a[i].KeyType != b[i].KeyType {
			return false
		}
	}
	return true
}

func stringKeys(defs []types.AttributeDefinition) bool {
	n := 0
	for _, d := range defs {
		name := aws.ToString(d.AttributeName)
		if name == attrPK || name == attrSK {
			if d.AttributeType != types.ScalarAttributeTypeS {
				return false
			}
			n++
		}
	}
	return n == 2
}

// provisionedFor gives a new index the table's provisioned throughput; on-demand tables need none.
func provisionedFor(d *types.TableDescription) *types.ProvisionedThroughput {
	if d.BillingModeSummary != nil && d.BillingModeSummary.BillingMode == types.BillingModePayPerRequest {
		return nil
	}
	if d.ProvisionedThroughput == nil || aws.ToInt64(d.ProvisionedThroughput.ReadCapacityUnits) == 0 {
		return nil
	}
	return &types.ProvisionedThroughput{
		ReadCapacityUnits:  d.ProvisionedThroughput.ReadCapacityUnits,
		WriteCapacityUnits: d.ProvisionedThroughput.WriteCapacityUnits,
	}
}

// waitActive polls until the table and its index are ACTIVE, for at most five minutes.
func (s *Store) waitActive(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	for attempt := 1; ; attempt++ {
		d, err := s.describe(ctx)
		if err == nil && d.TableStatus == types.TableStatusActive {
			if gsi := findIndex(d); gsi != nil && gsi.IndexStatus == types.IndexStatusActive {
				return nil
			}
		}
		if err != nil && !errors.Is(err, ErrTableMissing) {
			return err
		}
		delay := min(time.Duration(attempt)*100*time.Millisecond, 2*time.Second)
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for table %s to become active: %w", s.table, ctx.Err())
		case <-time.After(delay):
		}
	}
}

// Empty reports whether the table holds no item at all (one Scan of one item).
func (s *Store) Empty(ctx context.Context) (bool, error) {
	out, err := s.scan(ctx, &dynamodb.ScanInput{Limit: aws.Int32(1)})
	if err != nil {
		return false, err
	}
	return len(out.Items) == 0, nil
}
