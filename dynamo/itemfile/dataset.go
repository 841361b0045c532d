package itemfile

import (
	"context"
	"io"
	"iter"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
)

// LoadDataset writes every entity of d into table as Load writes items, counters as they are,
// and returns how many it wrote. An error names the entity by its position in the order of
// dynamo.DatasetItems, as a line.
func LoadDataset(ctx context.Context, client dynamo.BatchWriter, table string, d *domain.Dataset, progress func(written int)) (int, error) {
	next, stop := iter.Pull(dynamo.DatasetItems(d))
	defer stop()
	return loadItems(ctx, client, table, &pulledItems{next: next}, progress)
}

// WriteDatasetJSON writes the items of d to w, one plain JSON object a line: the format of
// the tutorial's items.json, which NewItemReader reads back.
func WriteDatasetJSON(w io.Writer, d *domain.Dataset) error {
	for item := range dynamo.DatasetItems(d) {
		if err := WriteItemJSON(w, item); err != nil {
			return err
		}
	}
	return nil
}

// pulledItems is an itemSource over a pulled iterator; an item's line is its position.
type pulledItems struct {
	next func() (Item, bool)
	line int
}

func (p *pulledItems) Next() (Item, error) {
	item, ok := p.next()
	if !ok {
		return nil, io.EOF
	}
	p.line++
	return item, nil
}

func (p *pulledItems) Line() int { return p.line }
