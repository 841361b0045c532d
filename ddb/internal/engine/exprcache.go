package engine

import (
	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/quickphotos/quickphotos/ddb/expr"
)

// Parsed expressions are kept, by kind and text, in a process-wide LRU
// cache: an application sends the same few expressions again and again
// (quickphotos's every Query has one of three KeyConditionExpressions),
// and parsing one cost more than binding it to a request's placeholders.
// A parsed expression is never changed (Bind builds a new tree), so one
// may serve many requests at once. Only expressions that parse are kept;
// a faulty one is parsed again for its error.

// exprCacheSize bounds the cache by count: an expression's text is at most
// 4 KB (expr.MaxExpressionSize) and its parsed tree a few times that, so
// the cache holds some MB at most, and far less for an application's few
// expressions.
const exprCacheSize = 1024

// exprKey identifies a parsed expression: what it is and its text.
type exprKey struct {
	kind string
	text string
}

var parsedExprs = mustLRU()

func mustLRU() *lru.Cache[exprKey, any] {
	c, err := lru.New[exprKey, any](exprCacheSize)
	if err != nil {
		panic(err) // only for a size below 1
	}
	return c
}

// parseCached returns the parsed form of expression text of the given
// kind, parsing it with parse unless the cache has it.
func parseCached[T any](kind, text string, parse func(string) (T, error)) (T, error) {
	k := exprKey{kind, text}
	if v, ok := parsedExprs.Get(k); ok {
		return v.(T), nil
	}
	v, err := parse(text)
	if err == nil {
		parsedExprs.Add(k, v)
	}
	return v, err
}

// Bound projections are kept too, by their parsed expression and the names its placeholders
// stand for: an application sends the same ProjectionExpression with the same names again and
// again (quickphotos reads a profile's selected fields with one per selection), and binding
// one, its paths and the trie Apply walks, was the largest part of a one-item read's work in
// the engine. A bound projection is never changed, so requests share it; only bindings that
// succeeded are kept, and a request that reuses one marks its placeholders used, as binding
// does, for the check of unused names.
type boundKey struct {
	parsed *expr.Projection
	names  string
}

var boundProjections = mustBoundLRU()

func mustBoundLRU() *lru.Cache[boundKey, *expr.Projection] {
	c, err := lru.New[boundKey, *expr.Projection](exprCacheSize)
	if err != nil {
		panic(err) // only for a size below 1
	}
	return c
}

// bindProjection binds parsed to p's names, reusing the binding of an earlier request with the
// same names.
func bindProjection(parsed *expr.Projection, p *expr.Params) (*expr.Projection, error) {
	var buf [256]byte
	names, ok := parsed.NamesKey(p, buf[:0])
	var key boundKey
	if ok {
		key = boundKey{parsed, string(names)}
		if bound, hit := boundProjections.Get(key); hit {
			parsed.MarkUsed(p)
			return bound, nil
		}
	}
	bound, err := parsed.Bind(p)
	if err == nil && ok {
		boundProjections.Add(key, bound)
	}
	return bound, err
}
