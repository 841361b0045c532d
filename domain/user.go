package domain

import "fmt"

// User is a user's profile and its counters. Optional fields are nil when the user has not set
// them.
type User struct {
	Username string
	Profile
	// Version counts the writes of the Profile's fields (see ProfileChanges.IfVersion); the
	// counters never move it. A profile never edited since it was created is at version 0.
	Version        int
	FollowerCount  int
	FollowingCount int
}

// Profile holds the fields a user sets on their own profile: what createUser takes.
type Profile struct {
	Name        *string
	Email       *string
	Birthdate   *string
	Address     *string
	Status      *string
	Interests   []string
	PinnedImage *string
}

// ProfileField names one settable field of a profile. How the schema and the table spell each
// field is said at those boundaries (resolvers and api; dynamo), not here.
type ProfileField uint8

// The settable profile fields.
const (
	FieldName ProfileField = iota + 1
	FieldEmail
	FieldBirthdate
	FieldAddress
	FieldStatus
	FieldInterests
	FieldPinnedImage
)

// String is the field's name in messages.
func (f ProfileField) String() string {
	switch f {
	case FieldName:
		return "name"
	case FieldEmail:
		return "email"
	case FieldBirthdate:
		return "birthdate"
	case FieldAddress:
		return "address"
	case FieldStatus:
		return "status"
	case FieldInterests:
		return "interests"
	case FieldPinnedImage:
		return "pinnedImage"
	}
	return fmt.Sprintf("ProfileField(%d)", uint8(f))
}

// ProfileFields lists every settable profile field, in the schema's order.
var ProfileFields = []ProfileField{FieldName, FieldEmail, FieldBirthdate, FieldAddress, FieldStatus, FieldInterests, FieldPinnedImage}

// StringFields lists the optional string fields of a profile: every settable field but
// interests, in the schema's order.
var StringFields = []ProfileField{FieldName, FieldEmail, FieldBirthdate, FieldAddress, FieldStatus, FieldPinnedImage}

// Field returns a pointer to p's field f, one of StringFields; nil for any other field.
func (p *Profile) Field(f ProfileField) **string {
	switch f {
	case FieldName:
		return &p.Name
	case FieldEmail:
		return &p.Email
	case FieldBirthdate:
		return &p.Birthdate
	case FieldAddress:
		return &p.Address
	case FieldStatus:
		return &p.Status
	case FieldPinnedImage:
		return &p.PinnedImage
	}
	return nil
}

// ProfileChanges is what updateUser applies: Set holds the new values of the fields to set
// (a string, or []string for interests); Remove lists fields to clear. A field is in at most one.
type ProfileChanges struct {
	Set    map[ProfileField]any
	Remove []ProfileField
	// IfVersion, when not nil, is the version the client last read: the changes apply only
	// while the profile is still at it (optimistic locking), and are refused with Conflict
	// otherwise.
	IfVersion *int
}

// MaxVersion is the largest version a client may expect: far more edits than any profile
// sees, so a larger one is a client's mistake (a counter or a timestamp sent as a version).
const MaxVersion = 1_000_000_000

// ValidateVersion checks an expected version: 0 through MaxVersion.
func ValidateVersion(field string, v *int) error {
	if v != nil && (*v < 0 || *v > MaxVersion) {
		return Errorf(Invalid, "%s %d: want 0 to %d", field, *v, MaxVersion)
	}
	return nil
}

// Empty reports whether the changes change nothing.
func (c ProfileChanges) Empty() bool { return len(c.Set) == 0 && len(c.Remove) == 0 }

// StaleVersion is the cause of the Conflict of an update whose expected version is not the
// object's: Current is the object as it is now, for the client to merge with.
type StaleVersion struct {
	Current User
}

func (e *StaleVersion) Error() string {
	return fmt.Sprintf("user %q is at version %d", e.Current.Username, e.Current.Version)
}
