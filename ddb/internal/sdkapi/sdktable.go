package sdkapi

// The control plane on the in-process API (sdkapi.go): CreateTable,
// DescribeTable, UpdateTable, DeleteTable, UpdateTimeToLive and
// DescribeTimeToLive.

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	smithytime "github.com/aws/smithy-go/time"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// CreateTable creates a table, as dynamodb.Client.CreateTable does.
// Parameters the engine ignores over HTTP (SSE, table class, warm
// throughput, …) are ignored here too.
func (d *API) CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, _ ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error) {
	return call(ctx, "CreateTable", orEmpty(in), createTableFromSDK, d.e.CreateTable, func(out *engine.TableChangeOutput) (*dynamodb.CreateTableOutput, error) {
		return &dynamodb.CreateTableOutput{TableDescription: tableDescriptionToSDK(out.TableDescription)}, nil
	})
}

// DescribeTable describes a table, as dynamodb.Client.DescribeTable does.
func (d *API) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, _ ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	return call(ctx, "DescribeTable", orEmpty(in), func(in *dynamodb.DescribeTableInput) (*engine.TableNameInput, error) {
		return engine.TableNameFromSDK(in.TableName), nil
	}, d.e.DescribeTable, func(out *engine.DescribeTableOutput) (*dynamodb.DescribeTableOutput, error) {
		return &dynamodb.DescribeTableOutput{Table: tableDescriptionToSDK(out.Table)}, nil
	})
}

// DeleteTable deletes a table, as dynamodb.Client.DeleteTable does.
func (d *API) DeleteTable(ctx context.Context, in *dynamodb.DeleteTableInput, _ ...func(*dynamodb.Options)) (*dynamodb.DeleteTableOutput, error) {
	return call(ctx, "DeleteTable", orEmpty(in), func(in *dynamodb.DeleteTableInput) (*engine.TableNameInput, error) {
		return engine.TableNameFromSDK(in.TableName), nil
	}, d.e.DeleteTable, func(out *engine.TableChangeOutput) (*dynamodb.DeleteTableOutput, error) {
		return &dynamodb.DeleteTableOutput{TableDescription: tableDescriptionToSDK(out.TableDescription)}, nil
	})
}

// UpdateTable changes a table, as dynamodb.Client.UpdateTable does.
func (d *API) UpdateTable(ctx context.Context, in *dynamodb.UpdateTableInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateTableOutput, error) {
	return call(ctx, "UpdateTable", orEmpty(in), updateTableFromSDK, d.e.UpdateTable, func(out *engine.TableChangeOutput) (*dynamodb.UpdateTableOutput, error) {
		return &dynamodb.UpdateTableOutput{TableDescription: tableDescriptionToSDK(out.TableDescription)}, nil
	})
}

// UpdateTimeToLive enables or disables TTL, as
// dynamodb.Client.UpdateTimeToLive does.
func (d *API) UpdateTimeToLive(ctx context.Context, in *dynamodb.UpdateTimeToLiveInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateTimeToLiveOutput, error) {
	return call(ctx, "UpdateTimeToLive", orEmpty(in), func(in *dynamodb.UpdateTimeToLiveInput) (*engine.UpdateTTLInput, error) {
		x := &engine.UpdateTTLInput{TableName: engine.Deref(in.TableName), TableNameAbsent: in.TableName == nil}
		if s := in.TimeToLiveSpecification; s != nil {
			x.TimeToLiveSpecification = &engine.TTLSpecInput{AttributeName: engine.Deref(s.AttributeName), Enabled: s.Enabled}
		}
		return x, nil
	}, d.e.UpdateTimeToLive, func(out *engine.UpdateTTLOutput) (*dynamodb.UpdateTimeToLiveOutput, error) {
		s := out.TimeToLiveSpecification
		return &dynamodb.UpdateTimeToLiveOutput{TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String(s.AttributeName), Enabled: aws.Bool(s.Enabled)}}, nil
	})
}

