package conformance

import "strings"

func init() {
	for _, view := range []string{"KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"} {
		register(streamRecordsCase(view))
	}
	register(streamIteratorsCase(), streamSwitchCase(), streamErrorsCase())
}

// streamTable is a CreateTable request for table {{s}} (hash key PK) with a
// stream of the given view type, or none when view is "".
func streamTable(view string) M {
	req := M{
		"TableName":            "{{s}}",
		"AttributeDefinitions": []M{{"AttributeName": "PK", "AttributeType": "S"}},
		"KeySchema":            []M{{"AttributeName": "PK", "KeyType": "HASH"}},
		"BillingMode":          "PAY_PER_REQUEST",
	}
	if view != "" {
		req["StreamSpecification"] = M{"StreamEnabled": true, "StreamViewType": view}
	}
	return req
}

// streamReaderSteps find the stream of {{s}} and its first shard: steps
// "table" (DescribeTable) and "stream" (DescribeStream), which later steps
// reference.
func streamReaderSteps() []Step {
	return []Step{
		withID(step("DescribeTable", M{"TableName": "{{s}}"}), "table"),
		withID(step("DescribeStream", M{"StreamArn": "$step:table.Table.LatestStreamArn"}), "stream"),
	}
}

// shardIterator is a GetShardIterator step on the first shard of the
// stream found by streamReaderSteps.
func shardIterator(typ string, extra M) Step {
	return step("GetShardIterator", shardIteratorRequest(typ, extra))
}

// shardIteratorRequest is shardIterator's request.
func shardIteratorRequest(typ string, extra M) M {
	return merge(M{
		"StreamArn":         "$step:stream.StreamDescription.StreamArn",
		"ShardId":           "$step:stream.StreamDescription.Shards.0.ShardId",
		"ShardIteratorType": typ,
	}, extra)
}

// streamRecordsCase checks, for one view type, the records every kind of
// write leaves in the stream: which writes leave one (a write that changes
// nothing leaves none), their order, eventName, Keys, images, SizeBytes
// and StreamViewType, and GetRecords' Limit and NextShardIterator.
func streamRecordsCase(view string) Case {
	key := func(pk string) M { return M{"PK": S(pk)} }
	steps := []Step{
		step("CreateTable", streamTable(view)),
		step("PutItem", M{"TableName": "{{s}}", "Item": M{"PK": S("a"), "v": S("1")}}),
		withID(step("PutItem", M{"TableName": "{{s}}", "Item": M{"PK": S("a"), "v": S("1")}}), "same-put"),
		step("PutItem", M{"TableName": "{{s}}", "Item": M{"PK": S("a"), "v": S("2"), "n": N("1")}}),
		withID(step("UpdateItem", M{"TableName": "{{s}}", "Key": key("a"), "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": M{":v": S("2")}}), "same-update"),
		step("UpdateItem", M{"TableName": "{{s}}", "Key": key("a"), "UpdateExpression": "ADD n :one REMOVE v", "ExpressionAttributeValues": M{":one": N("1")}}),
		failStep("PutItem", "ConditionalCheckFailedException", M{"TableName": "{{s}}", "Item": M{"PK": S("a")}, "ConditionExpression": "attribute_not_exists(PK)"}),
		step("DeleteItem", M{"TableName": "{{s}}", "Key": key("a")}),
		// DynamoDB Local answers with ConsumedCapacity nobody asked for (the
		// items-put-get-delete case's delete-missing divergence).
		withID(expecting(step("DeleteItem", M{"TableName": "{{s}}", "Key": key("a")}), M{}), "absent-delete"),
		step("BatchWriteItem", M{"RequestItems": M{"{{s}}": []M{
			{"PutRequest": M{"Item": M{"PK": S("b"), "v": L(S("x"), N("2"))}}},
			{"PutRequest": M{"Item": M{"PK": S("c"), "v": Map(M{"deep": SS("p", "q")})}}},
		}}}),
		step("TransactWriteItems", M{"TransactItems": []M{
			{"Update": M{"TableName": "{{s}}", "Key": key("c"), "UpdateExpression": "SET w = :w", "ExpressionAttributeValues": M{":w": BOOL(true)}}},
			{"Delete": M{"TableName": "{{s}}", "Key": key("b")}},
			{"Put": M{"TableName": "{{s}}", "Item": M{"PK": S("d"), "b": B("AAEC")}}},
		}}),
		reasonMessagesTypeOnly(failStep("TransactWriteItems", "TransactionCanceledException", M{"TransactItems": []M{
			{"Put": M{"TableName": "{{s}}", "Item": M{"PK": S("e")}}},
			{"ConditionCheck": M{"TableName": "{{s}}", "Key": key("zz"), "ConditionExpression": "attribute_exists(PK)"}},
		}})),
	}
	steps = append(steps, streamReaderSteps()...)
	steps = append(steps,
		shardIterator("TRIM_HORIZON", nil),
		withID(step("GetRecords", M{"ShardIterator": "$prev.ShardIterator", "Limit": 4}), "page-1"),
		withID(step("GetRecords", M{"ShardIterator": "$prev.NextShardIterator"}), "page-2"),
		withID(step("GetRecords", M{"ShardIterator": "$prev.NextShardIterator"}), "page-3-empty"),
	)
	return Case{
		Name:  "streams-records-" + strings.ToLower(strings.ReplaceAll(view, "_", "-")),
		Doc:   "the stream records of every kind of write, with view type " + view,
		Steps: steps,
	}
}

