// Package wire is the engine's DynamoDB JSON 1.0 protocol front-end: a
// Handler that dispatches a POST by its X-Amz-Target, reads the body within
// the request-memory budget, decodes it into the operation's typed input
// (package engine), runs the operation and writes its output or its error
// as DynamoDB does; the in-process transport and the HTTP server around it.
//
// # Errors
//
// The engine's errors (*engine.Error) are written as {"__type", "message"}
// with status 400, 413 for a body over MaxRequestBytes (its __type in the
// com.amazon.coral.service namespace, as AWS's front end answers it), or 500
// for InternalServerError. Query and Scan stop reading once the request's
// context ends (its client went away); such a request is answered 499
// RequestCanceled, which is no DynamoDB exception and no server error, and
// the in-process transport returns the context's error, as a network client
// does.
//
// # Files
//
//	handler.go               Handler: dispatch by X-Amz-Target, body
//	                         decoding, error encoding
//	operations.go            the operations table, each operation its
//	                         engine method behind op's decode-and-run
//	streamoperations.go      the same for the Streams API
//	                         (DynamoDBStreams_20120810)
//	requestbody.go           bodies within MaxRequestBytes and the
//	                         request-memory budget
//	server.go                the http.Server with its timeouts
//	transport.go             the in-process http.RoundTripper
package wire
