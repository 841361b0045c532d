package engine

// Condition evaluation, shared by the single-item writes (write.go) and
// TransactWriteItems, and by the filters of Query and Scan.

import "github.com/quickphotos/quickphotos/ddb/attr"

// bindCondition binds the ConditionExpression, the last expression of a
// single-item write, then reports placeholders no expression used.
func (p *WriteParams) bindCondition(env *exprEnv) (condition, error) {
	cond, err := env.condition(p.ConditionExpression)
	if err != nil {
		return nil, err
	}
	return cond, env.Check()
}

// checkOnFailure validates ReturnValuesOnConditionCheckFailure.
func checkOnFailure(v string) error {
	switch v {
	case "", "NONE", "ALL_OLD":
		return nil
	}
	return Validationf("1 validation error detected: Value '%s' at 'returnValuesOnConditionCheckFailure' failed to satisfy constraint: Member must satisfy enum value set: [ALL_OLD, NONE]", v)
}

// failure returns the ConditionalCheckFailedException of a write, with the
// old item when asked for.
func (p *WriteParams) failure(old attr.Item) error {
	if p.ReturnValuesOnConditionCheckFailure == "ALL_OLD" && old != nil {
		return conditionFailed(old)
	}
	return conditionFailed(nil)
}

// evalCondition evaluates an optional condition against an item that may be
// absent (nil is evaluated as an empty item).
func evalCondition(c condition, it attr.Item) (bool, error) {
	if c == nil {
		return true, nil
	}
	if it == nil {
		it = attr.Item{}
	}
	return c(it)
}
