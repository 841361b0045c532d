package dynamo

import (
	"slices"
	"strings"

	"github.com/quickphotos/quickphotos/domain"
)

// How the domain's names are spelled in the table. This file is the one boundary between
// domain's vocabulary and the stored one: attribute names come from the tutorial's
// items.json, so its data and scripts work unchanged.

// Attribute names of the items.
const (
	attrUsername      = "username"
	attrFollowers     = "followers"
	attrFollowing     = "following"
	attrTimestamp     = "timestamp"
	attrLocation      = "location"
	attrReactions     = "reactions"
	attrReactingUser  = "reactingUser"
	attrReactionType  = "reactionType"
	attrPhoto         = "photo"
	attrFollowedUser  = "followedUser"
	attrFollowingUser = "followingUser"
	// attrDeletion is the id of the deletion under way, on a photo being deleted in steps and
	// on its deletion record.
	attrDeletion = "deletion"
	// attrInterests is the profile's list of interests.
	attrInterests = "interests"
	// attrExpiresAt is when an item may go, in seconds since the Unix epoch: the table's TTL
	// attribute, set on feed entries only.
	attrExpiresAt = "expiresAt"
	// attrSequenceNumber is the last stream record a consumer handled in a shard, and
	// attrShardDone marks a shard it read to its end.
	attrSequenceNumber = "sequenceNumber"
	attrShardDone      = "done"
	// The dimensions and stored renditions of an uploaded photo, and the upload it was made
	// of; absent on photos whose location is hosted elsewhere.
	attrWidth  = "width"
	attrHeight = "height"
	attrImages = "images"
	attrUpload = "upload"
	// An upload's staging record: its owner, declared type and size, when it stops being
	// accepted (seconds since the Unix epoch; the record itself stays until the sweeper
	// removes it, or attrExpiresAt as a backstop), whether a photo was made of it, and which
	// (its timestamp).
	attrOwner          = "owner"
	attrContentType    = "contentType"
	attrByteSize       = "byteSize"
	attrUploadExpires  = "uploadExpires"
	attrUsed           = "used"
	attrPhotoTimestamp = "photoTimestamp"
	// attrVersion is a profile's version (domain.User.Version): absent reads as 0.
	attrVersion = "version"
	// A client mutation's mark (marks.go): the id as the client sent it, the mutation and the
	// hash of its input, and its outcome: the global id of the object it returned, the item
	// of the object it removed, the JSON of an answer that is no stored object, or the code
	// and message of its refusal. It expires by attrExpiresAt.
	attrClientMutationID = "clientMutationId"
	attrMutation         = "mutation"
	attrInputHash        = "inputHash"
	attrOutcomeNode      = "node"
	attrOutcomeRemoved   = "removed"
	attrOutcomeAnswer    = "answer"
	attrOutcomeReturned  = "returned"
	attrErrorCode        = "errorCode"
	attrErrorMessage     = "errorMessage"
	// The members of each rendition in attrImages.
	attrImageKey  = "key"
	attrImageType = "type"
)

// profileAttributes spells each settable profile field as its attribute.
var profileAttributes = map[domain.ProfileField]string{
	domain.FieldName:        "name",
	domain.FieldEmail:       "email",
	domain.FieldBirthdate:   "birthdate",
	domain.FieldAddress:     "address",
	domain.FieldStatus:      "status",
	domain.FieldInterests:   attrInterests,
	domain.FieldPinnedImage: "pinnedImage",
}

// storedReactionTypes spells each reaction type as the tutorial's data does: in reaction
// partition keys, in reactionType and as the photo's counter names.
var storedReactionTypes = map[domain.ReactionType]string{
	domain.ReactionThumbsUp:   "+1",
	domain.ReactionHeart:      "heart",
	domain.ReactionSmiley:     "smiley",
	domain.ReactionSunglasses: "sunglasses",
}

// reactionTypesInKeyOrder lists the reaction types in the order of their stored spellings,
// which is the order of a user's reaction partitions (see UserReactions).
var reactionTypesInKeyOrder = func() []domain.ReactionType {
	types := slices.Clone(domain.ReactionTypes)
	slices.SortFunc(types, func(a, b domain.ReactionType) int {
		return strings.Compare(storedReactionTypes[a], storedReactionTypes[b])
	})
	return types
}()

// reactionTypeFromStored reads a stored spelling; false for any other string.
func reactionTypeFromStored(s string) (domain.ReactionType, bool) {
	for t, stored := range storedReactionTypes {
		if stored == s {
			return t, true
		}
	}
	return 0, false
}

// userAttributes are the attributes a read of profiles with fields needs: the counters
// and those fields; nil fields means every field, so nil attributes (no projection).
func userAttributes(fields []domain.ProfileField) []string {
	if fields == nil {
		return nil
	}
	attrs := []string{attrFollowers, attrFollowing, attrVersion}
	for _, f := range fields {
		attrs = append(attrs, profileAttributes[f])
	}
	return attrs
}
