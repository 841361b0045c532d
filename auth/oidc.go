package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lestrrat-go/httprc/v3"
	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jwt"

	"github.com/quickphotos/quickphotos/domain"
)

// DefaultRefreshInterval is how often the OIDC verifier re-reads the issuer's keys when
// OIDCConfig.RefreshInterval is zero. Rotation does not wait for it (an unknown kid triggers a
// refresh at once); it bounds how long a key the issuer has withdrawn keeps being accepted.
const DefaultRefreshInterval = time.Hour

// MinKeyRefreshInterval is the least time between two key refreshes triggered by unknown kids,
// so that tokens with made-up kids cannot make the server hammer the issuer.
const MinKeyRefreshInterval = 30 * time.Second

// startupTimeout bounds NewOIDC's requests when the caller's ctx has no deadline, so a
// misconfigured issuer fails the start instead of hanging it.
const startupTimeout = 30 * time.Second

// OIDCConfig configures NewOIDC.
type OIDCConfig struct {
	// Issuer is the issuer URL exactly as it appears in the tokens' iss claim, e.g.
	// https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf123 for a Cognito user pool.
	Issuer string
	// Audience is the client ID the tokens must be meant for: a token is accepted when its aud
	// contains Audience or, when it has no aud at all, when its client_id equals Audience —
	// Cognito access tokens carry the app client ID only in client_id.
	Audience string
	Options
	// HTTPClient fetches the discovery document and the keys; a client with a 10-second
	// timeout when nil.
	HTTPClient *http.Client
	// RefreshInterval is how often the keys are re-read in the background, DefaultRefreshInterval
	// when zero.
	RefreshInterval time.Duration
}

// OIDC verifies tokens from an OpenID Connect issuer (Amazon Cognito or any other) against the
// public keys the issuer publishes, cached in memory and refreshed in the background. It accepts
// only the asymmetric algorithm that fits the key the token names: never "none", and never an
// HS* algorithm, which would let anyone who has the public key sign tokens.
//
// An OIDC is safe for concurrent use. Call Close when done with it.
type OIDC struct {
	s        settings
	issuer   string
	audience string
	jwksURL  string
	cache    *jwk.Cache
	keys     *httprc.ResourceBase[jwk.Set]

	// refreshing is a one-slot semaphore held while a key refresh triggered by an unknown kid
	// runs; a channel rather than a mutex so that waiters can give up when their ctx ends.
	refreshing chan struct{}
	// lastRefresh is when the last triggered refresh (or the start-up fetch) began; guarded by
	// refreshing.
	lastRefresh time.Time

	closed    atomic.Bool
	closeOnce sync.Once
	closeErr  error
}

var _ Verifier = (*OIDC)(nil)

