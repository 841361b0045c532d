package auth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"

	"github.com/quickphotos/quickphotos/domain"
)

const clientID = "app-client-1"

// signingKey is an issuer's key pair: the private half signs test tokens, the public half is
// what the issuer publishes.
type signingKey struct {
	kid     string
	alg     jwa.SignatureAlgorithm
	private any
	public  jwk.Key
}

func newRSAKey(t *testing.T, kid string) signingKey {
	t.Helper()
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return newSigningKey(t, kid, jwa.RS256(), priv, &priv.PublicKey, true)
}

func newECKey(t *testing.T, kid string, curve elliptic.Curve, alg jwa.SignatureAlgorithm) signingKey {
	t.Helper()
	priv, err := ecdsa.GenerateKey(curve, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	// Published without alg, as some issuers do: the curve alone decides.
	return newSigningKey(t, kid, alg, priv, &priv.PublicKey, false)
}

func newSigningKey(t *testing.T, kid string, alg jwa.SignatureAlgorithm, priv, pub any, pinAlg bool) signingKey {
	t.Helper()
	k, err := jwk.Import(pub)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Set(jwk.KeyIDKey, kid); err != nil {
		t.Fatal(err)
	}
	if pinAlg {
		if err := k.Set(jwk.AlgorithmKey, alg); err != nil {
			t.Fatal(err)
		}
	}
	return signingKey{kid: kid, alg: alg, private: priv, public: k}
}

// issuer is a fake OpenID Connect issuer on 127.0.0.1 whose published keys tests can change.
type issuer struct {
	srv       *httptest.Server
	mu        sync.Mutex
	keys      []jwk.Key
	claimedAs string // the issuer the discovery document names; the real URL when ""
	jwksCode  int    // the JWKS status; 200 when 0
	block     chan struct{}
	jwksHits  atomic.Int64
}

func newIssuer(t *testing.T, keys ...signingKey) *issuer {
	t.Helper()
	is := &issuer{}
	is.publish(keys...)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		is.mu.Lock()
		iss := is.claimedAs
		is.mu.Unlock()
		if iss == "" {
			iss = is.srv.URL
		}
		_ = json.NewEncoder(w).Encode(map[string]string{"issuer": iss, "jwks_uri": is.srv.URL + "/jwks.json"})
	})
	mux.HandleFunc("GET /jwks.json", func(w http.ResponseWriter, r *http.Request) {
		is.jwksHits.Add(1)
		is.mu.Lock()
		block, code := is.block, is.jwksCode
		set := jwk.NewSet()
		for _, k := range is.keys {
			_ = set.AddKey(k)
		}
		is.mu.Unlock()
		if block != nil {
			select {
			case <-block:
			case <-r.Context().Done():
				return
			}
		}
		if code != 0 {
			http.Error(w, "unavailable", code)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(set)
	})
	is.srv = httptest.NewServer(mux)
	t.Cleanup(is.srv.Close)
	return is
}

// publish replaces the published key set.
func (is *issuer) publish(keys ...signingKey) {
	is.mu.Lock()
	defer is.mu.Unlock()
	is.keys = nil
	for _, k := range keys {
		is.keys = append(is.keys, k.public)
	}
}

func (is *issuer) url() string { return is.srv.URL }

// verifier starts an OIDC verifier for the issuer, closed when the test ends.
func (is *issuer) verifier(t *testing.T, clk *clock, opts Options) *OIDC {
	t.Helper()
	opts.Now = clk.Now
	o, err := NewOIDC(context.Background(), OIDCConfig{Issuer: is.url(), Audience: clientID, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := o.Close(); err != nil {
			t.Error(err)
		}
	})
	return o
}

// idClaims are a Cognito-style ID token's claims for ada, issued at testNow by the issuer.
func idClaims(iss string) claims {
	return claims{
		"iss":              iss,
		"aud":              clientID,
		"sub":              "5f0c1a2b-0000-4000-8000-00000000abcd",
		"cognito:username": "ada",
		"token_use":        "id",
		"iat":              at(0),
		"exp":              at(time.Hour),
	}
}

// accessClaims are a Cognito access token's: no aud, the app client in client_id.
func accessClaims(iss string) claims {
	return claims{
		"iss":       iss,
		"client_id": clientID,
		"sub":       "5f0c1a2b-0000-4000-8000-00000000abcd",
		"username":  "ada",
		"token_use": "access",
		"iat":       at(0),
		"exp":       at(time.Hour),
	}
}

// tokenFunc makes a test token for the issuer at iss.
type tokenFunc func(t *testing.T, iss string) string