// DescribeTimeToLive reports a table's TTL status, as
// dynamodb.Client.DescribeTimeToLive does.
func (d *API) DescribeTimeToLive(ctx context.Context, in *dynamodb.DescribeTimeToLiveInput, _ ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error) {
	return call(ctx, "DescribeTimeToLive", orEmpty(in), func(in *dynamodb.DescribeTimeToLiveInput) (*engine.TableNameInput, error) {
		return engine.TableNameFromSDK(in.TableName), nil
	}, d.e.DescribeTimeToLive, func(out *engine.DescribeTTLOutput) (*dynamodb.DescribeTimeToLiveOutput, error) {
		s := out.TimeToLiveDescription
		return &dynamodb.DescribeTimeToLiveOutput{TimeToLiveDescription: &types.TimeToLiveDescription{AttributeName: nonEmpty(s.AttributeName),
			TimeToLiveStatus: types.TimeToLiveStatus(s.TimeToLiveStatus)}}, nil
	})
}

// createTableFromSDK builds the engine's CreateTable request.
func createTableFromSDK(in *dynamodb.CreateTableInput) (*engine.CreateTableInput, error) {
	x := &engine.CreateTableInput{
		TableName:              engine.Deref(in.TableName),
		TableNameAbsent:        in.TableName == nil,
		KeySchema:              keySchemaFromSDK(in.KeySchema),
		AttributeDefinitions:   attributeDefinitionsFromSDK(in.AttributeDefinitions),
		BillingMode:            string(in.BillingMode),
		ProvisionedThroughput:  throughputFromSDK(in.ProvisionedThroughput),
		DeletionProtection:     aws.ToBool(in.DeletionProtectionEnabled),
		StreamSpecification:    streamSpecFromSDK(in.StreamSpecification),
		GlobalSecondaryIndexes: nil,
	}
	for _, g := range in.GlobalSecondaryIndexes {
		x.GlobalSecondaryIndexes = append(x.GlobalSecondaryIndexes, engine.IndexInput{IndexName: engine.Deref(g.IndexName), KeySchema: keySchemaFromSDK(g.KeySchema),
			Projection: projectionFromSDK(g.Projection), ProvisionedThroughput: throughputFromSDK(g.ProvisionedThroughput)})
	}
	for _, l := range in.LocalSecondaryIndexes {
		x.LocalSecondaryIndexes = append(x.LocalSecondaryIndexes, engine.IndexInput{IndexName: engine.Deref(l.IndexName), KeySchema: keySchemaFromSDK(l.KeySchema),
			Projection: projectionFromSDK(l.Projection)})
	}
	if in.Tags != nil {
		x.Tags = make([]engine.Tag, len(in.Tags))
		for i, t := range in.Tags {
			x.Tags[i] = engine.Tag{Key: t.Key, Value: t.Value}
		}
	}
	return x, nil
}

// updateTableFromSDK builds the engine's UpdateTable request.
func updateTableFromSDK(in *dynamodb.UpdateTableInput) (*engine.UpdateTableInput, error) {
	x := &engine.UpdateTableInput{
		TableName:                 engine.Deref(in.TableName),
		TableNameAbsent:           in.TableName == nil,
		AttributeDefinitions:      attributeDefinitionsFromSDK(in.AttributeDefinitions),
		BillingMode:               string(in.BillingMode),
		ProvisionedThroughput:     throughputFromSDK(in.ProvisionedThroughput),
		DeletionProtectionEnabled: in.DeletionProtectionEnabled,
		StreamSpecification:       streamSpecFromSDK(in.StreamSpecification),
	}
	if in.GlobalSecondaryIndexUpdates != nil {
		x.GlobalSecondaryIndexUpdates = make([]engine.GsiUpdate, len(in.GlobalSecondaryIndexUpdates))
	}
	for i, u := range in.GlobalSecondaryIndexUpdates {
		if c := u.Create; c != nil {
			x.GlobalSecondaryIndexUpdates[i].Create = &engine.IndexInput{IndexName: engine.Deref(c.IndexName), KeySchema: keySchemaFromSDK(c.KeySchema),
				Projection: projectionFromSDK(c.Projection), ProvisionedThroughput: throughputFromSDK(c.ProvisionedThroughput)}
		}
		if dl := u.Delete; dl != nil {
			x.GlobalSecondaryIndexUpdates[i].Delete = &engine.GsiDelete{IndexName: engine.Deref(dl.IndexName)}
		}
		if up := u.Update; up != nil {
			x.GlobalSecondaryIndexUpdates[i].Update = &engine.GsiThroughputUpdate{IndexName: engine.Deref(up.IndexName), ProvisionedThroughput: throughputFromSDK(up.ProvisionedThroughput)}
		}
	}
	return x, nil
}