// NewOIDC discovers the issuer's keys and starts caching them. It reads
// <Issuer>/.well-known/openid-configuration, checks that the document names Issuer as its issuer
// (so a mistyped or hijacked URL cannot vouch for another issuer's tokens), and fetches the key
// set at its jwks_uri once before returning, so a verifier that could not check any token
// fails at start rather than on the first request.
//
// ctx bounds only these start-up requests (to 30 seconds when it has no deadline); the
// background refresh runs until Close, whatever happens to ctx.
func NewOIDC(ctx context.Context, cfg OIDCConfig) (*OIDC, error) {
	if cfg.Issuer == "" {
		return nil, errors.New("auth: the OIDC issuer is required")
	}
	if cfg.Audience == "" {
		return nil, errors.New("auth: the OIDC audience (the app client ID) is required")
	}
	client := cfg.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	interval := cfg.RefreshInterval
	if interval <= 0 {
		interval = DefaultRefreshInterval
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, startupTimeout)
		defer cancel()
	}

	jwksURL, err := discoverJWKS(ctx, client, cfg.Issuer)
	if err != nil {
		return nil, err
	}
	// Fetch once ourselves: the cache would keep retrying a failing URL in the background and
	// report only that ctx ended, where this reports why.
	if _, err := jwk.Fetch(ctx, jwksURL, jwk.WithHTTPClient(client)); err != nil {
		return nil, fmt.Errorf("auth: fetching the issuer's keys from %s: %w", jwksURL, err)
	}

	// The cache outlives ctx, which is often a start-up timeout; Close stops it.
	cache, err := jwk.NewCache(context.WithoutCancel(ctx), httprc.NewClient(httprc.WithWorkers(1)))
	if err != nil {
		return nil, fmt.Errorf("auth: starting the key cache: %w", err)
	}
	o := &OIDC{
		s:          cfg.settings(),
		issuer:     cfg.Issuer,
		audience:   cfg.Audience,
		jwksURL:    jwksURL,
		cache:      cache,
		refreshing: make(chan struct{}, 1),
	}
	o.lastRefresh = o.s.now()
	if err := cache.Register(ctx, jwksURL,
		jwk.WithHTTPClient(client),
		jwk.WithConstantInterval(interval),
		jwk.WithWaitReady(true),
	); err != nil {
		_ = o.Close()
		return nil, fmt.Errorf("auth: caching the issuer's keys from %s: %w", jwksURL, err)
	}
	if o.keys, err = cache.LookupResource(ctx, jwksURL); err != nil {
		_ = o.Close()
		return nil, fmt.Errorf("auth: caching the issuer's keys from %s: %w", jwksURL, err)
	}
	return o, nil
}

