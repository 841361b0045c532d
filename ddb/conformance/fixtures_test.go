package conformance

import (
	"encoding/json"
	"fmt"
)

// fixtures are the CreateTable requests a case can name in its Tables; each
// takes the logical table name.
var fixtures = map[string]func(logical string) json.RawMessage{
	// pk: hash key PK (S).
	"pk": keyTable("PK", "S", "", ""),
	// pkn: hash key PK (N).
	"pkn": keyTable("PK", "N", "", ""),
	// pkb: hash key PK (B).
	"pkb": keyTable("PK", "B", "", ""),
	// pksk: hash key PK (S), range key SK (S).
	"pksk": keyTable("PK", "S", "SK", "S"),
	// pkskn: hash key PK (S), range key SK (N).
	"pkskn": keyTable("PK", "S", "SK", "N"),
	// pkskb: hash key PK (S), range key SK (B).
	"pkskb": keyTable("PK", "S", "SK", "B"),
	// quickphotos: the product's table, with InvertedIndex (SK, PK), ALL.
	"quickphotos": rawTable(`{
		"TableName": "{{%s}}",
		"AttributeDefinitions": [{"AttributeName":"PK","AttributeType":"S"},{"AttributeName":"SK","AttributeType":"S"}],
		"KeySchema": [{"AttributeName":"PK","KeyType":"HASH"},{"AttributeName":"SK","KeyType":"RANGE"}],
		"GlobalSecondaryIndexes": [{"IndexName":"InvertedIndex",
			"KeySchema":[{"AttributeName":"SK","KeyType":"HASH"},{"AttributeName":"PK","KeyType":"RANGE"}],
			"Projection":{"ProjectionType":"ALL"}}],
		"BillingMode": "PAY_PER_REQUEST"}`),
	// books: the book chapter's Books table (Author, Title) with an LSI on
	// Year (N, KEYS_ONLY) and a GSI on Category/Title projecting Formats.
	"books": rawTable(`{
		"TableName": "{{%s}}",
		"AttributeDefinitions": [
			{"AttributeName":"Author","AttributeType":"S"},{"AttributeName":"Title","AttributeType":"S"},
			{"AttributeName":"Year","AttributeType":"N"},{"AttributeName":"Category","AttributeType":"S"}],
		"KeySchema": [{"AttributeName":"Author","KeyType":"HASH"},{"AttributeName":"Title","KeyType":"RANGE"}],
		"LocalSecondaryIndexes": [{"IndexName":"YearIndex",
			"KeySchema":[{"AttributeName":"Author","KeyType":"HASH"},{"AttributeName":"Year","KeyType":"RANGE"}],
			"Projection":{"ProjectionType":"KEYS_ONLY"}}],
		"GlobalSecondaryIndexes": [{"IndexName":"CategoryIndex",
			"KeySchema":[{"AttributeName":"Category","KeyType":"HASH"},{"AttributeName":"Title","KeyType":"RANGE"}],
			"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["Formats"]},
			"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}],
		"ProvisionedThroughput": {"ReadCapacityUnits":1,"WriteCapacityUnits":1}}`),
	// cart: the book's ShoppingCart (hash key UserId, range key ItemId).
	"cart": keyTable("UserId", "S", "ItemId", "S"),
}

func keyTable(hash, hashType, rng, rngType string) func(string) json.RawMessage {
	return func(logical string) json.RawMessage {
		defs := []any{map[string]any{"AttributeName": hash, "AttributeType": hashType}}
		keys := []any{map[string]any{"AttributeName": hash, "KeyType": "HASH"}}
		if rng != "" {
			defs = append(defs, map[string]any{"AttributeName": rng, "AttributeType": rngType})
			keys = append(keys, map[string]any{"AttributeName": rng, "KeyType": "RANGE"})
		}
		return mustJSON(map[string]any{
			"TableName":            "{{" + logical + "}}",
			"AttributeDefinitions": defs,
			"KeySchema":            keys,
			"BillingMode":          "PAY_PER_REQUEST",
		})
	}
}

func rawTable(format string) func(string) json.RawMessage {
	return func(logical string) json.RawMessage {
		raw := json.RawMessage(fmt.Sprintf(format, logical))
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			panic(fmt.Sprintf("fixture for %s: %v", logical, err))
		}
		return raw
	}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
