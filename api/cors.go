package api

import (
	"net/http"

	"github.com/rs/cors"

	"github.com/quickphotos/quickphotos/telemetry"
)

// withCORS lets browsers on origins call the API. Tokens travel in the Authorization header,
// never in cookies, so credentials are not allowed and "*" is safe when an operator wants it.
// With no origins, next is returned as is: browsers then call only from the API's own origin
// (the playground).
func withCORS(origins []string, next http.Handler) http.Handler {
	if len(origins) == 0 {
		return next
	}
	return cors.New(cors.Options{
		AllowedOrigins: origins,
		AllowedMethods: []string{http.MethodGet, http.MethodPost},
		AllowedHeaders: []string{"Authorization", "Content-Type", CostHeader, telemetry.RequestIDHeader,
			"Apollo-Require-Preflight", "X-Apollo-Operation-Name"},
		// A script reads only the response headers CORS exposes (beyond a safelisted few): these
		// are the ones a client acts on. Retry-After says when a 429 (the caller's rate limit)
		// may be retried, WWW-Authenticate that a 401's token is bad, the request id what to
		// quote in a report, and ETag what the embedded store stored of an upload, as the
		// photos bucket's CORS rules expose it on S3 (deploy/template.yaml).
		ExposedHeaders: []string{"Retry-After", "WWW-Authenticate", telemetry.RequestIDHeader, "ETag"},
		MaxAge:         600,
	}).Handler(next)
}