// keySchemaFromSDK converts a KeySchema.
func keySchemaFromSDK(ks []types.KeySchemaElement) []storage.KeySchemaElement {
	if ks == nil {
		return nil
	}
	out := make([]storage.KeySchemaElement, len(ks))
	for i, k := range ks {
		out[i] = storage.KeySchemaElement{AttributeName: engine.Deref(k.AttributeName), KeyType: string(k.KeyType)}
	}
	return out
}

// attributeDefinitionsFromSDK converts AttributeDefinitions.
func attributeDefinitionsFromSDK(ds []types.AttributeDefinition) []storage.AttributeDefinition {
	if ds == nil {
		return nil
	}
	out := make([]storage.AttributeDefinition, len(ds))
	for i, d := range ds {
		out[i] = storage.AttributeDefinition{AttributeName: engine.Deref(d.AttributeName), AttributeType: string(d.AttributeType)}
	}
	return out
}

// throughputFromSDK converts a ProvisionedThroughput; an absent member is 0,
// as it decodes from JSON.
func throughputFromSDK(tp *types.ProvisionedThroughput) *storage.Throughput {
	if tp == nil {
		return nil
	}
	return &storage.Throughput{ReadCapacityUnits: aws.ToInt64(tp.ReadCapacityUnits), WriteCapacityUnits: aws.ToInt64(tp.WriteCapacityUnits)}
}

// projectionFromSDK converts an index's Projection.
func projectionFromSDK(p *types.Projection) *storage.Projection {
	if p == nil {
		return nil
	}
	return &storage.Projection{ProjectionType: string(p.ProjectionType), NonKeyAttributes: p.NonKeyAttributes}
}

// streamSpecFromSDK converts a StreamSpecification.
func streamSpecFromSDK(s *types.StreamSpecification) *engine.StreamSpecInput {
	if s == nil {
		return nil
	}
	return &engine.StreamSpecInput{StreamEnabled: s.StreamEnabled, StreamViewType: string(s.StreamViewType)}
}

