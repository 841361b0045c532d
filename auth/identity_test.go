package auth

import (
	"context"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
)

// TestIdentity_ExpiresWhenVerifyRefuses: an identity expires at the very instant its verifier
// starts refusing the token it came from, with the leeway as Verify applies it (of whole
// seconds or not, or none), on both verifiers: a connection that checks Expired stops acting as the
// user exactly when a request with the same token is refused.
func TestIdentity_ExpiresWhenVerifyRefuses(t *testing.T) {
	rsaKey := newRSAKey(t, "rsa-1")
	is := newIssuer(t, rsaKey)
	verifiers := map[string]func(t *testing.T, clk *clock, opts Options) (Verifier, string){
		"HS256": func(t *testing.T, clk *clock, opts Options) (Verifier, string) {
			opts.Now = clk.Now
			v, err := NewHS256(devSecret, opts)
			if err != nil {
				t.Fatal(err)
			}
			return v, signJWS(t, jwa.HS256(), devSecret, nil, devClaims())
		},
		"OIDC": func(t *testing.T, clk *clock, opts Options) (Verifier, string) {
			opts.UsernameClaim = "cognito:username"
			return is.verifier(t, clk, opts), signedBy(rsaKey)(t, is.url())
		},
	}
	for name, verifier := range verifiers {
		for _, tc := range []struct {
			name    string
			leeway  time.Duration
			expires time.Duration // from testNow; the tokens' exp is at an hour
		}{
			{"the default leeway", 0, time.Hour + DefaultLeeway},
			{"no leeway", -1, time.Hour},
			{"a leeway of a second and a half", 1500 * time.Millisecond, time.Hour + 1500*time.Millisecond},
		} {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				clk := newClock()
				v, token := verifier(t, clk, Options{Leeway: tc.leeway})
				id, err := v.Verify(context.Background(), token)
				if err != nil {
					t.Fatal(err)
				}
				if id.Username != "ada" || !id.Expires.Equal(testNow.Add(tc.expires)) {
					t.Fatalf("identity %q until %v, want ada until %v", id.Username, id.Expires, testNow.Add(tc.expires))
				}
				if left := id.Left(); left != tc.expires {
					t.Errorf("Left() = %v at the start, want %v", left, tc.expires)
				}

				clk.Advance(tc.expires - time.Nanosecond)
				if _, err := v.Verify(context.Background(), token); err != nil || id.Expired() {
					t.Fatalf("a nanosecond before Expires: Verify %v, Expired %v; want accepted, not expired", err, id.Expired())
				}
				clk.Advance(time.Nanosecond)
				_, err = v.Verify(context.Background(), token)
				assertRejected(t, err, "the token has expired", token)
				if !id.Expired() || id.Left() != 0 {
					t.Errorf("at Expires: Expired %v, Left %v; want expired, nothing left", id.Expired(), id.Left())
				}
			})
		}
	}
}