// discoverJWKS reads the issuer's discovery document and returns its jwks_uri.
func discoverJWKS(ctx context.Context, client *http.Client, issuer string) (string, error) {
	u := strings.TrimSuffix(issuer, "/") + "/.well-known/openid-configuration"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return "", fmt.Errorf("auth: the OIDC issuer %q is not a valid URL: %w", issuer, err)
	}
	res, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("auth: reading the OIDC discovery document: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return "", fmt.Errorf("auth: reading the OIDC discovery document %s: status %s", u, res.Status)
	}
	var doc struct {
		Issuer  string `json:"issuer"`
		JWKSURI string `json:"jwks_uri"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(&doc); err != nil {
		return "", fmt.Errorf("auth: the OIDC discovery document %s is not valid JSON: %w", u, err)
	}
	if doc.Issuer != issuer {
		return "", fmt.Errorf("auth: the OIDC discovery document %s names issuer %q, not %q", u, doc.Issuer, issuer)
	}
	jwks, err := url.Parse(doc.JWKSURI)
	if err != nil || (jwks.Scheme != "https" && jwks.Scheme != "http") || jwks.Host == "" {
		return "", fmt.Errorf("auth: the OIDC discovery document %s has no usable jwks_uri (got %q)", u, doc.JWKSURI)
	}
	return doc.JWKSURI, nil
}

// Close stops the background key refresh. Verify must not be called after Close; if it is, it
// returns an internal error instead of blocking on the stopped cache.
func (o *OIDC) Close() error {
	o.closeOnce.Do(func() {
		o.closed.Store(true)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		o.closeErr = o.cache.Shutdown(ctx)
	})
	return o.closeErr
}

// Verify returns the identity an issuer's token authenticates. A token naming a key (kid) that
// is not cached triggers one refresh of the keys, at most once per MinKeyRefreshInterval; ctx
// bounds the wait for it. When that refresh fails the error has code domain.Unavailable rather
// than Unauthenticated: the token may be fine, and retrying later may succeed.
func (o *OIDC) Verify(ctx context.Context, token string) (Identity, error) {
	if o.closed.Load() {
		return Identity{}, domain.Errorf(domain.Internal, "auth: OIDC.Verify called after Close")
	}
	hdr, err := protectedHeader(token)
	if err != nil {
		return Identity{}, err
	}
	kid, ok := hdr.KeyID()
	if !ok || kid == "" {
		return Identity{}, reject("the token names no signing key (kid)")
	}
	key, err := o.key(ctx, kid)
	if err != nil {
		return Identity{}, err
	}
	alg, ok := hdr.Algorithm()
	if !ok || !fits(key, alg) {
		return Identity{}, reject("the token is not signed with an accepted algorithm (got %s)", algorithmName(alg))
	}
	tok, err := parseSigned(token, alg, key)
	if err != nil {
		return Identity{}, err
	}
	if err := o.s.checkClaims(tok, o.issuer); err != nil {
		return Identity{}, err
	}
	if err := o.checkAudience(tok); err != nil {
		return Identity{}, err
	}
	return o.s.identity(tok)
}

// key returns the cached key with the given kid, refreshing the key set when it is missing and
// the last refresh is old enough.
func (o *OIDC) key(ctx context.Context, kid string) (jwk.Key, error) {
	if key, ok := o.keys.Resource().LookupKeyID(kid); ok {
		return key, nil
	}
	select {
	case o.refreshing <- struct{}{}:
	case <-ctx.Done():
		return nil, domain.Wrap(domain.Unavailable, ctx.Err(), "the issuer's signing keys could not be refreshed in time")
	}
	defer func() { <-o.refreshing }()
	// Another request may have refreshed the keys while this one waited.
	if key, ok := o.keys.Resource().LookupKeyID(kid); ok {
		return key, nil
	}
	now := o.s.now()
	if now.Sub(o.lastRefresh) < MinKeyRefreshInterval {
		return nil, reject("the token is signed with a key the issuer does not publish")
	}
	if err := ctx.Err(); err != nil {
		return nil, domain.Wrap(domain.Unavailable, err, "the issuer's signing keys could not be refreshed in time")
	}
	o.lastRefresh = now
	set, err := o.cache.Refresh(ctx, o.jwksURL)
	if err != nil {
		return nil, domain.Wrap(domain.Unavailable, err, "the issuer's signing keys could not be refreshed; try again later")
	}
	if key, ok := set.LookupKeyID(kid); ok {
		return key, nil
	}
	return nil, reject("the token is signed with a key the issuer does not publish")
}

// fits reports whether alg is the asymmetric algorithm that key is for. The key's own alg, when
// the issuer publishes one, pins it; otherwise the key type and curve decide. Symmetric keys
// fit nothing: an issuer's key set is public.
func fits(key jwk.Key, alg jwa.SignatureAlgorithm) bool {
	name := alg.String()
	if pinned, ok := key.Algorithm(); ok && pinned.String() != name {
		return false
	}
	switch key.KeyType().String() {
	case jwa.RSA().String():
		return slices.Contains([]string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512"}, name)
	case jwa.EC().String():
		ec, ok := key.(jwk.ECDSAPublicKey)
		if !ok {
			return false
		}
		crv, ok := ec.Crv()
		if !ok {
			return false
		}
		want := map[string]string{"P-256": "ES256", "P-384": "ES384", "P-521": "ES512"}[crv.String()]
		return want != "" && want == name
	case jwa.OKP().String():
		okp, ok := key.(jwk.OKPPublicKey)
		if !ok {
			return false
		}
		crv, ok := okp.Crv()
		return ok && crv.String() == jwa.Ed25519().String() && (name == "EdDSA" || name == "Ed25519")
	}
	return false
}

// checkAudience accepts a token whose aud contains the audience, or — Cognito access tokens
// have no aud — whose client_id equals it. A token with an aud that does not contain the
// audience is refused whatever its client_id says.
func (o *OIDC) checkAudience(tok jwt.Token) error {
	if aud, ok := tok.Audience(); ok && len(aud) > 0 {
		if slices.Contains(aud, o.audience) {
			return nil
		}
		return reject("the token's audience is not %q", o.audience)
	}
	var clientID string
	if err := tok.Get("client_id", &clientID); err != nil || clientID != o.audience {
		return reject("the token's audience is not %q: it has no aud, and its client_id is not that either", o.audience)
	}
	return nil
}
