// Package attr is the value model of the embedded DynamoDB-compatible engine:
// attribute values, items, their JSON wire codec, exact decimal numbers, the
// ordering of key values and their order-preserving binary encoding, and
// DynamoDB's item-size arithmetic.
//
// # Representation
//
// A Value is a flat struct with a Type tag and one field per wire type (S, N,
// B, BOOL, SS, NS, BS, L, M) rather than an interface. A struct avoids one
// heap allocation per scalar (boxing), keeps []Value contiguous in memory,
// lets callers switch on v.Type without type assertions, and mirrors the wire
// format so converters elsewhere read naturally. The cost is a larger Value
// (about 170 bytes), which is acceptable for items of at most 400 KB.
//
// Values are treated as immutable once built: functions in this package and
// in package expr never modify a Value or Item in place; they build new
// slices and maps where they change something and share the rest. Use Clone
// when a caller must mutate a value it did not build.
//
// # Numbers
//
// N holds the number's canonical text (see Decimal.String): values decoded
// from JSON or built with ParseN are already canonical, so equality of two
// canonical numbers is equality of their text. Arithmetic and ordering use
// Decimal, a small exact decimal written for DynamoDB's number model (38
// significant digits, magnitudes 1E-130 to 9.99…E+125). A general decimal
// library (for example cockroachdb/apd) was not used because DynamoDB needs
// only parse, compare, add and subtract, its own canonical text and an
// order-preserving byte encoding, none of which such a library provides
// directly, and because keeping the number model in one small file makes its
// rules easy to audit against DynamoDB.
//
// # Errors
//
// Malformed values produce a *ValidationError whose Message is worded as
// DynamoDB words it; the protocol handler turns it into a
// ValidationException.
package attr