// signedBy returns an ID token signed by k with its own alg and kid.
func signedBy(k signingKey, edits ...edit) tokenFunc {
	return func(t *testing.T, iss string) string {
		return signJWS(t, k.alg, k.private, map[string]any{"kid": k.kid}, build(idClaims(iss), edits))
	}
}

// accessBy returns an access token signed by k.
func accessBy(k signingKey, edits ...edit) tokenFunc {
	return func(t *testing.T, iss string) string {
		return signJWS(t, k.alg, k.private, map[string]any{"kid": k.kid}, build(accessClaims(iss), edits))
	}
}

// forged returns an ID token signed with alg and key under the given kid header.
func forged(alg jwa.SignatureAlgorithm, key any, kid string) tokenFunc {
	return func(t *testing.T, iss string) string {
		hdr := map[string]any{}
		if kid != "" {
			hdr["kid"] = kid
		}
		return signJWS(t, alg, key, hdr, idClaims(iss))
	}
}

func TestOIDCVerify(t *testing.T) {
	rsaKey := newRSAKey(t, "rsa-1")
	ecKey := newECKey(t, "ec-1", elliptic.P256(), jwa.ES256())
	ec384 := newECKey(t, "ec-384", elliptic.P384(), jwa.ES384())
	impostor := newRSAKey(t, "rsa-1") // same kid, different key
	otherEC, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	rsaDER, err := x509.MarshalPKIXPublicKey(rsaKey.private.(*rsa.PrivateKey).Public())
	if err != nil {
		t.Fatal(err)
	}
	rsaJWKJSON, err := json.Marshal(rsaKey.public)
	if err != nil {
		t.Fatal(err)
	}
	is := newIssuer(t, rsaKey, ecKey, ec384)

	cognitoID := Options{UsernameClaim: "cognito:username"}
	cognitoAccess := Options{UsernameClaim: "username"}
	tests := []struct {
		name  string
		opts  Options
		token tokenFunc
		want  string
		err   string
	}{
		{name: "RS256 ID token", opts: cognitoID, token: signedBy(rsaKey), want: "ada"},
		{name: "ES256 ID token", opts: cognitoID, token: signedBy(ecKey), want: "ada"},
		{name: "ES384 ID token", opts: cognitoID, token: signedBy(ec384), want: "ada"},
		{name: "aud among several", opts: cognitoID, token: signedBy(rsaKey, with("aud", []string{"x", clientID})), want: "ada"},
		{name: "access token: no aud, client_id matches", opts: cognitoAccess, token: accessBy(rsaKey), want: "ada"},
		{name: "username from sub by default", token: signedBy(ecKey), want: "5f0c1a2b-0000-4000-8000-00000000abcd"},

		{name: "alg none", opts: cognitoID, token: func(t *testing.T, iss string) string {
			return unsigned(t, map[string]any{"kid": rsaKey.kid}, idClaims(iss))
		}, err: "not signed with an accepted algorithm (got none)"},
		{name: "HS256 with the RSA key's DER as secret", opts: cognitoID, token: forged(jwa.HS256(), rsaDER, rsaKey.kid),
			err: "not signed with an accepted algorithm (got HS256)"},
		{name: "HS256 with the RSA JWK as secret", opts: cognitoID, token: forged(jwa.HS256(), rsaJWKJSON, rsaKey.kid),
			err: "not signed with an accepted algorithm (got HS256)"},
		{name: "HS256 against an EC key", opts: cognitoID, token: forged(jwa.HS256(), []byte("whatever-secret-whatever-secret!"), ecKey.kid),
			err: "not signed with an accepted algorithm (got HS256)"},
		{name: "PS256 with a key published for RS256", opts: cognitoID,
			token: forged(jwa.PS256(), rsaKey.private, rsaKey.kid), err: "not signed with an accepted algorithm (got PS256)"},
		{name: "RS256 naming an EC key", opts: cognitoID,
			token: forged(jwa.RS256(), rsaKey.private, ecKey.kid), err: "not signed with an accepted algorithm (got RS256)"},
		{name: "ES384 naming a P-256 key", opts: cognitoID,
			token: forged(jwa.ES384(), ec384.private, ecKey.kid), err: "not signed with an accepted algorithm (got ES384)"},

		{name: "signed by another RSA key under a known kid", opts: cognitoID, token: signedBy(impostor), err: "signature is not valid"},
		{name: "signed by another EC key under a known kid", opts: cognitoID,
			token: forged(jwa.ES256(), otherEC, ecKey.kid), err: "signature is not valid"},
		{name: "no kid", opts: cognitoID, token: forged(jwa.RS256(), rsaKey.private, ""), err: "names no signing key (kid)"},
		{name: "unknown kid", opts: cognitoID, token: forged(jwa.RS256(), rsaKey.private, "nope"),
			err: "a key the issuer does not publish"},
		{name: "empty", opts: cognitoID, token: func(*testing.T, string) string { return "" }, err: "a bearer token is required"},
		{name: "malformed", opts: cognitoID, token: func(*testing.T, string) string { return "a.b" }, err: "not a well-formed JWT"},

		{name: "expired", opts: cognitoID, token: signedBy(rsaKey, with("exp", at(-time.Minute))), err: "the token has expired"},
		{name: "not yet valid", opts: cognitoID, token: signedBy(rsaKey, with("nbf", at(time.Minute))), err: "not valid yet"},
		{name: "missing exp", opts: cognitoID, token: signedBy(rsaKey, without("exp")), err: "no expiry time (exp)"},
		{name: "wrong issuer", opts: cognitoID, token: signedBy(rsaKey, with("iss", "https://evil.example.com")), err: "issuer is not"},
		{name: "wrong audience", opts: cognitoID, token: signedBy(rsaKey, with("aud", "another-client")), err: `audience is not "app-client-1"`},
		{name: "aud wrong although client_id matches", opts: cognitoID,
			token: signedBy(rsaKey, with("aud", "another-client"), with("client_id", clientID)), err: "audience is not"},
		{name: "access token for another client", opts: cognitoAccess,
			token: accessBy(rsaKey, with("client_id", "another-client")), err: "its client_id is not that either"},
		{name: "neither aud nor client_id", opts: cognitoAccess, token: accessBy(rsaKey, without("client_id")), err: "audience is not"},
		{name: "missing username claim", opts: cognitoID, token: signedBy(rsaKey, without("cognito:username")),
			err: `no "cognito:username" claim`},
		{name: "invalid username", opts: cognitoID, token: signedBy(rsaKey, with("cognito:username", "ada@example.com")),
			err: `"cognito:username" claim is not a valid username`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := is.verifier(t, newClock(), tt.opts)
			token := tt.token(t, is.url())
			got, err := v.Verify(context.Background(), token)
			if tt.err != "" {
				assertRejected(t, err, tt.err, token, string(rsaDER))
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

// TestOIDCKeyRotation walks through a rotation step by step: each step may move the clock,
// change what the issuer publishes, and verifies a token, counting the JWKS fetches it caused.
func TestOIDCKeyRotation(t *testing.T) {
	oldKey := newRSAKey(t, "2026-01")
	newKey := newECKey(t, "2026-03", elliptic.P256(), jwa.ES256())
	is := newIssuer(t, oldKey)
	clk := newClock()
	v := is.verifier(t, clk, Options{UsernameClaim: "cognito:username"})

	garbage := func(kid string) tokenFunc { return forged(jwa.RS256(), oldKey.private, kid) }
	steps := []struct {
		name        string
		advance     time.Duration
		publish     []signingKey // nil: unchanged
		token       tokenFunc
		err         string
		wantFetches int64 // JWKS fetches this step caused
	}{
		{name: "the old key works without fetching", token: signedBy(oldKey)},
		{name: "the issuer publishes a new key: tokens with it are refused within 30s of the last fetch",
			advance: 10 * time.Second, publish: []signingKey{oldKey, newKey}, token: signedBy(newKey),
			err: "does not publish"},
		{name: "after 30s an unknown kid triggers one refresh and the new key is accepted",
			advance: 25 * time.Second, token: signedBy(newKey), wantFetches: 1},
		{name: "the new key is cached now", token: signedBy(newKey)},
		{name: "a made-up kid right after a refresh does not fetch", advance: time.Second, token: garbage("x1"), err: "does not publish"},
		{name: "another made-up kid does not fetch either", token: garbage("x2"), err: "does not publish"},
		{name: "30s later a made-up kid fetches once", advance: 31 * time.Second, token: garbage("x3"),
			err: "does not publish", wantFetches: 1},
		{name: "and the next does not", token: garbage("x4"), err: "does not publish"},
		{name: "the issuer withdraws the old key: cached tokens still verify until a refresh",
			publish: []signingKey{newKey}, token: signedBy(oldKey)},
	}
	for _, st := range steps {
		clk.Advance(st.advance)
		if st.publish != nil {
			is.publish(st.publish...)
		}
		before := is.jwksHits.Load()
		token := st.token(t, is.url())
		_, err := v.Verify(context.Background(), token)
		if st.err != "" {
			assertRejected(t, err, st.err, token)
		} else if err != nil {
			t.Fatalf("%s: Verify: %v", st.name, err)
		}
		if got := is.jwksHits.Load() - before; got != st.wantFetches {
			t.Errorf("%s: %d JWKS fetches, want %d", st.name, got, st.wantFetches)
		}
	}
}

// TestOIDCVerifyRespectsContext checks that a refresh blocked on a slow issuer ends with the
// caller's ctx, and that a cancelled ctx does not start one.
func TestOIDCVerifyRespectsContext(t *testing.T) {
	key := newRSAKey(t, "k1")
	tests := []struct {
		name    string
		ctx     func() (context.Context, context.CancelFunc)
		block   bool
		wantErr error
	}{
		{name: "cancelled before", ctx: func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, cancel
		}, wantErr: context.Canceled},
		{name: "deadline while the issuer hangs", block: true, ctx: func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 200*time.Millisecond)
		}, wantErr: context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := newIssuer(t, key)
			clk := newClock()
			v := is.verifier(t, clk, Options{UsernameClaim: "cognito:username"})
			clk.Advance(time.Minute) // past the refresh rate limit
			if tt.block {
				release := make(chan struct{})
				is.mu.Lock()
				is.block = release
				is.mu.Unlock()
				t.Cleanup(func() { close(release) })
			}
			ctx, cancel := tt.ctx()
			defer cancel()
			start := time.Now()
			_, err := v.Verify(ctx, forged(jwa.RS256(), key.private, "rotated")(t, is.url()))
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if domain.ErrorCode(err) != domain.Unavailable {
				t.Errorf("code = %q, want %q", domain.ErrorCode(err), domain.Unavailable)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("Verify took %v after its ctx ended", d)
			}
		})
	}
}

