package sample

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/quickphotos/quickphotos/domain"
)

// Shape of the generated activity. Follow targets are drawn with weight 1/(rank+1)^followSkew,
// so the share of followers held by the most popular users grows with it; photos are drawn for
// reactions with their owner's weight times a heavy-tailed factor of their own.
const (
	followSkew        = 1.1
	meanFollowing     = 8.0
	meanPhotos        = 5.0
	maxPhotos         = 30
	meanReactionsMade = 10.0
	maxReactionDelay  = 7 * 24 * time.Hour
	cdnBase           = "https://cdn.quickphotos.example"
)

// reactionMix is how often each reaction type is chosen, in percent.
var reactionMix = []struct {
	t       domain.ReactionType
	percent int
}{
	{domain.ReactionHeart, 40}, {domain.ReactionThumbsUp, 30}, {domain.ReactionSmiley, 20}, {domain.ReactionSunglasses, 10},
}

type generator struct {
	cfg Config
	rng *rand.Rand
	d   domain.Dataset
	// userCum[i] and photoCum[i] are the cumulative popularity of Users[0..i] and appeal of
	// Photos[0..i], for weighted draws.
	userCum  []float64
	photoCum []float64
}

func newGenerator(cfg Config) *generator {
	// PCG is specified exactly, so a seed gives the same stream on every platform and Go release.
	return &generator{cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, 0x7175696b70686f74))}
}

func (g *generator) run() *domain.Dataset {
	g.users()
	g.photos()
	g.pinImages()
	g.follows()
	g.reactions()
	return &g.d
}

// users makes the profiles, most popular first.
func (g *generator) users() {
	n := g.cfg.Users
	taken := make(map[string]bool, n)
	g.d.Users = make([]domain.User, n)
	g.userCum = make([]float64, n)
	total := 0.0
	for i := range n {
		first, last := pick(g.rng, firstNames), pick(g.rng, lastNames)
		username := strings.ToLower(first + last)
		for k := 2; taken[username]; k++ {
			username = fmt.Sprintf("%s%s%d", strings.ToLower(first), strings.ToLower(last), k)
		}
		taken[username] = true
		city := pick(g.rng, cities)
		u := domain.User{Username: username, Profile: domain.Profile{
			Name:  ptr(first + " " + last),
			Email: ptr(g.email(first, last)),
			Birthdate: ptr(time.Date(1950, 1, 1, 0, 0, 0, 0, time.UTC).
				AddDate(0, 0, g.rng.IntN(55*365)).Format(time.DateOnly)),
			Address: ptr(fmt.Sprintf("%d %s %s, %s, %s %05d", 1+g.rng.IntN(9999), pick(g.rng, streetNames),
				pick(g.rng, streetKinds), city[0], city[1], 10000+g.rng.IntN(89999))),
			Interests: g.interests(),
		}}
		if g.rng.IntN(4) > 0 {
			u.Status = ptr(pick(g.rng, statuses))
		}
		g.d.Users[i] = u
		total += 1 / math.Pow(float64(i+1), followSkew)
		g.userCum[i] = total
	}
}

func (g *generator) email(first, last string) string {
	local := strings.ToLower(first) + "." + strings.ToLower(last)
	if g.rng.IntN(2) == 0 {
		local = strings.ToLower(first[:1]+last) + fmt.Sprint(g.rng.IntN(100))
	}
	return local + "@" + pick(g.rng, emailDomains)
}

func (g *generator) interests() []string {
	k := 1 + g.rng.IntN(4)
	chosen := g.rng.Perm(len(interests))[:k]
	sort.Ints(chosen)
	out := make([]string, k)
	for i, j := range chosen {
		out[i] = interests[j]
	}
	return out
}

// photos gives every user a few photos at increasing, so unique, timestamps. Popular users
// post a little more.
func (g *generator) photos() {
	end := g.cfg.Start.Add(g.cfg.Span)
	total := 0.0
	for i, u := range g.d.Users {
		n := min(maxPhotos, g.poisson(meanPhotos*(0.5+2/math.Sqrt(float64(i+1)))))
		at := g.cfg.Start.Add(time.Duration(g.rng.Int64N(int64(g.cfg.Span) / 2)))
		step := (end.Sub(at)) / time.Duration(n+1)
		for range n {
			at = at.Add(time.Second + time.Duration(g.rng.Int64N(int64(step)+1)))
			g.d.Photos = append(g.d.Photos, domain.Photo{
				Owner:     u.Username,
				Timestamp: domain.Timestamp(at),
				URL:       fmt.Sprintf("%s/photos/%s/%016x.jpg", cdnBase, u.Username, g.rng.Uint64()),
				Reactions: domain.ReactionCounts{},
			})
			// The photo's own appeal: Pareto-distributed, times its owner's popularity.
			appeal := math.Pow(1-g.rng.Float64(), -1/1.5) / math.Pow(float64(i+1), followSkew)
			total += appeal
			g.photoCum = append(g.photoCum, total)
		}
	}
}

