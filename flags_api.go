package main

import (
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/api/limits"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/loaders"
)

// apiConfig is the configuration of the GraphQL API, which `serve` and `lambda` share: the
// same flags and environment variables make the same handler under both.
type apiConfig struct {
	auth            authConfig
	limits          limits.Config
	maxBodyBytes    int
	requestTimeout  time.Duration
	batchWait       time.Duration
	introspection   bool
	persistedBytes  int
	queryCacheBytes int
	corsOrigins     string
	// mutationRetention is how long a client mutation id's mark is kept.
	mutationRetention time.Duration
	log               logConfig
	trusted           trustedDocumentsConfig
}

func (c *apiConfig) register(f *flags) {
	c.auth.register(f)
	f.Int(&c.limits.MaxTokens, "max-tokens", limits.Defaults.MaxTokens, "refuse documents of more lexical tokens than this, before parsing them (0: no limit)")
	f.Int(&c.limits.MaxDepth, "max-depth", limits.Defaults.MaxDepth, "refuse operations nested deeper than this (0: no limit)")
	f.Int(&c.limits.MaxCost, "max-cost", limits.Defaults.MaxCost, "refuse operations estimated to read more DynamoDB read units than this; a list multiplies its children by its `first` (0: no limit)")
	f.Int(&c.limits.MaxAliases, "max-aliases", limits.Defaults.MaxAliases, "refuse operations with more aliased fields than this (0: no limit)")
	f.Int(&c.limits.MaxOperations, "max-operations", limits.Defaults.MaxOperations, "refuse documents holding more operations than this (0: no limit)")
	f.Int(&c.maxBodyBytes, "max-body-bytes", api.DefaultMaxBodyBytes, "refuse request bodies larger than this")
	f.Duration(&c.requestTimeout, "request-timeout", api.DefaultRequestTimeout, "give up on a GraphQL request, and its DynamoDB calls, after this long; a query or mutation over graphql-ws or Server-Sent Events too, from when it starts (a subscription has no deadline)")
	f.Duration(&c.batchWait, "batch-wait", 0, "how long the entity loader gathers keys before it sends one BatchGetItem, where a level's fields do not read their entities at once (several root fields, or a field of a list's elements the list did not read for): longer groups more on a busy machine, shorter answers sooner (0: 1ms on the embedded store, 5ms on DynamoDB)")
	f.Bool(&c.introspection, "introspection", true, "answer introspection queries (__schema, __type); GraphiQL needs them")
	f.Int(&c.persistedBytes, "persisted-query-bytes", api.DefaultPersistedQueryBytes, "the memory the automatic persisted query cache may hold")
	f.Int(&c.queryCacheBytes, "query-cache-bytes", api.DefaultQueryCacheBytes, "the memory the cache of parsed GraphQL documents may hold (estimated from their text)")
	f.String(&c.corsOrigins, "cors-origins", "", `comma-separated browser origins allowed to call the API, e.g. https://app.example.com ("*" for any; empty: same origin only)`)
	f.Duration(&c.mutationRetention, "mutation-retention", domain.DefaultMutationRetention, "keep the mark of a mutation sent with a clientMutationId this long: a replay within it answers as the mutation first did (1m to 8760h)")
	c.trusted.register(f)
	c.log.register(f)
}

// logger is the JSON logger on stderr at --log-level.
func (c *apiConfig) logger(stderr io.Writer) (*slog.Logger, error) { return c.log.logger(stderr) }

// settle checks the flags that depend on the store, before anything is opened: --batch-wait's
// 0 becomes the store's window.
func (c *apiConfig) settle(storeKind string) error {
	if c.mutationRetention < minMutationRetention || c.mutationRetention > maxMutationRetention {
		return fmt.Errorf("--mutation-retention %s: want %s to %s", c.mutationRetention, minMutationRetention, maxMutationRetention)
	}
	var err error
	if c.batchWait, err = batchWait(c.batchWait, storeKind); err != nil {
		return err
	}
	if err := c.trusted.load(); err != nil {
		return err
	}
	if err := c.trusted.docs.CheckLimits(c.limits); err != nil {
		if c.trusted.ofApp {
			// Limits tighter than the web app's documents: the server runs as it would
			// without the app, which cannot run on it (start-up says so).
			c.trusted.dropApp(err)
			return nil
		}
		return fmt.Errorf("--trusted-documents (%s): %w", envName("trusted-documents"), err)
	}
	return nil
}

// The bounds of --mutation-retention: a retention shorter than a client's retries defeats the
// marks, and one over a year keeps marks no client replays.
const (
	minMutationRetention = time.Minute
	maxMutationRetention = 365 * 24 * time.Hour
)

// maxBatchWait bounds --batch-wait: every level of an operation may wait this long, so a
// larger window is a mistake, not a tuning.
const maxBatchWait = time.Second

// embeddedBatchWait is the dataloader window on the embedded store. The window trades latency
// on every level of an operation against batches split on a busy machine. A split batch costs
// the embedded engine an in-process call of some microseconds, and DynamoDB a network request
// and its price; 1 ms instead of loaders.DefaultWait served 1.38× the operations a second to
// 16 clients of the standard mix (docs/benchmarks.md).
const embeddedBatchWait = time.Millisecond

// batchWait is the dataloader window --batch-wait asks for on a store of kind: by the store
// when 0.
func batchWait(flag time.Duration, kind string) (time.Duration, error) {
	switch {
	case flag < 0 || flag > maxBatchWait:
		return 0, fmt.Errorf("--batch-wait %s: want 0 (by store) or more, at most %s", flag, maxBatchWait)
	case flag > 0:
		return flag, nil
	case kind == storeEmbedded:
		return embeddedBatchWait, nil
	default:
		return loaders.DefaultWait, nil
	}
}
