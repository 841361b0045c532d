package domain

import (
	"fmt"
	"net/mail"
	"net/url"
	"regexp"
	"time"
)

// Limits on what clients may send. Usernames become part of DynamoDB keys, so their alphabet
// excludes '#' (the key separator) and anything that could sort or print ambiguously.
const (
	MaxUsernameLength = 64
	MaxURLLength      = 2048
	MaxTextLength     = 1000
	MaxInterests      = 50
	MaxInterestLength = 100
)

var usernamePattern = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// ValidateUsername checks a username; field names the argument in the error message.
func ValidateUsername(field, username string) error {
	switch {
	case username == "":
		return Errorf(Invalid, "%s: a username is required", field)
	case len(username) > MaxUsernameLength:
		return Errorf(Invalid, "%s: a username is at most %d characters, got %d", field, MaxUsernameLength, len(username))
	case !usernamePattern.MatchString(username):
		return Errorf(Invalid, "%s: %q is not a valid username: use only letters, digits, '_', '-' and '.'", field, username)
	}
	return nil
}

// ValidateURL checks that raw is an absolute http or https URL with a host, and holds no
// character that text may not hold (see text.go): net/url lets bidirectional controls through,
// and "https://cdn.example.com/\u202egpj.exe" displays as ".../exe.jpg".
func ValidateURL(field, raw string) error {
	if len(raw) > MaxURLLength {
		return Errorf(Invalid, "%s: a URL is at most %d characters, got %d", field, MaxURLLength, len(raw))
	}
	if err := validateText(field, raw, urlText); err != nil {
		return err
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Errorf(Invalid, "%s: %q is not an http or https URL", field, raw)
	}
	return nil
}

// ValidatePage checks a page request's size; cursors are the data layer's to check (their
// spelling and List before an operation runs, their partition when the page is read).
func ValidatePage(p PageRequest) error {
	if p.First < 1 || p.First > MaxPageSize {
		return Errorf(Invalid, "first: must be between 1 and %d, got %d", MaxPageSize, p.First)
	}
	return nil
}

// ValidateProfile checks the fields of a new profile.
func ValidateProfile(p Profile) error {
	set := map[ProfileField]any{}
	for _, f := range StringFields {
		if v := *p.Field(f); v != nil {
			set[f] = *v
		}
	}
	if p.Interests != nil {
		set[FieldInterests] = p.Interests
	}
	return ValidateProfileChanges(ProfileChanges{Set: set})
}

// ValidateProfileChanges checks every value an update sets.
func ValidateProfileChanges(c ProfileChanges) error {
	for _, f := range ProfileFields {
		v, ok := c.Set[f]
		if !ok {
			continue
		}
		if err := validateField(f, v); err != nil {
			return err
		}
	}
	return nil
}

func validateField(f ProfileField, v any) error {
	field := f.String()
	if f == FieldInterests {
		list, ok := v.([]string)
		if !ok {
			return Errorf(Invalid, "%s: must be a list of strings", field)
		}
		if len(list) > MaxInterests {
			return Errorf(Invalid, "%s: at most %d interests, got %d", field, MaxInterests, len(list))
		}
		for i, s := range list {
			if err := validateText(fmt.Sprintf("%s[%d]", field, i), s, interestText); err != nil {
				return err
			}
			if s == "" {
				return Errorf(Invalid, "%s[%d]: must not be empty", field, i)
			}
		}
		return nil
	}
	s, ok := v.(string)
	if !ok {
		return Errorf(Invalid, "%s: must be a string", field)
	}
	rule := lineText
	if f == FieldAddress {
		rule = multilineText
	}
	if err := validateText(field, s, rule); err != nil {
		return err
	}
	switch f {
	case FieldEmail:
		if a, err := mail.ParseAddress(s); err != nil || a.Address != s {
			return Errorf(Invalid, "%s: %q is not an e-mail address like name@example.com", field, s)
		}
	case FieldBirthdate:
		if _, err := time.Parse("2006-01-02", s); err != nil {
			return Errorf(Invalid, "%s: %q is not an ISO-8601 date like 1990-04-17", field, s)
		}
	case FieldPinnedImage:
		return ValidateURL(field, s)
	}
	return nil
}

// ValidateFriendship checks a follow: both usernames, and that nobody follows themselves.
func ValidateFriendship(k FriendshipKey) error {
	if err := ValidateUsername("follower", k.Follower); err != nil {
		return err
	}
	if err := ValidateUsername("followed", k.Followed); err != nil {
		return err
	}
	if k.Follower == k.Followed {
		return Errorf(Invalid, "a user cannot follow themselves (%q)", k.Follower)
	}
	return nil
}

// ValidatePhotoKey checks a photo's owner and that its timestamp is in the canonical form.
func ValidatePhotoKey(k PhotoKey) error {
	if err := ValidateUsername("owner", k.Owner); err != nil {
		return err
	}
	return ValidateTimestamp("timestamp", k.Timestamp)
}

// CanonicalPhotoKey checks a photo key a client sent and returns it with its timestamp in the
// canonical form, under which the photo is stored.
func CanonicalPhotoKey(k PhotoKey) (PhotoKey, error) {
	if err := ValidateUsername("owner", k.Owner); err != nil {
		return PhotoKey{}, err
	}
	ts, err := CanonicalTimestamp("timestamp", k.Timestamp)
	if err != nil {
		return PhotoKey{}, err
	}
	return PhotoKey{Owner: k.Owner, Timestamp: ts}, nil
}

// ValidateReactionKey checks a reaction's user, type and photo, whose timestamp must be in the
// canonical form.
func ValidateReactionKey(k ReactionKey) error {
	if err := validateReactor(k); err != nil {
		return err
	}
	return ValidatePhotoKey(k.Photo)
}

// CanonicalReactionKey checks a reaction key a client sent and returns it with the photo's
// timestamp in the canonical form.
func CanonicalReactionKey(k ReactionKey) (ReactionKey, error) {
	if err := validateReactor(k); err != nil {
		return ReactionKey{}, err
	}
	photo, err := CanonicalPhotoKey(k.Photo)
	if err != nil {
		return ReactionKey{}, err
	}
	k.Photo = photo
	return k, nil
}

func validateReactor(k ReactionKey) error {
	if err := ValidateUsername("username", k.Username); err != nil {
		return err
	}
	if !k.Type.Valid() {
		return Errorf(Invalid, "type: %q is not a reaction type", k.Type)
	}
	return nil
}
