package auth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"strings"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jws"
	"github.com/lestrrat-go/jwx/v3/jwt"

	"github.com/quickphotos/quickphotos/domain"
)

var (
	devSecret   = []byte("development-secret-of-at-least-32-bytes!")
	otherSecret = []byte("another-secret-that-is-32-bytes-or-more!")
)

// devClaims are the claims Mint would put in a token for ada minted at testNow for an hour.
func devClaims() claims {
	return claims{
		"iss": HS256Issuer,
		"aud": []string{HS256Audience},
		"sub": "ada",
		"iat": at(0),
		"nbf": at(0),
		"exp": at(time.Hour),
		"jti": "j1",
	}
}

// hs returns a token like Mint's, signed with devSecret, with the edits applied.
func hs(edits ...edit) func(t *testing.T) string {
	return func(t *testing.T) string {
		return signJWS(t, jwa.HS256(), devSecret, nil, build(devClaims(), edits))
	}
}

// signedWith returns a token with devClaims signed with alg and key.
func signedWith(alg jwa.SignatureAlgorithm, key any, edits ...edit) func(t *testing.T) string {
	return func(t *testing.T) string {
		return signJWS(t, alg, key, nil, build(devClaims(), edits))
	}
}

func literal(s string) func(*testing.T) string { return func(*testing.T) string { return s } }

func TestHS256Verify(t *testing.T) {
	ecKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		opts  Options
		token func(t *testing.T) string
		want  string // the username, or "" when rejected
		err   string // part of the rejection's message
	}{
		{name: "valid", token: hs(), want: "ada"},
		{name: "expired within the default leeway", token: hs(with("exp", at(-20*time.Second))), want: "ada"},
		{name: "nbf in the future within the leeway", token: hs(with("nbf", at(20*time.Second))), want: "ada"},
		{name: "username from another claim", opts: Options{UsernameClaim: "username"},
			token: hs(with("username", "grace")), want: "grace"},

		{name: "empty token", token: literal(""), err: "a bearer token is required"},
		{name: "malformed: not a JWT", token: literal("not-a-jwt"), err: "not a well-formed JWT"},
		{name: "malformed: garbage segments", token: literal("abc.def.ghi"), err: "not a well-formed JWT"},
		{name: "malformed: JWS JSON serialization",
			token: literal(`{"payload":"e30","signatures":[{"protected":"eyJhbGciOiJIUzI1NiJ9","signature":"AAAA"}]}`),
			err:   "not a well-formed JWT"},
		{name: "malformed: signed payload is not claims", token: func(t *testing.T) string {
			b, err := jws.Sign([]byte("hello"), jws.WithKey(jwa.HS256(), devSecret))
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}, err: "not a well-formed JWT"},

		{name: "alg none", token: func(t *testing.T) string { return unsigned(t, nil, devClaims()) },
			err: "not signed with an accepted algorithm (got none"},
		{name: "alg HS512", token: signedWith(jwa.HS512(), devSecret), err: "not signed with an accepted algorithm (got HS512"},
		{name: "alg ES256", token: signedWith(jwa.ES256(), ecKey), err: "not signed with an accepted algorithm (got ES256"},
		{name: "HS256 header with the signature stripped", token: func(t *testing.T) string {
			tok := hs()(t)
			return tok[:strings.LastIndex(tok, ".")+1]
		}, err: "not a well-formed JWT"},
		{name: "signed with another secret", token: signedWith(jwa.HS256(), otherSecret), err: "signature is not valid"},
		{name: "payload swapped after signing", token: func(t *testing.T) string {
			good := strings.Split(hs()(t), ".")
			forged := strings.Split(hs(with("sub", "root"))(t), ".")
			return good[0] + "." + forged[1] + "." + good[2]
		}, err: "signature is not valid"},

		{name: "expired beyond the leeway", token: hs(with("exp", at(-31*time.Second))), err: "the token has expired"},
		{name: "expired with leeway turned off", opts: Options{Leeway: -1},
			token: hs(with("exp", at(-time.Second))), err: "the token has expired"},
		{name: "expired within a custom leeway's excess", opts: Options{Leeway: 5 * time.Second},
			token: hs(with("exp", at(-10*time.Second))), err: "the token has expired"},
		{name: "missing exp", token: hs(without("exp")), err: "no expiry time (exp)"},
		{name: "nbf in the future beyond the leeway", token: hs(with("nbf", at(time.Minute))), err: "not valid yet"},
		{name: "iat in the future beyond the leeway", token: hs(with("iat", at(time.Minute))), err: "issue time (iat) is in the future"},
		{name: "wrong issuer", token: hs(with("iss", "someone-else")), err: `issuer is not "quickphotos"`},
		{name: "missing issuer", token: hs(without("iss")), err: `issuer is not "quickphotos"`},
		{name: "wrong audience", token: hs(with("aud", []string{"another-app"})), err: "audience"},
		{name: "missing audience", token: hs(without("aud")), err: "audience"},
		{name: "missing username claim", token: hs(without("sub")), err: `no "sub" claim`},
		{name: "missing custom username claim", opts: Options{UsernameClaim: "username"},
			token: hs(), err: `no "username" claim`},
		{name: "username claim not a string", opts: Options{UsernameClaim: "username"},
			token: hs(with("username", 42)), err: `"username" claim is not a string`},
		{name: "username with a space", token: hs(with("sub", "ada lovelace")), err: `"sub" claim is not a valid username`},
		{name: "username too long", token: hs(with("sub", strings.Repeat("a", domain.MaxUsernameLength+1))),
			err: `"sub" claim is not a valid username`},
		{name: "empty username", token: hs(with("sub", "")), err: `"sub" claim is not a valid username`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Now = newClock().Now
			v, err := NewHS256(devSecret, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			token := tt.token(t)
			got, err := v.Verify(context.Background(), token)
			if tt.err != "" {
				assertRejected(t, err, tt.err, token, string(devSecret), string(otherSecret))
				return
			}
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			if got.Username != tt.want {
				t.Errorf("username = %q, want %q", got.Username, tt.want)
			}
		})
	}
}

