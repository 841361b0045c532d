package auth

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jws"
	"github.com/lestrrat-go/jwx/v3/jwt"

	"github.com/quickphotos/quickphotos/domain"
)

// Verifier checks a bearer token and returns whom it authenticates, and until when. The API
// depends on this interface, not on a concrete verifier, so that development (HS256) and
// production (OIDC) are one flag apart and tests can stub authentication out.
//
// Every rejection is a *domain.Error with code domain.Unauthenticated and a message that names
// what was wrong without repeating the token.
type Verifier interface {
	Verify(ctx context.Context, token string) (Identity, error)
}

// Identity is what a token Verify accepted proves: the username, and how long the proof
// holds. A request uses it at once; a connection that authenticated once (a WebSocket, a
// stream of Server-Sent Events) must stop acting as Username once Expired says so, as Verify
// refuses the same token from then on.
type Identity struct {
	Username string
	// Expires is the first instant Verify refuses the token as expired: its exp plus the
	// leeway. Zero for an identity that does not expire (the verifiers of this package refuse
	// tokens without exp).
	Expires time.Time
	// now is the clock of the verifier that made the identity; time.Now when nil.
	now func() time.Time
}

// Expired reports whether Verify, by its own clock, now refuses the token the identity came
// from because it has expired.
func (id Identity) Expired() bool {
	return !id.Expires.IsZero() && !id.clock().Before(id.Expires)
}

// Left is how long the identity has before it expires, by the verifier's clock: zero or less
// once it has, and the longest duration when it never does.
func (id Identity) Left() time.Duration {
	if id.Expires.IsZero() {
		return math.MaxInt64
	}
	return id.Expires.Sub(id.clock())
}

func (id Identity) clock() time.Time {
	if id.now == nil {
		return time.Now()
	}
	return id.now()
}

// DefaultLeeway is the clock skew tolerated when Options.Leeway is zero: enough for servers whose
// clocks drift a little, short enough that an expired token does not live on noticeably.
const DefaultLeeway = 30 * time.Second

// Options are the settings both verifiers share. The zero value is ready to use.
type Options struct {
	// UsernameClaim is the claim holding the username, "sub" when empty. Amazon Cognito puts
	// the user name in "cognito:username" in ID tokens and in "username" in access tokens; its
	// "sub" is a UUID that never changes, even when the user name does.
	UsernameClaim string
	// Leeway tolerates clock skew between the issuer and this server on exp, nbf and iat:
	// DefaultLeeway when zero, none when negative.
	Leeway time.Duration
	// Now is the clock, time.Now when nil. Tests set it to make expiry deterministic; the OIDC
	// verifier also times its rate-limited key refreshes with it.
	Now func() time.Time
}

// settings are Options with their defaults applied, so that the verification code never has
// to think about zero values.
type settings struct {
	usernameClaim string
	leeway        time.Duration
	now           func() time.Time
}

func (o Options) settings() settings {
	s := settings{usernameClaim: o.UsernameClaim, leeway: o.Leeway, now: o.Now}
	if s.usernameClaim == "" {
		s.usernameClaim = jwt.SubjectKey
	}
	switch {
	case s.leeway == 0:
		s.leeway = DefaultLeeway
	case s.leeway < 0:
		s.leeway = 0
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s
}

// reject returns the error every verification failure is reported as.
func reject(format string, args ...any) error {
	return domain.Errorf(domain.Unauthenticated, format, args...)
}

// protectedHeader parses the token far enough to read the header that chooses the key and
// algorithm; nothing in it is trusted until the signature has been checked with a key and an
// algorithm that the verifier, not the token, picked.
func protectedHeader(token string) (jws.Headers, error) {
	if token == "" {
		return nil, reject("a bearer token is required")
	}
	msg, err := jws.Parse([]byte(token), jws.WithCompact())
	if err != nil {
		return nil, reject("the token is not a well-formed JWT")
	}
	sigs := msg.Signatures()
	if len(sigs) != 1 || sigs[0].ProtectedHeaders() == nil {
		return nil, reject("the token is not a well-formed JWT")
	}
	return sigs[0].ProtectedHeaders(), nil
}

// algorithmName names alg for an error message: only algorithms jwx knows are echoed, so a
// forged header cannot put arbitrary text into the message.
func algorithmName(alg jwa.SignatureAlgorithm) string {
	if known, ok := jwa.LookupSignatureAlgorithm(alg.String()); ok {
		return known.String()
	}
	return "an unknown algorithm"
}

// parseSigned checks the signature with the key and algorithm the verifier chose and parses the
// claims. The claims are validated separately so that each failure gets its own message.
func parseSigned(token string, alg jwa.SignatureAlgorithm, key any) (jwt.Token, error) {
	tok, err := jwt.Parse([]byte(token), jwt.WithKey(alg, key), jwt.WithValidate(false))
	if err != nil {
		if errors.Is(err, jws.VerifyError()) || errors.Is(err, jws.VerificationError()) {
			return nil, reject("the token's signature is not valid")
		}
		return nil, reject("the token is not a well-formed JWT")
	}
	return tok, nil
}

// checkClaims validates the time claims and the issuer, and requires exp: a token without one
// would authenticate forever.
func (s settings) checkClaims(tok jwt.Token, issuer string, extra ...jwt.ValidateOption) error {
	if _, ok := tok.Expiration(); !ok {
		return reject("the token has no expiry time (exp)")
	}
	opts := append([]jwt.ValidateOption{
		jwt.WithClock(jwt.ClockFunc(s.now)),
		jwt.WithAcceptableSkew(s.leeway),
		jwt.WithIssuer(issuer),
	}, extra...)
	err := jwt.Validate(tok, opts...)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, jwt.TokenExpiredError()):
		return reject("the token has expired")
	case errors.Is(err, jwt.TokenNotYetValidError()):
		return reject("the token is not valid yet (nbf is in the future)")
	case errors.Is(err, jwt.InvalidIssuedAtError()):
		return reject("the token's issue time (iat) is in the future")
	case errors.Is(err, jwt.InvalidIssuerError()):
		return reject("the token's issuer is not %q", issuer)
	case errors.Is(err, jwt.InvalidAudienceError()):
		return reject("the token's audience does not include the expected one")
	default:
		return reject("the token's claims are not valid")
	}
}

// identity is whom tok authenticates, until its exp plus the leeway: checkClaims refuses the
// token from that instant on (jwt.Validate's "now is not before exp plus the skew", with no
// truncation of the time, jwx's default).
func (s settings) identity(tok jwt.Token) (Identity, error) {
	name, err := s.username(tok)
	if err != nil {
		return Identity{}, err
	}
	exp, _ := tok.Expiration() // checkClaims requires it
	return Identity{Username: name, Expires: exp.Add(s.leeway), now: s.now}, nil
}

// username reads the username claim and holds it to the same rules as a username sent in a
// mutation, so an identity provider with laxer rules cannot smuggle in names the API refuses.
func (s settings) username(tok jwt.Token) (string, error) {
	var name string
	if err := tok.Get(s.usernameClaim, &name); err != nil {
		if errors.Is(err, jwt.ClaimNotFoundError()) {
			return "", reject("the token has no %q claim to take the username from", s.usernameClaim)
		}
		return "", reject("the token's %q claim is not a string", s.usernameClaim)
	}
	if err := domain.ValidateUsername(s.usernameClaim, name); err != nil {
		return "", domain.Wrap(domain.Unauthenticated, err,
			fmt.Sprintf("the token's %q claim is not a valid username", s.usernameClaim))
	}
	return name, nil
}
