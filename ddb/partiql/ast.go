// Package partiql parses the PartiQL statements DynamoDB's ExecuteStatement,
// BatchExecuteStatement and ExecuteTransaction accept: SELECT, INSERT,
// UPDATE and DELETE over one table (or "table"."index" for SELECT), with
// `?` parameters. The engine (package ddb) executes a parsed statement by
// translating its conditions into DynamoDB expressions, so every operator
// and function means exactly what it means in a ConditionExpression.
//
// No Go PartiQL library parses DynamoDB's dialect (double-quoted table
// names, `VALUE {…}` tuples, `<<…>>` sets, DynamoDB's functions), so this
// is a small recursive-descent parser in the style of ddb/expr: a lexer,
// one function per grammar rule, and errors that name what was expected.
package partiql

import "github.com/quickphotos/quickphotos/ddb/attr"

// Statement is a parsed SELECT, INSERT, UPDATE or DELETE.
type Statement interface{ statement() }

// Select reads items of Table (or of its index Index).
type Select struct {
	// Projection lists the paths to return; nil means every attribute (*).
	Projection []Path
	Table      string
	Index      string
	Where      Expr // nil when absent
}

// Insert adds the item Value (a Tuple) to Table; it fails when an item
// with the same key exists.
type Insert struct {
	Table string
	Value Expr
}

// Update changes the item of Table that Where names.
type Update struct {
	Table   string
	Sets    []Assignment
	Removes []Path
	Where   Expr
}

// Assignment is one SET clause: Path = Value.
type Assignment struct {
	Path  Path
	Value Expr
}

// Delete removes the item of Table that Where names.
type Delete struct {
	Table string
	Where Expr
}

func (*Select) statement() {}
func (*Insert) statement() {}
func (*Update) statement() {}
func (*Delete) statement() {}

// Expr is an expression: Path, Literal, Param, Tuple, List, Bag, Binary,
// Not, Between, In, Is or Call.
type Expr interface{ expr() }

// Path is an attribute path: a name, then .name and [index] steps.
type Path struct{ Steps []PathStep }

// PathStep is one step of a Path: a name, or a list index when IsIndex.
type PathStep struct {
	Name    string
	Index   int
	IsIndex bool
}

// Literal is a constant value.
type Literal struct{ Value attr.Value }

// Param is the N-th `?` of the statement (from 0).
type Param struct{ N int }

// Tuple is {'key': value, …}: a map.
type Tuple struct {
	Keys   []string
	Values []Expr
}

// List is [value, …].
type List struct{ Elems []Expr }

// Bag is <<value, …>>: a string, number or binary set.
type Bag struct{ Elems []Expr }

// Binary is L Op R, Op one of = <> < <= > >= AND OR + -.
type Binary struct {
	Op   string
	L, R Expr
}

// Not is NOT X.
type Not struct{ X Expr }

// Between is X BETWEEN Lo AND Hi.
type Between struct{ X, Lo, Hi Expr }

// In is X IN [list] or X IN (list).
type In struct {
	X    Expr
	List []Expr
}

// Is is X IS [NOT] MISSING (Missing) or X IS [NOT] NULL.
type Is struct {
	X       Expr
	Missing bool
	Negated bool
}

// Call is a function call, Name in lower case.
type Call struct {
	Name string
	Args []Expr
}

func (Path) expr()     {}
func (Literal) expr()  {}
func (Param) expr()    {}
func (*Tuple) expr()   {}
func (*List) expr()    {}
func (*Bag) expr()     {}
func (*Binary) expr()  {}
func (*Not) expr()     {}
func (*Between) expr() {}
func (*In) expr()      {}
func (*Is) expr()      {}
func (*Call) expr()    {}

// Error is a statement DynamoDB would not accept; the engine answers it
// with a ValidationException carrying Message.
type Error struct{ Message string }

// Error implements error.
func (e *Error) Error() string { return e.Message }

// syntaxError is the error of a statement that does not parse, near the
// text at.
func syntaxError(at, detail string) *Error {
	if len(at) > 20 {
		at = at[:20]
	}
	return &Error{Message: "Statement wasn't well formed, can't be processed: " + detail + " near: " + at}
}
