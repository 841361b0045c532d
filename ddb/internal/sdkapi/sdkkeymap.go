package sdkapi

import (
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// keyMaps recycles the maps of GetItem's keys, the in-process API's most
// frequent request. An attr.Item of up to eight attributes is one group of
// eight slots, each holding an attr.Value (about a kilobyte in all): for a
// key of one or two attributes, allocating and clearing it was a fifth of
// an in-process GetItem. A map is recycled only once the request is done
// with it, and only by an operation whose answer keeps no part of it.
var keyMaps keyMapPool

type keyMapPool struct{ p sync.Pool }

// fromSDK converts a key as itemFromSDK does, into a recycled map.
func (k *keyMapPool) fromSDK(m map[string]types.AttributeValue) (attr.Item, error) {
	if m == nil || len(m) > 8 {
		return itemFromSDK(m)
	}
	out, _ := k.p.Get().(attr.Item)
	if out == nil {
		out = make(attr.Item, 2)
	}
	if it, err := convertMembers(out, m, 1); err == nil {
		return it, nil
	}
	k.put(out)
	return itemFromSDK(m) // for its error, exactly as without the pool
}

// put recycles key, which nothing may use afterwards. Maps that grew past
// one group are left to the garbage collector.
func (k *keyMapPool) put(key attr.Item) {
	if key == nil || len(key) > 8 {
		return
	}
	clear(key)
	k.p.Put(key)
}
