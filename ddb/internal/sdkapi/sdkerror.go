package sdkapi

// Errors on the in-process APIs (sdkapi.go, sdkstreams.go), as a caller
// of the SDK over HTTP sees them: an *smithy.OperationError naming the operation, wrapping an
// *awshttp.ResponseError (status code, request ID) that wraps the
// exception. Exceptions the SDK models are its types
// (*types.ConditionalCheckFailedException with Item,
// *types.TransactionCanceledException with CancellationReasons,
// *types.ResourceNotFoundException, …); the others, such as
// ValidationException, are the *smithy.GenericAPIError it builds for an
// exception it does not model. The Streams client models its own
// exceptions (dynamodbstreams/types: ResourceNotFoundException,
// ExpiredIteratorException, TrimmedDataAccessException, …), types apart
// from the DynamoDB client's of the same names. So errors.As, errors.Is and ErrorCode() give
// the same answers on both paths.

import (
	"context"
	"net/http"
	"strconv"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// sdkError returns the error svc's SDK client returns for operation op
// when the engine answers err. A context that ended is the SDK's error for
// a request that could not be sent: it wraps ctx.Err(), whatever the engine
// answered.
func sdkError(ctx context.Context, svc sdkService, op string, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return &smithy.OperationError{ServiceID: svc.id, OperationName: op,
			Err: &smithyhttp.RequestSendError{Err: cerr}}
	}
	de := engine.AsError(err)
	reqID := engine.NewID()
	header := http.Header{}
	header.Set("x-amzn-RequestId", reqID)
	resp := &http.Response{StatusCode: de.Status(), Status: strconv.Itoa(de.Status()) + " " + http.StatusText(de.Status()), Header: header}
	return &smithy.OperationError{ServiceID: svc.id, OperationName: op,
		Err: &awshttp.ResponseError{
			ResponseError: &smithyhttp.ResponseError{Response: &smithyhttp.Response{Response: resp}, Err: svc.exception(de)},
			RequestID:     reqID,
		}}
}

// exception is the DynamoDB client's value for an exception: its modeled
// type, or a generic API error.
func exception(de *engine.Error) error {
	msg := &de.Message
	switch de.Type {
	case engine.TypeConditionalCheck:
		e := &types.ConditionalCheckFailedException{Message: msg}
		if de.Item != nil {
			e.Item, _ = responseItemToSDK(de.Item)
		}
		return e
	case engine.TypeTransactionCanceled:
		return &types.TransactionCanceledException{Message: msg, CancellationReasons: reasonsToSDK(de.Reasons)}
	case engine.TypeResourceNotFound:
		return &types.ResourceNotFoundException{Message: msg}
	case engine.TypeResourceInUse:
		return &types.ResourceInUseException{Message: msg}
	case engine.TypeLimitExceeded:
		return &types.LimitExceededException{Message: msg}
	case engine.TypeInternal:
		return &types.InternalServerError{Message: msg}
	case engine.TypeIdempotentMismatch:
		return &types.IdempotentParameterMismatchException{Message: msg}
	case engine.TypeDuplicateItem:
		return &types.DuplicateItemException{Message: msg}
	}
	return genericException(de)
}

// streamsException is the DynamoDB Streams client's value for an
// exception: its modeled type (a type set of its own, apart from the
// DynamoDB client's), or a generic API error.
func streamsException(de *engine.Error) error {
	msg := &de.Message
	switch de.Type {
	case engine.TypeResourceNotFound:
		return &stypes.ResourceNotFoundException{Message: msg}
	case engine.TypeExpiredIterator:
		return &stypes.ExpiredIteratorException{Message: msg}
	case engine.TypeTrimmedDataAccess:
		return &stypes.TrimmedDataAccessException{Message: msg}
	case engine.TypeLimitExceeded:
		return &stypes.LimitExceededException{Message: msg}
	case engine.TypeInternal:
		return &stypes.InternalServerError{Message: msg}
	}
	return genericException(de)
}

// genericException is the error the SDK's clients build for an exception
// they do not model, such as ValidationException.
func genericException(de *engine.Error) error {
	return &smithy.GenericAPIError{Code: de.Type, Message: de.Message, Fault: smithy.FaultUnknown}
}

// reasonsToSDK converts the CancellationReasons of a cancelled transaction.
// Message is absent when empty, as the JSON answer leaves it out.
func reasonsToSDK(reasons []engine.CancellationReason) []types.CancellationReason {
	if reasons == nil {
		return nil
	}
	out := make([]types.CancellationReason, len(reasons))
	for i, r := range reasons {
		code := r.Code
		out[i] = types.CancellationReason{Code: &code, Item: itemToSDK(r.Item)}
		if r.Message != "" {
			m := r.Message
			out[i].Message = &m
		}
	}
	return out
}
