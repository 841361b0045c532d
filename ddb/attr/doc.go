// Package attr is the value model of the embedded DynamoDB-compatible engine:
// attribute values, items, their JSON wire codec, exact decimal numbers, the
// ordering of key values and their order-preserving binary encoding, and
// DynamoDB's item-size arithmetic.
//
// # Representation
//
// A Value is a small struct with a Type tag rather than an interface: the
// fields strings, numbers, booleans and maps use are inline (S holds an S's
// text and an N's canonical text, BOOL, M), and a binary, a list or a set
// sits behind one pointer (read with Bytes, List, SS, NS, BS). A struct
// avoids one heap allocation per scalar (boxing), keeps []Value contiguous
// in memory and lets callers switch on v.Type without type assertions.
// Keeping it at 40 bytes matters because items are maps and Go stores a
// map's values inline in groups of eight slots: every small map of a request
// or a stored item costs eight Values however few attributes it holds.
//
// Values are treated as immutable once built: functions in this package and
// in package expr never modify a Value or Item in place; they build new
// slices and maps where they change something and share the rest. Use Clone
// when a caller must mutate a value it did not build.
//
// # Numbers
//
// A number holds its canonical text (see Decimal.String) in S, read with
// NumText: values decoded from JSON or built with ParseN are already
// canonical, so equality of two canonical numbers is equality of their text. Arithmetic and ordering use
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
