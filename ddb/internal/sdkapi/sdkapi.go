package sdkapi

import (
	"context"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// API is the engine's DynamoDB API for callers in the same process: the
// methods of the aws-sdk-go-v2 DynamoDB client that package dynamo uses
// (dynamo.API), with TransactGetItems, ListTables, the tag and the PartiQL
// operations, taking the SDK's typed inputs and returning its typed outputs
// and errors, with no JSON, HTTP or request signing on the way.
// Get it with Engine.API.
//
// Each operation converts the SDK input to the request the JSON decoder
// would produce for it (sdk<op>.go files), runs the same code as a
// request over HTTP (validation included) and converts the response. So
// API answers as Engine.Client does, which the differential conformance
// suite checks step by step (ddb/conformance). What differs is what the SDK
// does around a request: API makes no retries (the SDK retries an
// InternalServerError three times), fills in no ClientRequestToken (the SDK
// gives every TransactWriteItems a random one; a token given is the same
// token over either path, BinaryRequestHash), runs none of the SDK's
// client-side checks of required parameters (the engine answers the
// ValidationException DynamoDB would), and ignores the per-call option
// functions. Errors have the SDK's shape (sdkerror.go).
//
// API is safe for concurrent use. Values in outputs may share memory
// with the inputs they came from (an UpdateItem's ALL_NEW attributes hold
// the input's values), never with the engine's storage.
type API struct {
	e *engine.Engine
}

// sdkService is what the errors of one of the SDK's clients hold: its
// ServiceID, which they name, and its modeled exceptions.
type sdkService struct {
	id        string
	exception func(*engine.Error) error
}

// dynamoDBService is the SDK's DynamoDB client's (sdkerror.go).
var dynamoDBService = sdkService{id: "DynamoDB", exception: exception}

// call runs one operation of the typed SDK API: from converts the SDK
// input into the engine's typed input, run runs it, to renders its typed
// output (engine/output.go) as the SDK's output.
func call[I, X, R, O any](ctx context.Context, op string, in I, from func(I) (X, error),
	run func(context.Context, X) (R, error), to func(R) (O, error)) (O, error) {
	return invoke(ctx, dynamoDBService, op, in, from, run, to)
}

// invoke is call for any of the SDK's services. As over the in-memory
// transport, a context that has ended before or while the operation runs
// is the answer, whatever the engine did.
func invoke[I, X, R, O any](ctx context.Context, svc sdkService, op string, in I, from func(I) (X, error),
	run func(context.Context, X) (R, error), to func(R) (O, error)) (O, error) {
	var zero O
	if err := ctx.Err(); err != nil {
		return zero, sdkError(ctx, svc, op, err)
	}
	x, err := from(in)
	if err != nil {
		return zero, sdkError(ctx, svc, op, err)
	}
	resp, err := run(ctx, x)
	if err != nil {
		return zero, sdkError(ctx, svc, op, err)
	}
	out, err := to(resp)
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return zero, sdkError(ctx, svc, op, err)
	}
	return out, nil
}

// orEmpty is in, or the zero input for a nil one, as the SDK treats a nil
// input.
func orEmpty[T any](in *T) *T {
	if in == nil {
		return new(T)
	}
	return in
}

// New returns the typed DynamoDB API of e.
func New(e *engine.Engine) *API { return &API{e: e} }
