package domain

// User is a profile. Optional fields are nil when the user has not set them.
type User struct {
	Username       string
	Name           *string
	Email          *string
	Birthdate      *string
	Address        *string
	Status         *string
	Interests      []string
	PinnedImage    *string
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

// ProfileField names one settable field of a profile.
type ProfileField string

// The settable profile fields, named as in the schema and in the table.
const (
	FieldName        ProfileField = "name"
	FieldEmail       ProfileField = "email"
	FieldBirthdate   ProfileField = "birthdate"
	FieldAddress     ProfileField = "address"
	FieldStatus      ProfileField = "status"
	FieldInterests   ProfileField = "interests"
	FieldPinnedImage ProfileField = "pinnedImage"
)

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

// NewUser is the profile of username with fields p and zero counters.
func NewUser(username string, p Profile) User {
	return User{
		Username: username, Name: p.Name, Email: p.Email, Birthdate: p.Birthdate, Address: p.Address,
		Status: p.Status, Interests: p.Interests, PinnedImage: p.PinnedImage,
	}
}

// Profile returns the fields u set on their own profile.
func (u User) Profile() Profile {
	return Profile{
		Name: u.Name, Email: u.Email, Birthdate: u.Birthdate, Address: u.Address,
		Status: u.Status, Interests: u.Interests, PinnedImage: u.PinnedImage,
	}
}

// ProfileChanges is what updateUser applies: Set holds the new values of the fields to set
// (a string, or []string for interests); Remove lists fields to clear. A field is in at most one.
type ProfileChanges struct {
	Set    map[ProfileField]any
	Remove []ProfileField
}

// Empty reports whether the changes change nothing.
func (c ProfileChanges) Empty() bool { return len(c.Set) == 0 && len(c.Remove) == 0 }
