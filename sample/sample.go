// Package sample generates a realistic, deterministic Quick Photos dataset: users with
// profiles, their photos over time, follows and reactions whose popularity follows a power law
// (a few users are followed by many, a few photos get most reactions), and counters that agree
// exactly with the friendship and reaction items.
//
// The same Config always yields the same dataset, byte for byte once written as items (see
// itemfile.WriteDatasetJSON), so a dataset can be regenerated instead of stored. It is made of
// domain values; package dynamo turns them into the items the server reads and writes.
package sample

import (
	"time"

	"github.com/quickphotos/quickphotos/domain"
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

// Generate returns the dataset cfg describes. Users are in order of popularity, most
// followed first; photos, friendships and reactions are in the order they were generated.
func Generate(cfg Config) *domain.Dataset {
	return newGenerator(cfg.withDefaults()).run()
}
