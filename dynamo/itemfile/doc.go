// Package itemfile reads and writes items files and bulk-loads them into the table.
//
// An items file is the format of the tutorial's items.json: JSON objects, one table item each,
// in plain or DynamoDB-typed JSON (see ItemReader). Load writes a file's items with
// BatchWriteItem and names the line of the first bad one; LoadDataset writes a
// domain.Dataset the same way, and WriteDatasetJSON writes one as an items file.
//
// The package sits above package dynamo and asks of it only what a bulk load needs of the
// table (dynamo.BatchWriter, dynamo.LoadableItem, dynamo.Backoff.PutItems,
// dynamo.DatasetItems); dynamo knows nothing of the file format.
package itemfile

import "github.com/quickphotos/quickphotos/dynamo"

// Item is a table item, as package dynamo holds it.
type Item = dynamo.Item
