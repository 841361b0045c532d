package domain

// Dataset is a set of users, photos, friendships and reactions written as they are, counters
// included, past the rules the API's writes keep: what a bulk load or a generated sample
// holds.
type Dataset struct {
	Users       []User
	Photos      []Photo
	Friendships []Friendship
	Reactions   []Reaction
}

// Len is the number of entities in d.
func (d *Dataset) Len() int {
	return len(d.Users) + len(d.Photos) + len(d.Friendships) + len(d.Reactions)
}
