package api_test

import (
	"crypto/rand"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwt"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/auth"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

// callerAnswer is what GET /auth/caller answered: its status, the username of a 200, and the
// code of a refusal.
type callerAnswer struct {
	status   int
	username string
	code     string
	header   http.Header
}

// askCaller sends GET /auth/caller with header's fields.
func askCaller(t *testing.T, base string, header http.Header) callerAnswer {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+api.CallerPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Username string `json:"username"`
		Errors   []struct {
			Extensions struct {
				Code string `json:"code"`
			} `json:"extensions"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatalf("GET %s answered %d %q, not JSON: %v", api.CallerPath, resp.StatusCode, body, err)
	}
	a := callerAnswer{status: resp.StatusCode, username: got.Username, header: resp.Header}
	if len(got.Errors) > 0 {
		a.code = got.Errors[0].Extensions.Code
	}
	return a
}

func bearer(token string) http.Header { return http.Header{"Authorization": {"Bearer " + token}} }

// TestCaller_NamesTheTokensUser: a valid token's caller is the user the API takes it for.
func TestCaller_NamesTheTokensUser(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithAuth())
	got := askCaller(t, srv.URL, bearer(srv.Token(t, "ada")))
	if got.status != http.StatusOK || got.username != "ada" {
		t.Fatalf("ada's token: %d %q (%s), want 200 ada", got.status, got.username, got.code)
	}
	if cc := got.header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q, want no-store", cc)
	}
}

// TestCaller_RefusesWhatTheAPIRefuses: no token, a token that is not a bearer token, and a
// forged one are 401 UNAUTHENTICATED in the API's error shape, as the API answers them.
func TestCaller_RefusesWhatTheAPIRefuses(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithAuth())
	for name, header := range map[string]http.Header{
		"no token":     nil,
		"not a bearer": {"Authorization": {"Basic YWRhOnB3"}},
		"forged":       bearer(srv.Token(t, "ada") + "x"),
	} {
		t.Run(name, func(t *testing.T) {
			got := askCaller(t, srv.URL, header)
			if got.status != http.StatusUnauthorized || got.code != "UNAUTHENTICATED" || got.username != "" {
				t.Fatalf("%d %q %q, want 401 UNAUTHENTICATED", got.status, got.code, got.username)
			}
			if got.header.Get("WWW-Authenticate") == "" {
				t.Error("no WWW-Authenticate on a 401")
			}
		})
	}
}

// TestCaller_ReadsTheConfiguredClaim: with --username-claim preferred_username (Keycloak,
// Auth0), the caller is that claim's user, not the token's sub, nor any other claim a client
// might guess from (Cognito's username).
func TestCaller_ReadsTheConfiguredClaim(t *testing.T) {
	secret := make([]byte, 32)
	_, _ = rand.Read(secret)
	v, err := auth.NewHS256(secret, auth.Options{UsernameClaim: "preferred_username"})
	if err != nil {
		t.Fatal(err)
	}
	srv := apitest.NewServer(t, apitest.WithConfig(func(c *api.Config) { c.Verifier = v }))
	now := time.Now()
	tok, err := jwt.NewBuilder().Issuer(auth.HS256Issuer).Audience([]string{auth.HS256Audience}).
		Subject("f81d4fae-7dec-11d0-a765-00a0c91e6bf6").Claim("username", "bo").Claim("preferred_username", "ada").
		IssuedAt(now).NotBefore(now).Expiration(now.Add(time.Hour)).Build()
	if err != nil {
		t.Fatal(err)
	}
	signed, err := jwt.Sign(tok, jwt.WithKey(jwa.HS256(), secret))
	if err != nil {
		t.Fatal(err)
	}
	got := askCaller(t, srv.URL, bearer(string(signed)))
	if got.status != http.StatusOK || got.username != "ada" {
		t.Fatalf("%d %q (%s), want 200 ada", got.status, got.username, got.code)
	}
	// The API acts on the same user: ada may create ada's profile.
	resp := srv.WithHeader("Authorization", "Bearer "+string(signed)).
		Query(t, `mutation { createUser(input: {username: "ada", name: "Ada"}) { username } }`, nil)
	if len(resp.Errors) > 0 {
		t.Fatalf("createUser as the caller /auth/caller named: %+v", resp.Errors)
	}
}

// TestCaller_DevelopmentServer: on a development server a token of its sign-in names its
// user; a request without one is the open server's trusted caller, whom no name fits.
func TestCaller_DevelopmentServer(t *testing.T) {
	dev, err := auth.NewDev(auth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := apitest.NewServer(t, apitest.WithConfig(func(c *api.Config) { c.Verifier, c.DevSignIn = dev, dev }))
	token, err := dev.SignIn("ada")
	if err != nil {
		t.Fatal(err)
	}
	if got := askCaller(t, srv.URL, bearer(token)); got.status != http.StatusOK || got.username != "ada" {
		t.Errorf("a dev sign-in's token: %d %q (%s), want 200 ada", got.status, got.username, got.code)
	}
	if got := askCaller(t, srv.URL, nil); got.status != http.StatusUnauthorized || got.code != "UNAUTHENTICATED" {
		t.Errorf("no token: %d %q, want 401 UNAUTHENTICATED", got.status, got.code)
	}
}

// TestCaller_OpenServerNamesNoOne: a server without a verifier reads no token, so none names
// anyone there.
func TestCaller_OpenServerNamesNoOne(t *testing.T) {
	srv := apitest.NewServer(t)
	tok := `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2ln` // {"sub":"ada"}, unsigned
	if got := askCaller(t, srv.URL, bearer(tok)); got.status != http.StatusUnauthorized || got.code != "UNAUTHENTICATED" {
		t.Errorf("%d %q %q, want 401 UNAUTHENTICATED", got.status, got.code, got.username)
	}
}

// TestCaller_CORS: a web app on another origin reads the answer, as it reads the API's.
func TestCaller_CORS(t *testing.T) {
	const origin = "https://app.example.com"
	srv := apitest.NewServer(t, apitest.WithAuth(), withCORSOrigins(origin))
	h := bearer(srv.Token(t, "ada"))
	h.Set("Origin", origin)
	got := askCaller(t, srv.URL, h)
	if got.status != http.StatusOK || got.header.Get("Access-Control-Allow-Origin") != origin {
		t.Fatalf("%d, Access-Control-Allow-Origin %q: want 200 and %q", got.status, got.header.Get("Access-Control-Allow-Origin"), origin)
	}
	refused := askCaller(t, srv.URL, http.Header{"Origin": {origin}})
	if refused.status != http.StatusUnauthorized || refused.header.Get("Access-Control-Allow-Origin") != origin {
		t.Errorf("a refusal: %d, Access-Control-Allow-Origin %q", refused.status, refused.header.Get("Access-Control-Allow-Origin"))
	}
	// The preflight of a GET with Authorization.
	req, _ := http.NewRequest(http.MethodOptions, srv.URL+api.CallerPath, nil)
	req.Header.Set("Origin", origin)
	req.Header.Set("Access-Control-Request-Method", "GET")
	req.Header.Set("Access-Control-Request-Headers", "authorization")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Header.Get("Access-Control-Allow-Origin") != origin {
		t.Errorf("preflight: %d, Access-Control-Allow-Origin %q", resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"))
	}
}
