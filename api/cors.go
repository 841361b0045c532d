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
		ExposedHeaders: []string{telemetry.RequestIDHeader},
		MaxAge:         600,
	}).Handler(next)
}