// tableDescriptionToSDK converts a TableDescription (Engine.describe).
func tableDescriptionToSDK(d *engine.TableDescription) *types.TableDescription {
	if d == nil {
		return nil
	}
	out := &types.TableDescription{
		TableName:                 aws.String(d.TableName),
		TableId:                   aws.String(d.TableID),
		TableArn:                  aws.String(d.TableArn),
		TableStatus:               types.TableStatus(d.TableStatus),
		KeySchema:                 keySchemaToSDK(d.KeySchema),
		AttributeDefinitions:      attributeDefinitionsToSDK(d.AttributeDefinitions),
		CreationDateTime:          epochSeconds(d.CreationDateTime),
		ItemCount:                 aws.Int64(d.ItemCount),
		TableSizeBytes:            aws.Int64(d.TableSizeBytes),
		ProvisionedThroughput:     throughputDescriptionToSDK(d.ProvisionedThroughput),
		DeletionProtectionEnabled: aws.Bool(d.DeletionProtectionEnabled),
		LatestStreamLabel:         nonEmpty(d.LatestStreamLabel),
		LatestStreamArn:           nonEmpty(d.LatestStreamArn),
	}
	if b := d.BillingModeSummary; b != nil {
		out.BillingModeSummary = &types.BillingModeSummary{BillingMode: types.BillingMode(b.BillingMode), LastUpdateToPayPerRequestDateTime: epochSeconds(b.LastUpdateToPayPerRequestDateTime)}
	}
	if s := d.StreamSpecification; s != nil {
		out.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(s.StreamEnabled), StreamViewType: types.StreamViewType(s.StreamViewType)}
	}
	for _, g := range d.GlobalSecondaryIndexes {
		gd := types.GlobalSecondaryIndexDescription{
			IndexName: aws.String(g.IndexName), KeySchema: keySchemaToSDK(g.KeySchema), Projection: projectionToSDK(g.Projection),
			IndexSizeBytes: g.IndexSizeBytes, ItemCount: g.ItemCount, IndexArn: nonEmpty(g.IndexArn),
			IndexStatus: types.IndexStatus(g.IndexStatus), ProvisionedThroughput: throughputDescriptionToSDK(g.ProvisionedThroughput),
			Backfilling: g.Backfilling,
		}
		if od := g.OnDemandThroughput; od != nil {
			gd.OnDemandThroughput = &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(od.MaxReadRequestUnits), MaxWriteRequestUnits: aws.Int64(od.MaxWriteRequestUnits)}
		}
		out.GlobalSecondaryIndexes = append(out.GlobalSecondaryIndexes, gd)
	}
	for _, l := range d.LocalSecondaryIndexes {
		out.LocalSecondaryIndexes = append(out.LocalSecondaryIndexes, types.LocalSecondaryIndexDescription{
			IndexName: aws.String(l.IndexName), KeySchema: keySchemaToSDK(l.KeySchema), Projection: projectionToSDK(l.Projection),
			IndexSizeBytes: l.IndexSizeBytes, ItemCount: l.ItemCount, IndexArn: nonEmpty(l.IndexArn),
		})
	}
	return out
}

// keySchemaToSDK converts a described KeySchema.
func keySchemaToSDK(ks []storage.KeySchemaElement) []types.KeySchemaElement {
	if ks == nil {
		return nil
	}
	out := make([]types.KeySchemaElement, len(ks))
	for i, k := range ks {
		out[i] = types.KeySchemaElement{AttributeName: aws.String(k.AttributeName), KeyType: types.KeyType(k.KeyType)}
	}
	return out
}

// attributeDefinitionsToSDK converts described AttributeDefinitions.
func attributeDefinitionsToSDK(ds []storage.AttributeDefinition) []types.AttributeDefinition {
	if ds == nil {
		return nil
	}
	out := make([]types.AttributeDefinition, len(ds))
	for i, d := range ds {
		out[i] = types.AttributeDefinition{AttributeName: aws.String(d.AttributeName), AttributeType: types.ScalarAttributeType(d.AttributeType)}
	}
	return out
}

// projectionToSDK converts a described Projection; its members are left
// out of the JSON answer when empty.
func projectionToSDK(p storage.Projection) *types.Projection {
	out := &types.Projection{ProjectionType: types.ProjectionType(p.ProjectionType)}
	if len(p.NonKeyAttributes) > 0 {
		out.NonKeyAttributes = p.NonKeyAttributes
	}
	return out
}

// throughputDescriptionToSDK converts a ProvisionedThroughputDescription; nil stays absent.
func throughputDescriptionToSDK(tp *engine.ThroughputDescription) *types.ProvisionedThroughputDescription {
	if tp == nil {
		return nil
	}
	return &types.ProvisionedThroughputDescription{NumberOfDecreasesToday: aws.Int64(tp.NumberOfDecreasesToday),
		ReadCapacityUnits: aws.Int64(tp.ReadCapacityUnits), WriteCapacityUnits: aws.Int64(tp.WriteCapacityUnits)}
}

// nonEmpty is s, or nil for a field the JSON answer leaves out when empty.
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// epochSeconds is a timestamp (epoch seconds), converted as the SDK
// converts the JSON number.
func epochSeconds(x float64) *time.Time {
	t := smithytime.ParseEpochSeconds(x)
	return &t
}
