// Package telemetry is how the server is observed: Prometheus metrics, OpenTelemetry traces,
// and one structured access log line per HTTP request, each carrying a request id.
//
// New makes a Telemetry; its methods hand each layer its hook, and nothing else in the
// server knows about Prometheus or OpenTelemetry:
//
//   - Middleware wraps the whole HTTP handler (request id, server span, HTTP metrics,
//     access log);
//   - GraphQL is a gqlgen extension (operation span and metrics, error codes);
//   - Store is the dynamo.Observer of the store (DynamoDB span and metrics, capacity);
//   - Loaders is the loaders.BatchObserver of the dataloaders (batch sizes);
//   - MetricsHandler serves the metrics to Prometheus.
//
// The layers report into a per-request record that Middleware keeps in the request's
// context, so the access log line says what the request cost in DynamoDB without any layer
// logging on its own. What it cost is read from the request's dynamo.Cost, the same record
// extensions.cost reads, so the two always agree. LogHandler adds the request id to any other log record written with a
// request's context, so that every line about a request can be found from its id, which is
// also the X-Request-Id response header. SDKLogger routes the AWS SDK's own log lines (its
// warnings about responses, retries) to the same logger, so that they are JSON records too.
//
// # Traces
//
// SetupTracing installs a global TracerProvider when the standard OTEL_* environment
// variables configure an exporter. Otherwise serve gives New a noop.TracerProvider, and no span
// is started or described at all (Options.TracerProvider).
// A request's spans nest as:
//
//	POST /graphql                         (server; joins the caller's trace from traceparent)
//	└── query userProfile                 (one per GraphQL operation)
//	    └── DynamoDB.BatchGetItem         (client; one per DynamoDB request)
//
// # Metrics
//
// Every metric is prefixed quickphotos_. Label values that come from clients are bounded:
// HTTP paths other than the server's routes (/, /graphql, /healthz, /readyz, /metrics) are
// "other", as are uncommon HTTP methods; operation names must match
// [A-Za-z_][A-Za-z0-9_]{0,63} and only the first 200 distinct ones are kept, later ones and
// malformed ones are "other"; error codes likewise (the first 50).
//
//	quickphotos_http_requests_total{method,path,status}
//	    counter: HTTP requests served. status is the response status, or 499 when the
//	    client disconnected before the response was written.
//	quickphotos_http_request_duration_seconds{method,path}
//	    histogram: time from receiving a request to its handler returning.
//	quickphotos_graphql_operations_total{operation,type,outcome}
//	    counter: GraphQL operations. operation is the operation's name ("" when anonymous),
//	    type is query, mutation or subscription ("" when a refused request named none), and
//	    outcome is ok (no errors), error (it ran, and its response has errors) or rejected
//	    (it never ran: the request did not decode, parse, validate or pass the limits).
//	quickphotos_graphql_operation_duration_seconds{operation,type}
//	    histogram: time from gqlgen receiving an operation to its response.
//	quickphotos_graphql_errors_total{code}
//	    counter: errors in GraphQL responses, by extensions.code as clients see it
//	    (UNKNOWN for an error without a code).
//	quickphotos_dynamodb_requests_total{operation,table,outcome}
//	    counter: DynamoDB requests. operation is the API action (GetItem, Query,
//	    TransactWriteItems, …); outcome is ok, error, cancelled (a transaction DynamoDB
//	    cancelled: TransactionCanceledException) or aborted (the caller's context ended).
//	quickphotos_dynamodb_request_duration_seconds{operation,table}
//	    histogram: time of one DynamoDB request, including the SDK's retries.
//	quickphotos_dynamodb_consumed_capacity_total{operation,table,kind}
//	    counter: capacity units DynamoDB reported as consumed; kind is read or write.
//	quickphotos_dynamodb_transaction_cancellations_total{reason}
//	    counter: the actions that caused a transaction to be cancelled, one per action whose
//	    cancellation reason is not None (ConditionalCheckFailed, TransactionConflict, …).
//	quickphotos_dataloader_batch_size{loader}
//	    histogram (buckets 1, 2, 5, 10, 25, 50, 100): keys in each batch a dataloader sends.
//	quickphotos_stream_lag_seconds{consumer}
//	    gauge: how long after its newest change a stream consumer (feed, live) handled its
//	    last batch.
//	quickphotos_live_connections, quickphotos_live_subscriptions
//	    gauges: open WebSocket and Server-Sent Events connections, and subscriptions (Live).
//	quickphotos_live_events_delivered_total, quickphotos_live_subscriptions_lagged_total
//	    counters: changes passed to subscribers; subscriptions ended for falling behind.
//	quickphotos_ratelimit_refused_total{caller}, quickphotos_ratelimit_units_total{caller}
//	    counters, with rate limits: operations refused for an empty bucket, and the capacity
//	    units charged to buckets; caller is user (authenticated) or address (RateLimit).
//	quickphotos_ratelimit_failures_total{caller}
//	    counter: operations run unmetered because the buckets (Redis) did not answer.
//
// With a nil Options.Registry, the registry also holds the standard go_* and process_*
// collectors.
//
// # Access log
//
// One line per request, at Info ("http request"; Warn for a 5xx status; "client
// disconnected" for status 499), with these attributes: request_id, method, path, status,
// duration_ms, operation, operation_type, dynamodb_requests, read_capacity_units,
// write_capacity_units, error_codes and, when the request is traced, trace_id. Headers
// (Authorization, cookies), query strings, GraphQL documents and variables are never logged.
package telemetry
