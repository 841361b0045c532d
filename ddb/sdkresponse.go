package ddb

// The parts of responses the in-process API's operations share (items,
// ConsumedCapacity, ItemCollectionMetrics), converted from the response
// values the operations return (map[string]any trees, as ServeHTTP encodes
// them) to the SDK's output types. Reading the one response value for both
// paths keeps their answers the same by construction; the conformance
// suite's in-process comparison (ddb/conformance) checks the conversion.

import (
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// responseItemToSDK converts an item of a response: the stored form of an
// unprojected read (rawItem, decoded here: it is what storage holds) or a
// decoded item.
func responseItemToSDK(x any) (map[string]types.AttributeValue, error) {
	switch it := x.(type) {
	case nil:
		return nil, nil
	case rawItem:
		return rawItemToSDK(it)
	case *storedItem:
		return storedItemToSDK(it)
	case attr.Item:
		return itemToSDK(it), nil
	case map[string]any:
		// A response replayed from a stored token holds generic JSON.
		raw, err := json.Marshal(it)
		if err != nil {
			return nil, err
		}
		return rawItemToSDK(raw)
	}
	return nil, fmt.Errorf("ddb: unexpected item %T in a response", x)
}

// number reads a number of a response: the engine's own (float64, int,
// int64) or one of a replayed response.
func number(x any) float64 {
	switch n := x.(type) {
	case float64:
		return n
	case int:
		return float64(n)
	case int64:
		return float64(n)
	case json.Number:
		f, _ := n.Float64()
		return f
	}
	return 0
}

// optString is a string of a response, nil when absent.
func optString(x any) *string {
	if s, ok := x.(string); ok {
		return &s
	}
	return nil
}

// capacityToSDK converts one ConsumedCapacity object (capacity.render).
func capacityToSDK(x any) *types.ConsumedCapacity {
	m, ok := x.(map[string]any)
	if !ok {
		return nil
	}
	cc := &types.ConsumedCapacity{TableName: optString(m["TableName"]), CapacityUnits: unitsOf(m)}
	if t, ok := m["Table"].(map[string]any); ok {
		cc.Table = &types.Capacity{CapacityUnits: unitsOf(t)}
	}
	cc.GlobalSecondaryIndexes = indexCapacities(m["GlobalSecondaryIndexes"])
	cc.LocalSecondaryIndexes = indexCapacities(m["LocalSecondaryIndexes"])
	return cc
}

// unitsOf is the CapacityUnits of a capacity object, nil when absent.
func unitsOf(m map[string]any) *float64 {
	x, ok := m["CapacityUnits"]
	if !ok {
		return nil
	}
	return aws.Float64(number(x))
}

// indexCapacities converts the per-index capacities of ConsumedCapacity.
func indexCapacities(x any) map[string]types.Capacity {
	m, ok := x.(map[string]any)
	if !ok {
		return nil
	}
	out := make(map[string]types.Capacity, len(m))
	for name, c := range m {
		cm, _ := c.(map[string]any)
		out[name] = types.Capacity{CapacityUnits: unitsOf(cm)}
	}
	return out
}

// capacitiesToSDK converts a ConsumedCapacity list (batches, transactions).
func capacitiesToSDK(x any) []types.ConsumedCapacity {
	var list []any
	switch l := x.(type) {
	case []map[string]any:
		for _, m := range l {
			list = append(list, m)
		}
	case []any:
		list = l
	default:
		return nil
	}
	out := make([]types.ConsumedCapacity, 0, len(list))
	for _, c := range list {
		if cc := capacityToSDK(c); cc != nil {
			out = append(out, *cc)
		}
	}
	return out
}

// toSDK converts a typed output's item (output.go): a stored item straight
// from its bytes, a decoded one value by value; nil when there is none.
func (r resultItem) toSDK() (map[string]types.AttributeValue, error) {
	switch {
	case r.stored != nil:
		return storedItemToSDK(r.stored)
	case r.decoded != nil:
		return itemToSDK(r.decoded), nil
	}
	return nil, nil
}

// toSDK converts a typed output's ConsumedCapacity (capacity.render gives
// the same over JSON); nil when none is reported.
func (cc consumedCapacity) toSDK() *types.ConsumedCapacity {
	if !cc.reported() {
		return nil
	}
	c := cc.c
	out := &types.ConsumedCapacity{TableName: aws.String(c.m.Name), CapacityUnits: aws.Float64(roundUnits(c.total()))}
	if cc.mode != capacityIndexes {
		return out
	}
	out.Table = &types.Capacity{CapacityUnits: aws.Float64(roundUnits(c.units))}
	for name, n := range c.indexes {
		units := types.Capacity{CapacityUnits: aws.Float64(roundUnits(n))}
		if ix := c.m.index(name); ix != nil && ix.Global {
			if out.GlobalSecondaryIndexes == nil {
				out.GlobalSecondaryIndexes = map[string]types.Capacity{}
			}
			out.GlobalSecondaryIndexes[name] = units
		} else {
			if out.LocalSecondaryIndexes == nil {
				out.LocalSecondaryIndexes = map[string]types.Capacity{}
			}
			out.LocalSecondaryIndexes[name] = units
		}
	}
	return out
}

// reportsToSDK converts a ConsumedCapacity list of plain reports; nil
// stays absent.
func reportsToSDK(list []capacityReport) []types.ConsumedCapacity {
	if list == nil {
		return nil
	}
	out := make([]types.ConsumedCapacity, len(list))
	for i, r := range list {
		cc := types.ConsumedCapacity{TableName: aws.String(r.TableName), CapacityUnits: aws.Float64(r.CapacityUnits)}
		if r.Table != nil {
			cc.Table = &types.Capacity{CapacityUnits: aws.Float64(r.Table.CapacityUnits)}
		}
		cc.GlobalSecondaryIndexes = unitsToSDK(r.GlobalSecondaryIndexes)
		cc.LocalSecondaryIndexes = unitsToSDK(r.LocalSecondaryIndexes)
		out[i] = cc
	}
	return out
}

// unitsToSDK converts per-index capacities; nil stays absent.
func unitsToSDK(m map[string]capacityUnits) map[string]types.Capacity {
	if m == nil {
		return nil
	}
	out := make(map[string]types.Capacity, len(m))
	for name, u := range m {
		out[name] = types.Capacity{CapacityUnits: aws.Float64(u.CapacityUnits)}
	}
	return out
}
