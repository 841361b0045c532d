package main

import (
	"log/slog"
	"path/filepath"

	"github.com/quickphotos/quickphotos/dynamo"
)

// Store kinds.
const (
	storeEmbedded = "embedded"
	storeDynamoDB = "dynamodb"
)

// storeConfig says where the table lives: the embedded engine in a data directory, or any
// DynamoDB endpoint through the AWS SDK's configuration.
type storeConfig struct {
	kind        string
	dataDir     string
	inMemory    bool
	endpointURL string
	table       string
	createTable bool
	// embeddedViaSDK reaches the embedded engine, and its stream, through SDK clients over its
	// in-memory HTTP transport (ddb.Engine.Client, StreamsClient) instead of its in-process APIs
	// (ddb.Engine.API, StreamsAPI), to compare the two; no flag sets it.
	embeddedViaSDK bool
	// log gets the AWS SDK's log lines (slog.Default() when nil): serve and stream give their
	// JSON logger, so that everything they print on stderr is in one format.
	log *slog.Logger
}

func (c *storeConfig) register(f *flags) {
	f.String(&c.kind, "store", storeEmbedded, "where the table lives: embedded (the built-in engine, in --data) or dynamodb (Amazon DynamoDB, DynamoDB Local or a compatible endpoint)")
	c.registerEngine(f)
	f.String(&c.endpointURL, "endpoint-url", "", "with --store dynamodb: the endpoint, e.g. http://127.0.0.1:8000 for DynamoDB Local (empty: the AWS SDK's, which also reads AWS_ENDPOINT_URL_DYNAMODB)")
	f.String(&c.table, "table", dynamo.DefaultTable, "the table's name")
}

// registerEngine registers the embedded engine's flags, which `serve` and `dynamodb` share.
func (c *storeConfig) registerEngine(f *flags) {
	f.String(&c.dataDir, "data", "data", "the embedded engine's data directory")
	f.Bool(&c.inMemory, "in-memory", false, "keep the embedded engine's data in memory only, like DynamoDB Local's -inMemory: nothing is written to --data and everything is gone on exit")
}

// describe says where the data lives, for start-up messages.
func (c storeConfig) describe() string {
	switch {
	case c.kind != storeEmbedded && c.endpointURL != "":
		return "endpoint " + c.endpointURL
	case c.kind != storeEmbedded:
		return "the AWS SDK's endpoint"
	case c.inMemory:
		return "in memory only"
	default:
		dir, err := filepath.Abs(c.dataDir)
		if err != nil {
			dir = c.dataDir
		}
		return "data in " + dir
	}
}
