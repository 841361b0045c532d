package ddb

// ListTables and the tag operations (TagResource, UntagResource,
// ListTagsOfResource) on the in-process API (sdkapi.go).

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// ListTables lists table names, as dynamodb.Client.ListTables does.
func (d *API) ListTables(ctx context.Context, in *dynamodb.ListTablesInput, _ ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error) {
	return call(ctx, "ListTables", orEmpty(in), func(in *dynamodb.ListTablesInput) (*listTablesInput, error) {
		x := &listTablesInput{ExclusiveStartTableName: deref(in.ExclusiveStartTableName)}
		if in.Limit != nil {
			limit := int(*in.Limit)
			x.Limit = &limit
		}
		return x, nil
	}, d.e.listTables, func(out *listTablesOutput) (*dynamodb.ListTablesOutput, error) {
		o := &dynamodb.ListTablesOutput{TableNames: out.names}
		if out.last != "" {
			o.LastEvaluatedTableName = aws.String(out.last)
		}
		return o, nil
	})
}

// TagResource adds tags to a table, as dynamodb.Client.TagResource does.
func (d *API) TagResource(ctx context.Context, in *dynamodb.TagResourceInput, _ ...func(*dynamodb.Options)) (*dynamodb.TagResourceOutput, error) {
	return call(ctx, "TagResource", orEmpty(in), func(in *dynamodb.TagResourceInput) (*tagResourceInput, error) {
		x := &tagResourceInput{ResourceArn: deref(in.ResourceArn)}
		if in.Tags != nil {
			x.Tags = make([]tag, len(in.Tags))
			for i, t := range in.Tags {
				x.Tags[i] = tag{Key: t.Key, Value: t.Value}
			}
		}
		return x, nil
	}, d.e.tagResource, func(*emptyOutput) (*dynamodb.TagResourceOutput, error) {
		return &dynamodb.TagResourceOutput{}, nil
	})
}

// UntagResource removes tags from a table, as
// dynamodb.Client.UntagResource does.
func (d *API) UntagResource(ctx context.Context, in *dynamodb.UntagResourceInput, _ ...func(*dynamodb.Options)) (*dynamodb.UntagResourceOutput, error) {
	return call(ctx, "UntagResource", orEmpty(in), func(in *dynamodb.UntagResourceInput) (*untagResourceInput, error) {
		return &untagResourceInput{ResourceArn: deref(in.ResourceArn), TagKeys: in.TagKeys}, nil
	}, d.e.untagResource, func(*emptyOutput) (*dynamodb.UntagResourceOutput, error) {
		return &dynamodb.UntagResourceOutput{}, nil
	})
}

// ListTagsOfResource lists a table's tags, as
// dynamodb.Client.ListTagsOfResource does.
func (d *API) ListTagsOfResource(ctx context.Context, in *dynamodb.ListTagsOfResourceInput, _ ...func(*dynamodb.Options)) (*dynamodb.ListTagsOfResourceOutput, error) {
	return call(ctx, "ListTagsOfResource", orEmpty(in), func(in *dynamodb.ListTagsOfResourceInput) (*listTagsInput, error) {
		return &listTagsInput{ResourceArn: deref(in.ResourceArn), NextToken: in.NextToken}, nil
	}, d.e.listTagsOfResource, func(out *listTagsOutput) (*dynamodb.ListTagsOfResourceOutput, error) {
		tags := make([]types.Tag, len(out.tags))
		for i, t := range out.tags {
			tags[i] = types.Tag{Key: aws.String(t.Key), Value: aws.String(t.Value)}
		}
		return &dynamodb.ListTagsOfResourceOutput{Tags: tags}, nil
	})
}
