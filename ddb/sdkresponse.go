package ddb

// The parts of answers the typed SDK API's operations share (items,
// ConsumedCapacity), converted from the typed outputs the operations return
// (output.go) to the SDK's output types. Rendering the one answer on both
// paths keeps them the same by construction; the conformance suite's
// in-process comparison (ddb/conformance) checks the conversion.

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
