package sample_test

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"testing"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo/itemfile"
	"github.com/quickphotos/quickphotos/sample"
)

func TestGenerate_Deterministic(t *testing.T) {
	write := func(cfg sample.Config) []byte {
		var buf bytes.Buffer
		if err := itemfile.WriteDatasetJSON(&buf, sample.Generate(cfg)); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	a, b := write(sample.Config{Seed: 7}), write(sample.Config{Seed: 7})
	if !bytes.Equal(a, b) {
		t.Fatal("the same seed gave different bytes")
	}
	if bytes.Equal(a, write(sample.Config{Seed: 8})) {
		t.Error("different seeds gave the same bytes")
	}
	// A zero Config is the default one.
	if !bytes.Equal(write(sample.Config{}), write(sample.Config{Seed: sample.DefaultSeed, Users: sample.DefaultUsers})) {
		t.Error("zero Config is not the default")
	}
}

func TestGenerate_DefaultSize(t *testing.T) {
	d := sample.Generate(sample.Config{})
	t.Logf("default dataset: %d users, %d photos, %d friendships, %d reactions, %d items; most followed: %s (%d followers)",
		len(d.Users), len(d.Photos), len(d.Friendships), len(d.Reactions), d.Len(), d.Users[0].Username, d.Users[0].FollowerCount)
	if len(d.Users) != sample.DefaultUsers || d.Len() < 2000 || d.Len() > 8000 {
		t.Errorf("%d users and %d items, want %d users and a few thousand items", len(d.Users), d.Len(), sample.DefaultUsers)
	}
}

func TestGenerate_Valid(t *testing.T) {
	for _, users := range []int{1, 2, 50, 200} {
		t.Run(fmt.Sprint(users), func(t *testing.T) {
			d := sample.Generate(sample.Config{Seed: 3, Users: users})
			checkDataset(t, d)
		})
	}
}

// checkDataset checks every rule a dataset obeys, and that its items read back through the
// items file codec say the same.
func checkDataset(t *testing.T, d *domain.Dataset) {
	t.Helper()
	users := map[string]*domain.User{}
	for i := range d.Users {
		u := &d.Users[i]
		if err := domain.ValidateUsername("username", u.Username); err != nil {
			t.Fatal(err)
		}
		if err := domain.ValidateProfile(domain.Profile{Name: u.Name, Email: u.Email, Birthdate: u.Birthdate,
			Address: u.Address, Status: u.Status, Interests: u.Interests, PinnedImage: u.PinnedImage}); err != nil {
			t.Fatalf("%s: %v", u.Username, err)
		}
		if users[u.Username] != nil {
			t.Fatalf("username %s twice", u.Username)
		}
		users[u.Username] = u
	}
	photos := map[domain.PhotoKey]*domain.Photo{}
	for i := range d.Photos {
		p := &d.Photos[i]
		if err := domain.ValidatePhotoKey(p.Key()); err != nil {
			t.Fatal(err)
		}
		if err := domain.ValidateURL("url", p.URL); err != nil {
			t.Fatal(err)
		}
		if users[p.Owner] == nil || photos[p.Key()] != nil {
			t.Fatalf("photo %v: unknown owner or duplicate", p.Key())
		}
		photos[p.Key()] = p
	}
	followers, following := map[string]int{}, map[string]int{}
	seenF := map[domain.FriendshipKey]bool{}
	for _, f := range d.Friendships {
		k := domain.FriendshipKey{Follower: f.Follower, Followed: f.Followed}
		if err := domain.ValidateFriendship(k); err != nil {
			t.Fatal(err) // includes self-follows
		}
		if users[f.Follower] == nil || users[f.Followed] == nil || seenF[k] {
			t.Fatalf("friendship %v: unknown user or duplicate", k)
		}
		seenF[k] = true
		followers[f.Followed]++
		following[f.Follower]++
	}
	counts := map[domain.PhotoKey]domain.ReactionCounts{}
	seenR := map[domain.ReactionKey]bool{}
	for _, r := range d.Reactions {
		k := domain.ReactionKey{Username: r.Username, Type: r.Type, Photo: r.Photo}
		if err := domain.ValidateReactionKey(k); err != nil {
			t.Fatal(err)
		}
		if users[r.Username] == nil || photos[r.Photo] == nil || seenR[k] {
			t.Fatalf("reaction %v: unknown user or photo, or duplicate", k)
		}
		if r.Timestamp < r.Photo.Timestamp {
			t.Fatalf("reaction %v at %s, before its photo", k, r.Timestamp)
		}
		seenR[k] = true
		if counts[r.Photo] == nil {
			counts[r.Photo] = domain.ReactionCounts{}
		}
		counts[r.Photo][r.Type]++
	}
	for _, u := range d.Users {
		if u.FollowerCount != followers[u.Username] || u.FollowingCount != following[u.Username] {
			t.Errorf("%s counts %d followers, %d following; the friendships say %d, %d",
				u.Username, u.FollowerCount, u.FollowingCount, followers[u.Username], following[u.Username])
		}
	}
	for k, p := range photos {
		for _, rt := range domain.ReactionTypes {
			if p.Reactions[rt] != counts[k][rt] {
				t.Errorf("photo %v counts %d %s, the reactions say %d", k, p.Reactions[rt], rt, counts[k][rt])
			}
		}
	}

	// The items, written and read back: one per entity, no key twice.
	var buf bytes.Buffer
	if err := itemfile.WriteDatasetJSON(&buf, d); err != nil {
		t.Fatal(err)
	}
	r := itemfile.NewItemReader(&buf)
	keys := map[string]bool{}
	for {
		item, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		k := fmt.Sprint(item["PK"], item["SK"])
		if keys[k] {
			t.Fatalf("line %d: key %s twice", r.Line(), k)
		}
		keys[k] = true
	}
	if len(keys) != d.Len() {
		t.Errorf("%d items read back, want %d", len(keys), d.Len())
	}
}

func TestGenerate_PowerLaw(t *testing.T) {
	d := sample.Generate(sample.Config{Seed: 11, Users: 1000})
	n := make([]int, len(d.Users))
	total := 0
	for i, u := range d.Users {
		n[i] = u.FollowerCount
		total += u.FollowerCount
	}
	sort.Sort(sort.Reverse(sort.IntSlice(n)))
	top := 0
	for _, c := range n[:len(n)/100] {
		top += c
	}
	share := float64(top) / float64(total)
	t.Logf("top 1%% of users hold %.0f%% of %d follows; most followed %d, median %d", 100*share, total, n[0], n[len(n)/2])
	if share < 0.2 {
		t.Errorf("top 1%% of users hold %.0f%% of follows, want a power law's 20%% or more", 100*share)
	}
	if n[0] < 20*max(1, n[len(n)/2]) {
		t.Errorf("most followed user has %d followers, the median %d: not skewed", n[0], n[len(n)/2])
	}

	// Reactions: the top 1% of photos draw a large share too.
	r := make([]int, len(d.Photos))
	total = 0
	for i, p := range d.Photos {
		r[i] = p.Reactions.Total()
		total += r[i]
	}
	sort.Sort(sort.Reverse(sort.IntSlice(r)))
	top = 0
	for _, c := range r[:len(r)/100] {
		top += c
	}
	t.Logf("top 1%% of photos hold %.0f%% of %d reactions; most %d", 100*float64(top)/float64(total), total, r[0])
	if float64(top)/float64(total) < 0.1 {
		t.Errorf("top 1%% of photos hold %d of %d reactions: not skewed", top, total)
	}
}
