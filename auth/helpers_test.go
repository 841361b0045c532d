package auth

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jws"

	"github.com/quickphotos/quickphotos/domain"
)

// testNow is the fixed time every test starts at.
var testNow = time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC)

// clock is a settable clock for Options.Now.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: testNow} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// at is a NumericDate d from testNow.
func at(d time.Duration) int64 { return testNow.Add(d).Unix() }

// claims are a token's payload, built from a valid base and edited per case.
type claims map[string]any

type edit func(claims)

func with(name string, v any) edit { return func(c claims) { c[name] = v } }

func without(name string) edit { return func(c claims) { delete(c, name) } }

func build(base claims, edits []edit) claims {
	c := claims{}
	for k, v := range base {
		c[k] = v
	}
	for _, e := range edits {
		e(c)
	}
	return c
}

// signJWS signs c with alg and key, adding header fields such as kid; it goes through jws so
// tests can sign payloads jwt.Token would refuse to build.
func signJWS(t *testing.T, alg jwa.SignatureAlgorithm, key any, header map[string]any, c claims) string {
	t.Helper()
	payload, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	h := jws.NewHeaders()
	for k, v := range header {
		if err := h.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	signed, err := jws.Sign(payload, jws.WithKey(alg, key, jws.WithProtectedHeaders(h)))
	if err != nil {
		t.Fatal(err)
	}
	return string(signed)
}

// unsigned returns an alg "none" token: a header, the claims and an empty signature.
func unsigned(t *testing.T, header map[string]any, c claims) string {
	t.Helper()
	hdr := map[string]any{"alg": "none"}
	for k, v := range header {
		hdr[k] = v
	}
	return b64JSON(t, hdr) + "." + b64JSON(t, c) + "."
}

func b64JSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// assertRejected checks that err is an Unauthenticated *domain.Error whose message contains
// want and that neither the message nor the whole error repeats the token or a secret.
func assertRejected(t *testing.T, err error, want, token string, secrets ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("accepted; want rejection %q", want)
	}
	var de *domain.Error
	if !errors.As(err, &de) {
		t.Fatalf("error %v (%T) is not a *domain.Error", err, err)
	}
	if de.Code != domain.Unauthenticated {
		t.Errorf("code = %q, want %q (error: %v)", de.Code, domain.Unauthenticated, err)
	}
	if !strings.Contains(de.Message, want) {
		t.Errorf("message = %q, want it to contain %q", de.Message, want)
	}
	for _, s := range append([]string{token}, secrets...) {
		if len(s) > 8 && strings.Contains(err.Error(), s) {
			t.Errorf("error %q repeats the token or a secret", err.Error())
		}
	}
}
