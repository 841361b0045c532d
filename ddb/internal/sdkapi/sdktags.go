package sdkapi

// ListTables and the tag operations (TagResource, UntagResource,
// ListTagsOfResource) on the in-process API (sdkapi.go).

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// ListTables lists table names, as dynamodb.Client.ListTables does.
func (d *API) ListTables(ctx context.Context, in *dynamodb.ListTablesInput, _ ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error) {
	return call(ctx, "ListTables", orEmpty(in), func(in *dynamodb.ListTablesInput) (*engine.ListTablesInput, error) {
		x := &engine.ListTablesInput{ExclusiveStartTableName: engine.Deref(in.ExclusiveStartTableName)}
		if in.Limit != nil {
			limit := int(*in.Limit)
			x.Limit = &limit
		}
		return x, nil
	}, d.e.ListTables, func(out *engine.ListTablesOutput) (*dynamodb.ListTablesOutput, error) {
		o := &dynamodb.ListTablesOutput{TableNames: out.Names}
		if out.Last != "" {
			o.LastEvaluatedTableName = aws.String(out.Last)
		}
		return o, nil
	})
}

// TagResource adds tags to a table, as dynamodb.Client.TagResource does.
func (d *API) TagResource(ctx context.Context, in *dynamodb.TagResourceInput, _ ...func(*dynamodb.Options)) (*dynamodb.TagResourceOutput, error) {
	return call(ctx, "TagResource", orEmpty(in), func(in *dynamodb.TagResourceInput) (*engine.TagResourceInput, error) {
		x := &engine.TagResourceInput{ResourceArn: engine.Deref(in.ResourceArn)}
		if in.Tags != nil {
			x.Tags = make([]engine.Tag, len(in.Tags))
			for i, t := range in.Tags {
				x.Tags[i] = engine.Tag{Key: t.Key, Value: t.Value}
			}
		}
		return x, nil
	}, d.e.TagResource, func(*engine.EmptyOutput) (*dynamodb.TagResourceOutput, error) {
		return &dynamodb.TagResourceOutput{}, nil
	})
}

// UntagResource removes tags from a table, as
// dynamodb.Client.UntagResource does.
func (d *API) UntagResource(ctx context.Context, in *dynamodb.UntagResourceInput, _ ...func(*dynamodb.Options)) (*dynamodb.UntagResourceOutput, error) {
	return call(ctx, "UntagResource", orEmpty(in), func(in *dynamodb.UntagResourceInput) (*engine.UntagResourceInput, error) {
		return &engine.UntagResourceInput{ResourceArn: engine.Deref(in.ResourceArn), TagKeys: in.TagKeys}, nil
	}, d.e.UntagResource, func(*engine.EmptyOutput) (*dynamodb.UntagResourceOutput, error) {
		return &dynamodb.UntagResourceOutput{}, nil
	})
}

// ListTagsOfResource lists a table's tags, as
// dynamodb.Client.ListTagsOfResource does.
func (d *API) ListTagsOfResource(ctx context.Context, in *dynamodb.ListTagsOfResourceInput, _ ...func(*dynamodb.Options)) (*dynamodb.ListTagsOfResourceOutput, error) {
	return call(ctx, "ListTagsOfResource", orEmpty(in), func(in *dynamodb.ListTagsOfResourceInput) (*engine.ListTagsInput, error) {
		return &engine.ListTagsInput{ResourceArn: engine.Deref(in.ResourceArn), NextToken: in.NextToken}, nil
	}, d.e.ListTagsOfResource, func(out *engine.ListTagsOutput) (*dynamodb.ListTagsOfResourceOutput, error) {
		tags := make([]types.Tag, len(out.Tags))
		for i, t := range out.Tags {
			tags[i] = types.Tag{Key: aws.String(t.Key), Value: aws.String(t.Value)}
		}
		return &dynamodb.ListTagsOfResourceOutput{Tags: tags}, nil
	})
}
