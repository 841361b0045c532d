// Package sample generates a realistic, deterministic Quick Photos dataset: users with
// profiles, their photos over time, follows and reactions whose popularity follows a power law
// (a few users are followed by many, a few photos get most reactions), and counters that agree
// exactly with the friendship and reaction items.
//
// The same Config always yields the same dataset, byte for byte once written with WriteJSON,
// so a dataset can be regenerated instead of stored. Items are made by the dynamo package's
// converters only, so they have exactly the shape the server reads and writes.
package sample

import (
	"io"
	"iter"
	"time"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
)

// Defaults of a zero Config field.
const (
	DefaultSeed  = 1
	DefaultUsers = 200
)

// DefaultStart is when the activity of a default dataset begins; it lasts DefaultSpan.
var (
	DefaultStart = time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC)
	DefaultSpan  = 365 * 24 * time.Hour
)

// Config says what to generate. A zero field takes its default.
type Config struct {
	// Seed selects the dataset; the same seed and counts always give the same dataset.
	// Zero means DefaultSeed.
	Seed uint64
	// Users is the number of users; DefaultUsers when zero.
	Users int
	// Start and Span bound the photos' and follows' timestamps (reactions may come a few days
	// after the photo they are on). DefaultStart and DefaultSpan when zero.
	Start time.Time
	Span  time.Duration
}

func (c Config) withDefaults() Config {
	if c.Seed == 0 {
		c.Seed = DefaultSeed
	}
	if c.Users <= 0 {
		c.Users = DefaultUsers
	}
	if c.Start.IsZero() {
		c.Start = DefaultStart
	}
	if c.Span <= 0 {
		c.Span = DefaultSpan
	}
	c.Start = c.Start.UTC().Truncate(time.Second)
	return c
}

// Dataset is a generated dataset. Users are in order of popularity, most followed first;
// photos, friendships and reactions are in the order they were generated.
type Dataset struct {
	Users       []domain.User
	Photos      []domain.Photo
	Friendships []domain.Friendship
	Reactions   []domain.Reaction
}

// Generate returns the dataset cfg describes.
func Generate(cfg Config) *Dataset {
	return newGenerator(cfg.withDefaults()).run()
}

// Len is the number of items of the dataset.
func (d *Dataset) Len() int {
	return len(d.Users) + len(d.Photos) + len(d.Friendships) + len(d.Reactions)
}

// Items yields the dataset's table items: the profiles, then the photos, the friendships and
// the reactions.
func (d *Dataset) Items() iter.Seq[dynamo.Item] {
	return func(yield func(dynamo.Item) bool) {
		for _, u := range d.Users {
			if !yield(dynamo.UserItem(u)) {
				return
			}
		}
		for _, p := range d.Photos {
			if !yield(dynamo.PhotoItem(p)) {
				return
			}
		}
		for _, f := range d.Friendships {
			if !yield(dynamo.FriendshipItem(f)) {
				return
			}
		}
		for _, r := range d.Reactions {
			if !yield(dynamo.ReactionItem(r)) {
				return
			}
		}
	}
}

// WriteJSON writes the dataset's items to w, one plain JSON object a line (the format of the
// tutorial's items.json, which dynamo.NewItemReader reads back).
func (d *Dataset) WriteJSON(w io.Writer) error {
	for item := range d.Items() {
		if err := dynamo.WriteItemJSON(w, item); err != nil {
			return err
		}
	}
	return nil
}
