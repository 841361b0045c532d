package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/quickphotos/quickphotos/domain"
)

// presentError gives every resolver error a code and a client-safe message, and the details
// a domain error carries for the client (such as a Conflict's current object) beside the code.
// Internal errors are logged with their cause and shown only as "internal error".
func presentError(log *slog.Logger) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		gqlErr := graphql.DefaultErrorPresenter(ctx, err)
		var existing *gqlerror.Error
		if errors.As(err, &existing) && !hasDomainError(err) {
			if existing.Extensions["code"] != nil {
				return gqlErr // gqlgen's own parse and validation errors keep their codes
			}
			if existing.Unwrap() == nil {
				// gqlgen refused the request itself (a body that is not JSON, a bad persisted
				// query extension): the client's mistake, said in gqlgen's words, minus the
				// echo of the whole body.
				gqlErr.Message, _, _ = strings.Cut(gqlErr.Message, " body:")
				gqlErr.Extensions = map[string]any{"code": extensionCode(domain.Invalid)}
				return gqlErr
			}
		}
		code := domain.ErrorCode(err)
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			code = domain.Unavailable
			gqlErr.Message = "the request took too long"
		case errors.Is(err, context.Canceled):
			code = domain.Unavailable
			gqlErr.Message = "the request was cancelled"
		default:
			gqlErr.Message = domain.ErrorMessage(err)
		}
		if code == domain.Internal {
			log.ErrorContext(ctx, "internal error", "path", gqlErr.Path.String(), "err", err)
		}
		if gqlErr.Extensions == nil {
			gqlErr.Extensions = map[string]any{}
		}
		var e *domain.Error
		if code != domain.Internal && errors.As(err, &e) {
			for k, v := range e.Details {
				gqlErr.Extensions[k] = v
			}
		}
		gqlErr.Extensions["code"] = extensionCode(code)
		return gqlErr
	}
}

func hasDomainError(err error) bool {
	var e *domain.Error
	return errors.As(err, &e)
}

// recoverPanic turns a resolver panic into an internal error, logged with its value.
func recoverPanic(log *slog.Logger) graphql.RecoverFunc {
	return func(ctx context.Context, p any) error {
		log.ErrorContext(ctx, "panic in resolver", "panic", fmt.Sprint(p))
		return domain.Errorf(domain.Internal, "panic: %v", p)
	}
}
