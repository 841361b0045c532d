package sdkapi

// Legacy (pre-expression) parameters on the in-process API (sdkapi.go):
// the SDK's Expected, KeyConditions, QueryFilter, ScanFilter and
// AttributeUpdates become the engine's legacyParams, which translate them
// into expressions as for a JSON request (engine/legacyparams.go).

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// optValueFromSDK converts an optional standalone value: nil stays absent.
func optValueFromSDK(v types.AttributeValue) (*attr.Value, error) {
	if v == nil {
		return nil, nil
	}
	x, err := standaloneFromSDK(v)
	if err != nil {
		return nil, err
	}
	return &x, nil
}

// valueListFromSDK converts an AttributeValueList; the SDK leaves nil
// elements out of the list it sends.
func valueListFromSDK(list []types.AttributeValue) ([]attr.Value, error) {
	if list == nil {
		return nil, nil
	}
	out := make([]attr.Value, 0, len(list))
	for _, v := range list {
		if v == nil {
			continue
		}
		x, err := standaloneFromSDK(v)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

// expectedFromSDK converts Expected.
func expectedFromSDK(m map[string]types.ExpectedAttributeValue) (map[string]engine.LegacyCondition, error) {
	if m == nil {
		return nil, nil
	}
	out := make(map[string]engine.LegacyCondition, len(m))
	for name, e := range m {
		v, err := optValueFromSDK(e.Value)
		if err != nil {
			return nil, err
		}
		list, err := valueListFromSDK(e.AttributeValueList)
		if err != nil {
			return nil, err
		}
		out[name] = engine.LegacyCondition{Value: v, Exists: e.Exists, ComparisonOperator: string(e.ComparisonOperator), AttributeValueList: list}
	}
	return out, nil
}

// conditionsFromSDK converts KeyConditions, QueryFilter or ScanFilter.
func conditionsFromSDK(m map[string]types.Condition) (map[string]engine.LegacyCondition, error) {
	if m == nil {
		return nil, nil
	}
	out := make(map[string]engine.LegacyCondition, len(m))
	for name, c := range m {
		list, err := valueListFromSDK(c.AttributeValueList)
		if err != nil {
			return nil, err
		}
		out[name] = engine.LegacyCondition{ComparisonOperator: string(c.ComparisonOperator), AttributeValueList: list}
	}
	return out, nil
}

// attributeUpdatesFromSDK converts AttributeUpdates.
func attributeUpdatesFromSDK(m map[string]types.AttributeValueUpdate) (map[string]engine.LegacyUpdate, error) {
	if m == nil {
		return nil, nil
	}
	out := make(map[string]engine.LegacyUpdate, len(m))
	for name, u := range m {
		v, err := optValueFromSDK(u.Value)
		if err != nil {
			return nil, err
		}
		out[name] = engine.LegacyUpdate{Action: string(u.Action), Value: v}
	}
	return out, nil
}
