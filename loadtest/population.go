package loadtest

import (
	"math/rand/v2"
	"sync"
	"time"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/sample"
)

// photoRef names a photo as the API does.
type photoRef struct{ Owner, Timestamp string }

// population is what the workload picks from on one target: the sample's users and photos,
// and what the run has changed there since.
type population struct {
	*dataset

	mu sync.Mutex
	// made says, for each reaction or friendship the run has touched, whether it now exists.
	made map[string]bool
	// followSent is when the run last sent each follow (follower, followed) that succeeded:
	// a new follower's feed gets the followed user's recent photos, which are not uploads
	// reaching their subscribers.
	followSent map[[2]string]time.Time
	// lastUpload is each owner's latest upload timestamp: a photo's key holds whole seconds, so
	// an owner's next upload must be a second later.
	lastUpload map[string]time.Time
}

// dataset is the users and photos of the sample the targets hold.
type dataset struct {
	users  []string
	photos []photoRef
}

// sampleDataset is the sample `serve --sample --sample-users users` loads (seed 1, as serve
// uses).
func sampleDataset(users int, seed uint64) *dataset {
	d := sample.Generate(sample.Config{Users: users, Seed: seed})
	ds := &dataset{}
	for _, u := range d.Users {
		ds.users = append(ds.users, u.Username)
	}
	for _, ph := range d.Photos {
		ds.photos = append(ds.photos, photoRef{ph.Owner, ph.Timestamp})
	}
	return ds
}

// on starts a target's population: each target holds its own copy of the data, so what the
// run made on one says nothing of another.
func (d *dataset) on() *population {
	return &population{dataset: d, made: map[string]bool{}, lastUpload: map[string]time.Time{}, followSent: map[[2]string]time.Time{}}
}

// exists reports whether the run last left key existing.
func (p *population) exists(key string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.made[key]
}

// settle records whether key exists after an answer: success of the create or a CONFLICT say it
// does; success of the undo or a NOT_FOUND say it does not.
func (p *population) settle(key string, undo bool, code string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case code == "" && !undo, code == "CONFLICT":
		p.made[key] = true
	case code == "" && undo, code == "NOT_FOUND":
		p.made[key] = false
	}
}

// followed records that follower's follow of followed, sent at sent, succeeded.
func (p *population) followed(follower, followed string, sent time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.followSent[[2]string{follower, followed}] = sent
}

// followedSince reports whether the run made follower follow followed after t.
func (p *population) followedSince(follower, followed string, t time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	sent, ok := p.followSent[[2]string{follower, followed}]
	return ok && sent.After(t)
}

// nextUpload returns a timestamp for owner's next photo: now, or a second after its last upload.
func (p *population) nextUpload(owner string, now time.Time) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := now.UTC().Truncate(time.Second)
	if last, ok := p.lastUpload[owner]; ok && !t.After(last) {
		t = last.Add(time.Second)
	}
	p.lastUpload[owner] = t
	return domain.Timestamp(t)
}

// client is one simulated app: it sends one request at a time.
type client struct {
	pop  *population
	rand *rand.Rand
}

func (c *client) user() string { return c.pop.users[c.rand.IntN(len(c.pop.users))] }

// users returns n users at random, all of them when there are no more.
func (c *client) users(n int) []string {
	if n >= len(c.pop.users) {
		return c.pop.users
	}
	out := make([]string, n)
	for i, j := range c.rand.Perm(len(c.pop.users))[:n] {
		out[i] = c.pop.users[j]
	}
	return out
}

func (c *client) photo() photoRef { return c.pop.photos[c.rand.IntN(len(c.pop.photos))] }

// twoUsers returns two different users.
func (c *client) twoUsers() (string, string) {
	n := len(c.pop.users)
	i, j := c.rand.IntN(n), c.rand.IntN(n-1)
	if j >= i {
		j++
	}
	return c.pop.users[i], c.pop.users[j]
}

func (c *client) newPhoto() photoRef {
	owner := c.user()
	return photoRef{owner, c.pop.nextUpload(owner, time.Now())}
}

// toggle sends create, or undo when the run last left key existing, and records the outcome;
// created, when set, is told of a create that succeeded.
func (c *client) toggle(key string, create, undo call, created func()) call {
	next, isUndo := create, c.pop.exists(key)
	if isUndo {
		next = undo
	}
	next.settle = func(code string) {
		c.pop.settle(key, isUndo, code)
		if code == "" && !isUndo && created != nil {
			created()
		}
	}
	return next
}
