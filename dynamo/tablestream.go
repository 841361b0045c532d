package dynamo

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// tableStream is the table's change stream: new and old images, so that a consumer knows what
// a removed item was and what an update changed (the feed and the subscriptions read it).
var tableStream = types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}

// ErrNoStream is returned by StreamARN when the table has no change stream.
var ErrNoStream = errors.New("no change stream")

// enableStream turns on the table's change stream when it is off. A stream with another view
// type is an error: the consumers need both images, and switching would lose its records.
func (s *Store) enableStream(ctx context.Context, desc *types.TableDescription) error {
	if spec := desc.StreamSpecification; spec != nil && aws.ToBool(spec.StreamEnabled) {
		if spec.StreamViewType != tableStream.StreamViewType {
			return fmt.Errorf("table %s has a %s stream: quickphotos needs %s; switch it in the console or with `aws dynamodb update-table`", s.table, spec.StreamViewType, tableStream.StreamViewType)
		}
		return nil
	}
	spec := tableStream
	if _, err := s.api.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: &s.table, StreamSpecification: &spec}); err != nil {
		return fmt.Errorf("enabling the stream of table %s: %w", s.table, err)
	}
	return s.waitActive(ctx)
}

// TTLAttribute is the attribute by which the table expires items (feed entries carry it);
// CreateTable turns TTL on with it.
const TTLAttribute = attrExpiresAt

// enableExpiry makes attrExpiresAt the table's TTL attribute (feed entries expire by it),
// unless TTL is on already.
func (s *Store) enableExpiry(ctx context.Context) error {
	out, err := s.api.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: &s.table})
	if err != nil {
		return fmt.Errorf("describing the TTL of table %s: %w", s.table, err)
	}
	if d := out.TimeToLiveDescription; d != nil && (d.TimeToLiveStatus == types.TimeToLiveStatusEnabled || d.TimeToLiveStatus == types.TimeToLiveStatusEnabling) {
		if name := aws.ToString(d.AttributeName); name != attrExpiresAt {
			return fmt.Errorf("table %s expires items by %q: quickphotos needs %q", s.table, name, attrExpiresAt)
		}
		return nil
	}
	_, err = s.api.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{
		TableName:               &s.table,
		TimeToLiveSpecification: &types.TimeToLiveSpecification{Enabled: aws.Bool(true), AttributeName: aws.String(attrExpiresAt)},
	})
	if err != nil {
		return fmt.Errorf("enabling TTL on table %s: %w", s.table, err)
	}
	return nil
}

// StreamARN returns the ARN of the table's change stream; ErrNoStream (wrapped, with a hint)
// when it has none.
func (s *Store) StreamARN(ctx context.Context) (string, error) {
	desc, err := s.describe(ctx)
	if err != nil {
		return "", err
	}
	if spec := desc.StreamSpecification; spec == nil || !aws.ToBool(spec.StreamEnabled) || desc.LatestStreamArn == nil {
		return "", fmt.Errorf("%w: table %s has no stream; run `quickphotos table create` (it enables one) or serve with --create-table", ErrNoStream, s.table)
	}
	return *desc.LatestStreamArn, nil
}
