package engine

import (
	lru "github.com/hashicorp/golang-lru/v2"
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
