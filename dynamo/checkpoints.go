package dynamo

import (
	"context"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Checkpoint is how far a stream consumer got in one shard of the table's stream.
type Checkpoint struct {
	Shard string
	// SequenceNumber is the last record the consumer handled; "" for none yet.
	SequenceNumber string
	// Done says the consumer read the shard to its end (a closed shard): its children may go.
	Done bool
}

// doneCheckpointLife is how long the checkpoint of a finished shard is kept: past the 24 hours
// a stream keeps a shard's records, so the shard is gone before its checkpoint.
const doneCheckpointLife = 48 * time.Hour

// Checkpoints returns consumer's checkpoints, by shard (one Query; the partition holds a
// checkpoint for each shard of the last day or two).
func (s *Store) Checkpoints(ctx context.Context, consumer string) (map[string]Checkpoint, error) {
	pk := checkpointKey(consumer, "").PK
	in := &dynamodb.QueryInput{
		KeyConditionExpression:    aws.String("PK = :pk"),
		ExpressionAttributeValues: Item{":pk": str(pk)},
		ConsistentRead:            aws.Bool(true),
	}
	checkpoints := map[string]Checkpoint{}
	for {
		out, err := s.query(ctx, in)
		if err != nil {
			return nil, err
		}
		for _, item := range out.Items {
			sk, _ := getString(item, attrSK)
			shard, ok := shardFromCheckpointSK(sk)
			if !ok {
				continue
			}
			c := Checkpoint{Shard: shard}
			c.SequenceNumber, _ = getString(item, attrSequenceNumber)
			if b, ok := item[attrShardDone].(*types.AttributeValueMemberBOOL); ok {
				c.Done = b.Value
			}
			checkpoints[shard] = c
		}
		if out.LastEvaluatedKey == nil {
			return checkpoints, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// SaveCheckpoint records c for consumer (one PutItem). A finished shard's checkpoint expires
// once the stream can no longer hold the shard.
func (s *Store) SaveCheckpoint(ctx context.Context, consumer string, c Checkpoint) error {
	k := checkpointKey(consumer, c.Shard)
	item := Item{attrPK: str(k.PK), attrSK: str(k.SK), attrShardDone: &types.AttributeValueMemberBOOL{Value: c.Done}}
	if c.SequenceNumber != "" {
		item[attrSequenceNumber] = str(c.SequenceNumber)
	}
	if c.Done {
		item[attrExpiresAt] = &types.AttributeValueMemberN{Value: strconv.FormatInt(s.now().Add(doneCheckpointLife).Unix(), 10)}
	}
	return s.putItem(ctx, &dynamodb.PutItemInput{Item: item})
}
