package domain

// Friendship is Follower following Followed.
type Friendship struct {
	Follower  string
	Followed  string
	Timestamp string
}

// FriendshipKey identifies a friendship.
type FriendshipKey struct {
	Follower string
	Followed string
}
