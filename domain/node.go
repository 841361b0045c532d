package domain

// Node is an entity that has a global id (Relay's Global Object Identification): a User,
// Photo, Reaction or Friendship, by value or by pointer. Clients that normalise a cache by id
// (Apollo Client, urql, Relay) key each entity by it, and read any of them back by it alone.
type Node interface {
	// NodeKey is the entity's identity.
	NodeKey() NodeKey
}

// NodeKey is the identity of a Node: a UserKey, PhotoKey, ReactionKey or FriendshipKey. Each is
// a comparable struct, so a NodeKey can key a map or a loader's cache.
type NodeKey interface {
	isNodeKey()
}

// UserKey identifies a user: their username.
type UserKey struct {
	Username string
}

func (UserKey) isNodeKey()       {}
func (PhotoKey) isNodeKey()      {}
func (ReactionKey) isNodeKey()   {}
func (FriendshipKey) isNodeKey() {}

// NodeKey returns the user's identity.
func (u User) NodeKey() NodeKey { return UserKey{Username: u.Username} }

// NodeKey returns the photo's identity.
func (p Photo) NodeKey() NodeKey { return p.Key() }

// NodeKey returns the reaction's identity.
func (r Reaction) NodeKey() NodeKey { return r.Key() }

// NodeKey returns the friendship's identity.
func (f Friendship) NodeKey() NodeKey { return f.Key() }

// Key returns the reaction's identity.
func (r Reaction) Key() ReactionKey {
	return ReactionKey{Username: r.Username, Type: r.Type, Photo: r.Photo}
}

// Key returns the friendship's identity.
func (f Friendship) Key() FriendshipKey {
	return FriendshipKey{Follower: f.Follower, Followed: f.Followed}
}

// ID is the user's global id (see NodeID).
func (u User) ID() string { return NodeID(u.NodeKey()) }

// ID is the photo's global id (see NodeID).
func (p Photo) ID() string { return NodeID(p.NodeKey()) }

// ID is the reaction's global id (see NodeID).
func (r Reaction) ID() string { return NodeID(r.NodeKey()) }

// ID is the friendship's global id (see NodeID).
func (f Friendship) ID() string { return NodeID(f.NodeKey()) }