func TestNewHS256RefusesShortSecrets(t *testing.T) {
	tests := []struct {
		name   string
		secret []byte
		ok     bool
	}{
		{name: "nil", secret: nil},
		{name: "31 bytes", secret: []byte(strings.Repeat("s", 31))},
		{name: "32 bytes", secret: []byte(strings.Repeat("s", 32)), ok: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewHS256(tt.secret, Options{})
			if tt.ok != (err == nil) {
				t.Fatalf("NewHS256: err = %v, want ok = %v", err, tt.ok)
			}
			if err != nil && !strings.Contains(err.Error(), "at least 32") {
				t.Errorf("error %q does not say how long the secret must be", err)
			}
			_, err = Mint(tt.secret, "ada", time.Hour, Options{})
			if tt.ok != (err == nil) {
				t.Fatalf("Mint: err = %v, want ok = %v", err, tt.ok)
			}
		})
	}
}

func TestMint(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		user string
		ttl  time.Duration
		err  string
	}{
		{name: "sub holds the username", user: "ada", ttl: time.Hour},
		{name: "custom claim holds it too", opts: Options{UsernameClaim: "cognito:username"}, user: "grace.h", ttl: time.Minute},
		{name: "invalid username", user: "not valid", ttl: time.Hour, err: "not a valid username"},
		{name: "zero ttl", user: "ada", ttl: 0, err: "lifetime must be positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := newClock()
			tt.opts.Now = clk.Now
			token, err := Mint(devSecret, tt.user, tt.ttl, tt.opts)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Mint: err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}

			tok, err := jwt.Parse([]byte(token), jwt.WithKey(jwa.HS256(), devSecret), jwt.WithValidate(false))
			if err != nil {
				t.Fatal(err)
			}
			iss, _ := tok.Issuer()
			aud, _ := tok.Audience()
			sub, _ := tok.Subject()
			exp, _ := tok.Expiration()
			nbf, _ := tok.NotBefore()
			iat, _ := tok.IssuedAt()
			jti, _ := tok.JwtID()
			if iss != "quickphotos" || len(aud) != 1 || aud[0] != "quickphotos" || sub != tt.user {
				t.Errorf("iss, aud, sub = %q, %q, %q", iss, aud, sub)
			}
			if !exp.Equal(testNow.Add(tt.ttl)) || !nbf.Equal(testNow) || !iat.Equal(testNow) {
				t.Errorf("iat, nbf, exp = %v, %v, %v", iat, nbf, exp)
			}
			if jti == "" {
				t.Error("no jti")
			}
			if tt.opts.UsernameClaim != "" {
				var got string
				if err := tok.Get(tt.opts.UsernameClaim, &got); err != nil || got != tt.user {
					t.Errorf("%s = %q (%v), want %q", tt.opts.UsernameClaim, got, err, tt.user)
				}
			}
			again, err := Mint(devSecret, tt.user, tt.ttl, tt.opts)
			if err != nil || again == token {
				t.Errorf("two tokens minted in the same second are identical (err %v)", err)
			}

			v, err := NewHS256(devSecret, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := v.Verify(context.Background(), token); err != nil || got.Username != tt.user {
				t.Fatalf("Verify(minted) = %q, %v; want %q", got.Username, err, tt.user)
			}
			clk.Advance(tt.ttl + DefaultLeeway + time.Second)
			_, err = v.Verify(context.Background(), token)
			assertRejected(t, err, "the token has expired", token)
		})
	}
}
