package domain

import "fmt"

// User is a user's profile and its counters. Optional fields are nil when the user has not set
// them.
type User struct {
	Username string
	Profile
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
}

// Empty reports whether the changes change nothing.
func (c ProfileChanges) Empty() bool { return len(c.Set) == 0 && len(c.Remove) == 0 }
