// Package expr implements DynamoDB's expression language for the embedded
// engine: condition and filter expressions, key condition expressions,
// projection expressions and update expressions.
//
// Each expression goes through three steps:
//
//  1. Parse (ParseCondition, ParseFilter, ParseKeyCondition,
//     ParseProjection, ParseUpdate) checks syntax, reserved words, function
//     names and arities, and returns an immutable AST that still holds the
//     #name and :value placeholders. Parsed expressions can be cached by
//     their text and shared between goroutines.
//  2. Bind substitutes one request's ExpressionAttributeNames and
//     ExpressionAttributeValues (held by a Params) and applies the checks
//     that depend on them: undefined placeholders, operand types of
//     literal values, overlapping document paths, key attributes in
//     updates, and the key schema of a query. Params records what was used;
//     after binding every expression of a request, Params.CheckUnused
//     reports unused names and values, as DynamoDB does across all of a
//     request's expressions.
//  3. The bound expression is evaluated: Condition.Eval against items,
//     Update.Apply to produce a new item (Update.ApplyInPlace to change
//     one the caller is done with), Projection.Apply to select
//     attributes, and KeyRange for the storage layer's range scan.
//
// All errors are *attr.ValidationError with DynamoDB's wording, ready to
// be returned as a ValidationException. Static errors carry the prefix
// "Invalid <ExpressionKind>: "; evaluation-time errors of updates
// (MsgMissingOperand, MsgWrongType, MsgInvalidPath) do not.
package expr