func TestNewOIDCFailsClearly(t *testing.T) {
	key := newRSAKey(t, "k1")
	tests := []struct {
		name  string
		setup func(is *issuer) OIDCConfig
		err   string
	}{
		{name: "no issuer", setup: func(*issuer) OIDCConfig { return OIDCConfig{Audience: clientID} }, err: "issuer is required"},
		{name: "no audience", setup: func(is *issuer) OIDCConfig { return OIDCConfig{Issuer: is.url()} }, err: "audience"},
		{name: "discovery names another issuer", setup: func(is *issuer) OIDCConfig {
			is.mu.Lock()
			defer is.mu.Unlock()
			is.claimedAs = "https://someone-else.example.com"
			return OIDCConfig{Issuer: is.url(), Audience: clientID}
		}, err: `names issuer "https://someone-else.example.com"`},
		{name: "issuer URL with a trailing slash differs from the document's", setup: func(is *issuer) OIDCConfig {
			return OIDCConfig{Issuer: is.url() + "/", Audience: clientID}
		}, err: "names issuer"},
		{name: "no discovery document", setup: func(is *issuer) OIDCConfig {
			return OIDCConfig{Issuer: is.url() + "/nowhere", Audience: clientID}
		}, err: "404"},
		{name: "keys cannot be fetched", setup: func(is *issuer) OIDCConfig {
			is.mu.Lock()
			defer is.mu.Unlock()
			is.jwksCode = http.StatusServiceUnavailable
			return OIDCConfig{Issuer: is.url(), Audience: clientID}
		}, err: "fetching the issuer's keys"},
		{name: "issuer unreachable", setup: func(*issuer) OIDCConfig {
			return OIDCConfig{Issuer: "http://127.0.0.1:1", Audience: clientID}
		}, err: "discovery document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := newIssuer(t, key)
			cfg := tt.setup(is)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			o, err := NewOIDC(ctx, cfg)
			if err == nil {
				_ = o.Close()
				t.Fatal("NewOIDC succeeded")
			}
			if !strings.Contains(err.Error(), tt.err) {
				t.Errorf("error %q does not contain %q", err, tt.err)
			}
		})
	}
}

func TestOIDCVerifyAfterClose(t *testing.T) {
	key := newRSAKey(t, "k1")
	is := newIssuer(t, key)
	o, err := NewOIDC(context.Background(), OIDCConfig{Issuer: is.url(), Audience: clientID})
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
	if err := o.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	_, err = o.Verify(context.Background(), signedBy(key)(t, is.url()))
	if domain.ErrorCode(err) != domain.Internal {
		t.Fatalf("Verify after Close: %v", err)
	}
}
