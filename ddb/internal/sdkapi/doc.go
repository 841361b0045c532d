// Package sdkapi is the engine's typed front-end: the aws-sdk-go-v2
// DynamoDB API (API) and DynamoDB Streams API (StreamsAPI) served in
// process, with the SDK's own input, output and error types and no JSON,
// HTTP or signing between them. Each method converts the SDK's input field
// by field into the operation's typed input (package engine), runs it, and
// converts the typed output into the SDK's.
//
// # Files
//
//	sdkapi.go                API; shared conversions
//	sdkitem.go, sdklist.go   GetItem, PutItem, UpdateItem, DeleteItem;
//	                         Query and Scan
//	sdkgetitempool.go        GetItem's requests, recycled
//	sdkbatch.go              BatchGetItem, BatchWriteItem
//	sdktransact.go           TransactWriteItems
//	sdktransactget.go        TransactGetItems
//	sdktable.go              the table operations and TTL
//	sdktags.go               the tag operations
//	sdkpartiql.go            PartiQL's operations
//	sdklegacyparams.go       the legacy parameters' SDK shapes
//	sdkvalue.go              attribute values to and from the SDK's types
//	sdkresponse.go           items and capacity into the SDK's outputs
//	sdkerror.go              the errors of both in-process APIs, in the
//	                         SDK's shapes
//	sdkstreams.go            StreamsAPI: the same for the dynamodbstreams
//	                         SDK, records built from their stored form
package sdkapi
