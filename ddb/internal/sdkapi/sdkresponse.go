package sdkapi

// The parts of answers the typed SDK API's operations share (items,
// ConsumedCapacity), converted from the typed outputs the operations return
// (engine/output.go) to the SDK's output types. Rendering the one answer on both
// paths keeps them the same by construction; the conformance suite's
// in-process comparison (ddb/conformance) checks the conversion.

import (
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// responseItemToSDK converts an item of a response: the stored form of an
// unprojected read (rawItem, decoded here: it is what storage holds) or a
// decoded item.
func responseItemToSDK(x any) (map[string]types.AttributeValue, error) {
	switch it := x.(type) {
	case nil:
		return nil, nil
	case engine.RawItem:
		return rawItemToSDK(it)
	case *storage.StoredItem:
		return storedItemToSDK(it, newItemBuilder(1))
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

// resultItemToSDK converts a typed output's item (engine/output.go) with b: a stored item
// straight from its bytes, a decoded one value by value; nil when there is none.
func resultItemToSDK(r engine.ResultItem, b *sdkItemBuilder) (map[string]types.AttributeValue, error) {
	switch {
	case r.Stored != nil:
		return storedItemToSDK(r.Stored, b)
	case r.Decoded != nil:
		return itemToSDK(r.Decoded), nil
	}
	return nil, nil
}

// resultItemsToSDK converts the items of one answer (a page, a table's share of a batch, a
// transaction's reads) with one builder.
func resultItemsToSDK(items []engine.ResultItem) ([]map[string]types.AttributeValue, error) {
	b := newItemBuilder(len(items))
	out := make([]map[string]types.AttributeValue, len(items))
	for i, it := range items {
		m, err := resultItemToSDK(it, b)
		if err != nil {
			return nil, err
		}
		out[i] = m
	}
	return out, nil
}

// consumedCapacityToSDK converts a typed output's ConsumedCapacity (capacity.render gives
// the same over JSON); nil when none is reported.
func consumedCapacityToSDK(cc engine.ConsumedCapacity) *types.ConsumedCapacity {
	if !cc.Reported() {
		return nil
	}
	c := cc.C
	out := &types.ConsumedCapacity{TableName: aws.String(c.M.Name), CapacityUnits: aws.Float64(engine.RoundUnits(c.Total()))}
	if cc.Mode != engine.CapacityIndexes {
		return out
	}
	out.Table = &types.Capacity{CapacityUnits: aws.Float64(engine.RoundUnits(c.Units))}
	for name, n := range c.Indexes {
		units := types.Capacity{CapacityUnits: aws.Float64(engine.RoundUnits(n))}
		if ix := c.M.Index(name); ix != nil && ix.Global {
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
func reportsToSDK(list []engine.CapacityReport) []types.ConsumedCapacity {
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
func unitsToSDK(m map[string]engine.CapacityUnits) map[string]types.Capacity {
	if m == nil {
		return nil
	}
	out := make(map[string]types.Capacity, len(m))
	for name, u := range m {
		out[name] = types.Capacity{CapacityUnits: aws.Float64(u.CapacityUnits)}
	}
	return out
}