// streamIteratorsCase checks where each shard iterator type starts, and
// that a reader at the end of the open shard sees later writes.
func streamIteratorsCase() Case {
	steps := []Step{step("CreateTable", streamTable("KEYS_ONLY"))}
	for _, pk := range []string{"a", "b", "c"} {
		steps = append(steps, step("PutItem", M{"TableName": "{{s}}", "Item": M{"PK": S(pk)}}))
	}
	steps = append(steps, streamReaderSteps()...)
	steps = append(steps,
		shardIterator("TRIM_HORIZON", nil),
		withID(step("GetRecords", M{"ShardIterator": "$prev.ShardIterator"}), "all"),
		withID(shardIterator("AT_SEQUENCE_NUMBER", M{"SequenceNumber": "$step:all.Records.1.dynamodb.SequenceNumber"}), "at-b"),
		step("GetRecords", M{"ShardIterator": "$prev.ShardIterator"}),
		withID(shardIterator("AFTER_SEQUENCE_NUMBER", M{"SequenceNumber": "$step:all.Records.1.dynamodb.SequenceNumber"}), "after-b"),
		step("GetRecords", M{"ShardIterator": "$prev.ShardIterator"}),
		withID(shardIterator("LATEST", nil), "latest"),
		withID(step("GetRecords", M{"ShardIterator": "$prev.ShardIterator"}), "latest-empty"),
		step("PutItem", M{"TableName": "{{s}}", "Item": M{"PK": S("d")}}),
		withID(step("GetRecords", M{"ShardIterator": "$step:latest-empty.NextShardIterator"}), "latest-then-d"),
		withID(step("ListStreams", M{"TableName": "{{s}}"}), "list"),
		withID(step("ListStreams", M{"TableName": "{{s}}-none"}), "list-none"),
	)
	return Case{Name: "streams-iterators", Doc: "shard iterator types and a reader at the end of the open shard", Steps: steps}
}

// streamSwitchCase switches a stream off and on: DescribeTable keeps the
// latest stream's ARN, the old stream is DISABLED with its shard closed,
// read to its end without a next iterator, and a new stream starts.
func streamSwitchCase() Case {
	steps := []Step{
		step("CreateTable", streamTable("NEW_IMAGE")),
		step("PutItem", M{"TableName": "{{s}}", "Item": M{"PK": S("a")}}),
		withID(step("UpdateTable", M{"TableName": "{{s}}", "StreamSpecification": M{"StreamEnabled": false}}), "off"),
		step("PutItem", M{"TableName": "{{s}}", "Item": M{"PK": S("b")}}),
	}
	steps = append(steps, streamReaderSteps()...)
	steps = append(steps,
		shardIterator("TRIM_HORIZON", nil),
		withID(step("GetRecords", M{"ShardIterator": "$prev.ShardIterator"}), "closed-shard"),
		withID(step("UpdateTable", M{"TableName": "{{s}}", "StreamSpecification": M{"StreamEnabled": true, "StreamViewType": "KEYS_ONLY"}}), "on-again"),
		withID(step("ListStreams", M{"TableName": "{{s}}"}), "two-streams"),
		withID(step("DescribeStream", M{"StreamArn": "$step:on-again.TableDescription.LatestStreamArn"}), "new-stream"),
		// TableStatus: DynamoDB answers DELETING, DynamoDB Local ACTIVE (the
		// table-lifecycle case's delete-table divergence).
		ignoring(step("DeleteTable", M{"TableName": "{{s}}"}), "TableDescription.TableStatus"),
		withID(step("DescribeStream", M{"StreamArn": "$step:on-again.TableDescription.LatestStreamArn"}), "after-delete"),
	)
	return Case{Name: "streams-switch", Doc: "a stream switched off and on, and its table deleted", Steps: steps}
}

