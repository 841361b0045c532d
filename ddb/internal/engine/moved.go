package engine

import (
	"sort"
)

// MaxRequestBytes is DynamoDB's limit on a request body: 16 MiB (its sizes are binary units).
// A larger body is refused with HTTP 413, before it is read when its length is declared, as
// DynamoDB and DynamoDB Local refuse it.
const MaxRequestBytes = 16 << 20

// DefaultRequestMemory is the default of Options.RequestMemory: four bodies of the largest
// size at once.
const DefaultRequestMemory = 4 * MaxRequestBytes

// TypeRequestTooLarge is the exception of a body over MaxRequestBytes. It is not one of
// DynamoDB's own exceptions but its HTTP front end's, so its __type has the service framework's
// namespace (coralServiceNamespace); DynamoDB Local answers 413 with an empty message.
const TypeRequestTooLarge = "RequestEntityTooLargeException"

// sortedKeys returns the keys of a map in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Deref is *s, or "" when s is nil.
func Deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
