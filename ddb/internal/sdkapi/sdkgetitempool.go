package sdkapi

import (
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// getItemInputs recycles the engine's GetItem requests, with their key's
// map, for the in-process API's most frequent request. An attr.Item of up to
// eight attributes is one group of eight slots of key and attr.Value
// however few it holds: for a key of one or two attributes, making it and
// the request was a tenth of an in-process GetItem. A request is recycled
// only once the engine is done with it; GetItem's answer keeps no part of
// it.
var getItemInputs = sync.Pool{New: func() any { return &engine.GetItemInput{} }}

// newGetItemInput returns a recycled request holding key, converted as
// itemFromSDK converts it.
func newGetItemInput(key map[string]types.AttributeValue) (*engine.GetItemInput, error) {
	x := getItemInputs.Get().(*engine.GetItemInput)
	if key == nil || len(key) > 8 { // no key, or no key of any table
		k, err := itemFromSDK(key)
		if err != nil {
			releaseGetItemInput(x)
			return nil, err
		}
		x.Key = k
		return x, nil
	}
	if x.Key == nil {
		x.Key = make(attr.Item, len(key))
	}
	if _, err := convertMembers(x.Key, key, 1); err != nil {
		releaseGetItemInput(x)
		_, err = itemFromSDK(key) // its error, exactly as without the pool
		return nil, err
	}
	return x, nil
}

// releaseGetItemInput recycles x, which nothing may use afterwards. A key
// map that grew past one group is left to the garbage collector.
func releaseGetItemInput(x *engine.GetItemInput) {
	key := x.Key
	if len(key) > 8 {
		key = nil
	}
	clear(key)
	*x = engine.GetItemInput{KeyInput: engine.KeyInput{Key: key}}
	getItemInputs.Put(x)
}
