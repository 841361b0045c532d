// Package wire is the engine's DynamoDB JSON 1.0 protocol front-end: a
// Handler that dispatches a POST by its X-Amz-Target, reads the body within
// the request-memory budget, decodes it into the operation's typed input
// (package engine), runs the operation and writes its output or its error
// as DynamoDB does; the in-process transport and the HTTP server around it.
//
// # Files
//
//	handler.go               Handler: dispatch by X-Amz-Target, body
//	                         decoding, error encoding
//	operations.go            the operations table's decoders, one per
//	                         DynamoDB operation
//	streamoperations.go      the same for the Streams API
//	                         (DynamoDBStreams_20120810)
//	requestbody.go           bodies within MaxRequestBytes and
//	                         Options.RequestMemory
//	server.go                the http.Server with its timeouts
//	transport.go             the in-process http.RoundTripper
package wire