// streamErrorsCase checks the Streams errors DynamoDB Local and DynamoDB
// agree on: StreamSpecification rules, limits, unknown streams, shards and
// iterators, and sequence numbers.
func streamErrorsCase() Case {
	missing := "arn:aws:dynamodb:ddblocal:000000000000:table/none/stream/2026-01-01T00:00:00.000"
	steps := []Step{
		failStep("CreateTable", "ValidationException", merge(streamTable(""), M{"StreamSpecification": M{"StreamEnabled": true}})),
		failStep("CreateTable", "ValidationException", merge(streamTable(""), M{"StreamSpecification": M{"StreamEnabled": false, "StreamViewType": "KEYS_ONLY"}})),
		withID(expecting(failStep("CreateTable", "ValidationException", merge(streamTable(""), M{"TableName": "{{v}}", "StreamSpecification": M{"StreamEnabled": true, "StreamViewType": "EVERYTHING"}})),
			M{"__type": "ValidationException"}), "unknown-view-type"),
		step("CreateTable", merge(streamTable(""), M{"StreamSpecification": M{"StreamEnabled": false}})),
		withID(failStep("UpdateTable", "ValidationException", M{"TableName": "{{s}}", "StreamSpecification": M{"StreamEnabled": false}}), "disable-none"),
		failStep("UpdateTable", "ValidationException", M{"TableName": "{{s}}", "StreamSpecification": M{"StreamEnabled": true}}),
		step("UpdateTable", M{"TableName": "{{s}}", "StreamSpecification": M{"StreamEnabled": true, "StreamViewType": "NEW_IMAGE"}}),
		withID(failStep("UpdateTable", "ValidationException", M{"TableName": "{{s}}", "StreamSpecification": M{"StreamEnabled": true, "StreamViewType": "KEYS_ONLY"}}), "enable-twice"),
		step("PutItem", M{"TableName": "{{s}}", "Item": M{"PK": S("a")}}),
		failStep("DescribeStream", "ResourceNotFoundException", M{"StreamArn": missing}),
		failStep("DescribeStream", "ResourceNotFoundException", M{"StreamArn": "garbage"}),
		failStep("DescribeStream", "ValidationException", M{}),
		failStep("ListStreams", "ValidationException", M{"Limit": 0}),
		failStep("ListStreams", "ValidationException", M{"Limit": 101}),
		failStep("GetShardIterator", "ResourceNotFoundException", M{"StreamArn": missing, "ShardId": "shardId-00000000000000000000-00000000", "ShardIteratorType": "LATEST"}),
		failStep("GetShardIterator", "ValidationException", M{"ShardId": "shardId-00000000000000000000-00000000", "ShardIteratorType": "LATEST"}),
		failStep("GetRecords", "ValidationException", M{"ShardIterator": "garbage"}),
		failStep("GetRecords", "ValidationException", M{}),
	}
	steps = append(steps, streamReaderSteps()...)
	steps = append(steps,
		failStep("DescribeStream", "ValidationException", M{"StreamArn": "$step:table.Table.LatestStreamArn", "Limit": 0}),
		failStep("DescribeStream", "ValidationException", M{"StreamArn": "$step:table.Table.LatestStreamArn", "Limit": 101}),
		failStep("GetShardIterator", "ValidationException", M{"StreamArn": "$step:stream.StreamDescription.StreamArn", "ShardIteratorType": "LATEST"}),
		failStep("GetShardIterator", "ResourceNotFoundException", M{"StreamArn": "$step:stream.StreamDescription.StreamArn", "ShardId": "shardId-00000000000000000000-00000000", "ShardIteratorType": "LATEST"}),
		withID(failStep("GetShardIterator", "ValidationException", shardIteratorRequest("AT_SEQUENCE_NUMBER", nil)), "at-without-number"),
		failStep("GetShardIterator", "ValidationException", shardIteratorRequest("TRIM_HORIZON", M{"SequenceNumber": "000000000000000000001"})),
		failStep("GetShardIterator", "ValidationException", shardIteratorRequest("AFTER_SEQUENCE_NUMBER", M{"SequenceNumber": "12"})),
		withID(expecting(failStep("GetShardIterator", "ValidationException", shardIteratorRequest("FIRST", nil)), M{"__type": "ValidationException"}), "unknown-iterator-type"),
		withID(shardIterator("LATEST", nil), "latest"),
		failStep("GetRecords", "ValidationException", M{"ShardIterator": "$step:latest.ShardIterator", "Limit": 0}),
		failStep("GetRecords", "ValidationException", M{"ShardIterator": "$step:latest.ShardIterator", "Limit": 1001}),
	)
	return Case{Name: "streams-errors", Doc: "StreamSpecification rules and the Streams API's errors", Steps: steps}
}

// ignoring leaves paths out of a step's comparison.
func ignoring(s Step, paths ...string) Step {
	s.Compare.Ignore = append(s.Compare.Ignore, paths...)
	return s
}