// pinImages pins one of their photos, or a profile image, for most users.
func (g *generator) pinImages() {
	byOwner := map[string][]string{}
	for _, p := range g.d.Photos {
		byOwner[p.Owner] = append(byOwner[p.Owner], p.URL)
	}
	for i := range g.d.Users {
		u := &g.d.Users[i]
		switch urls := byOwner[u.Username]; {
		case g.rng.IntN(5) == 0:
		case len(urls) > 0:
			u.PinnedImage = ptr(pick(g.rng, urls))
		default:
			u.PinnedImage = ptr(fmt.Sprintf("%s/profiles/%s/%016x.jpg", cdnBase, u.Username, g.rng.Uint64()))
		}
	}
}

// follows makes every user follow a few others, drawn by popularity, never themselves and
// never twice, and counts them on both profiles.
func (g *generator) follows() {
	n := len(g.d.Users)
	for i := range g.d.Users {
		want := min(n-1, g.poisson(meanFollowing))
		seen := map[int]bool{i: true}
		for tries := 0; len(seen)-1 < want && tries < 20*want; tries++ {
			j := draw(g.rng, g.userCum)
			if seen[j] {
				continue
			}
			seen[j] = true
			g.d.Friendships = append(g.d.Friendships, domain.Friendship{
				Follower:  g.d.Users[i].Username,
				Followed:  g.d.Users[j].Username,
				Timestamp: domain.Timestamp(g.cfg.Start.Add(time.Duration(g.rng.Int64N(int64(g.cfg.Span))))),
			})
			g.d.Users[i].FollowingCount++
			g.d.Users[j].FollowerCount++
		}
	}
}

// reactions makes every user react to photos drawn by appeal: at most once per type and photo,
// never to their own, each counted on its photo.
func (g *generator) reactions() {
	if len(g.d.Photos) == 0 {
		return
	}
	for _, u := range g.d.Users {
		want := g.poisson(meanReactionsMade)
		done := map[domain.ReactionKey]bool{}
		for tries := 0; len(done) < want && tries < 20*want; tries++ {
			pi := draw(g.rng, g.photoCum)
			p := &g.d.Photos[pi]
			if p.Owner == u.Username {
				continue
			}
			k := domain.ReactionKey{Username: u.Username, Type: g.reactionType(), Photo: p.Key()}
			if done[k] {
				continue
			}
			done[k] = true
			posted, _ := time.Parse(domain.TimestampLayout, p.Timestamp)
			g.d.Reactions = append(g.d.Reactions, domain.Reaction{
				Username:  k.Username,
				Type:      k.Type,
				Photo:     k.Photo,
				Timestamp: domain.Timestamp(posted.Add(time.Duration(g.rng.Int64N(int64(maxReactionDelay))))),
			})
			p.Reactions[k.Type]++
		}
	}
}

func (g *generator) reactionType() domain.ReactionType {
	r := g.rng.IntN(100)
	for _, m := range reactionMix {
		if r < m.percent {
			return m.t
		}
		r -= m.percent
	}
	return reactionMix[0].t
}

// poisson draws from a Poisson distribution of the given mean (Knuth's method; means here are small).
func (g *generator) poisson(mean float64) int {
	limit, k, p := math.Exp(-mean), 0, 1.0
	for {
		p *= g.rng.Float64()
		if p <= limit {
			return k
		}
		k++
	}
}

// draw returns an index drawn with probability proportional to its weight, given the
// cumulative sums of the weights.
func draw(rng *rand.Rand, cum []float64) int {
	x := rng.Float64() * cum[len(cum)-1]
	return min(sort.SearchFloat64s(cum, x), len(cum)-1)
}

func pick[T any](rng *rand.Rand, list []T) T { return list[rng.IntN(len(list))] }

func ptr(s string) *string { return &s }
