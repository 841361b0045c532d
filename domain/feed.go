package domain

// FeedEntry puts a photo into a reader's feed: the reader follows the photo's owner. Feeds are
// filled after the fact from the table's change stream, so an entry may lag the upload, and
// may still name a photo deleted a moment ago.
type FeedEntry struct {
	Reader string
	Photo  PhotoKey
}
