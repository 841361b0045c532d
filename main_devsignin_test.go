package main

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// TestServe_DevSignIn: a development server (no identity provider, on loopback) signs the web
// app in as any username; the token names the caller (the viewer is that user), and a request
// without one is still the open server's trusted caller.
func TestServe_DevSignIn(t *testing.T) {
	base := startServe(t, "--addr", "127.0.0.1:0", "--in-memory")
	var status struct {
		Available bool
		Reason    string
	}
	getJSON(t, base+"/auth/dev-sign-in", &status)
	if !status.Available {
		t.Fatalf("GET /auth/dev-sign-in: %+v, want available", status)
	}
	var signedIn struct {
		Token     string
		Username  string
		ExpiresIn int
	}
	postJSON(t, base+"/auth/dev-sign-in", `{"username":"ada"}`, &signedIn)
	if signedIn.Token == "" || signedIn.Username != "ada" || signedIn.ExpiresIn <= 0 {
		t.Fatalf("POST /auth/dev-sign-in: %+v", signedIn)
	}
	// Without a token: trusted, as on any open development server (acts as any user).
	if code := graphqlCode(t, base, "", `{"query":"mutation { createUser(input: {username: \"ada\"}) { username } }"}`); code != "" {
		t.Fatalf("createUser without a token: %s", code)
	}
	var viewer struct {
		Data struct{ Viewer struct{ Username string } }
	}
	graphqlAs(t, base, signedIn.Token, `{"query":"{ viewer { username } }"}`, &viewer)
	if viewer.Data.Viewer.Username != "ada" {
		t.Errorf("viewer with the token: %+v, want ada", viewer)
	}
	if code := graphqlCode(t, base, signedIn.Token, `{"query":"mutation { createUser(input: {username: \"bob\"}) { username } }"}`); code != "FORBIDDEN" {
		t.Errorf("ada creating bob's profile: %q, want FORBIDDEN", code)
	}
	if code := graphqlCode(t, base, signedIn.Token+"x", `{"query":"{ viewer { username } }"}`); code != "UNAUTHENTICATED" {
		t.Errorf("a forged token: %q, want UNAUTHENTICATED", code)
	}
	resp, body := postRaw(t, base+"/auth/dev-sign-in", `{"username":"no spaces"}`)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "BAD_USER_INPUT") {
		t.Errorf("an invalid username: %d %s", resp.StatusCode, body)
	}
}

// TestServe_DevSignInRefused: every other configuration refuses the sign-in with 403 and
// DEV_SIGN_IN_UNAVAILABLE, saying why, and GET says it is not available; one that asks for it
// where it cannot be stops at start-up.
func TestServe_DevSignInRefused(t *testing.T) {
	secret := strings.Repeat("s", 32)
	for name, tc := range map[string]struct {
		args []string
		why  string
	}{
		"with --jwt-secret":      {[]string{"--jwt-secret", secret}, "--jwt-secret"},
		"with --dev-sign-in off": {[]string{"--dev-sign-in", "off"}, "--dev-sign-in off"},
	} {
		t.Run(name, func(t *testing.T) {
			base := startServe(t, append([]string{"--addr", "127.0.0.1:0", "--in-memory"}, tc.args...)...)
			var status struct {
				Available bool
				Reason    string
			}
			getJSON(t, base+"/auth/dev-sign-in", &status)
			if status.Available || !strings.Contains(status.Reason, tc.why) {
				t.Errorf("GET: %+v, want unavailable because of %s", status, tc.why)
			}
			resp, body := postRaw(t, base+"/auth/dev-sign-in", `{"username":"ada"}`)
			if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, `"DEV_SIGN_IN_UNAVAILABLE"`) || !strings.Contains(body, tc.why) {
				t.Errorf("POST: %d %s, want 403 DEV_SIGN_IN_UNAVAILABLE naming %s", resp.StatusCode, body, tc.why)
			}
		})
	}

	t.Run("refused at start-up", func(t *testing.T) {
		for args, want := range map[string]string{
			"--dev-sign-in on --jwt-secret " + secret: "--dev-sign-in on contradicts --jwt-secret",
			"--dev-sign-in sometimes":                 `--dev-sign-in "sometimes": want auto, on or off`,
		} {
			err := run(t.Context(), append([]string{"serve", "--addr", "127.0.0.1:0", "--in-memory"}, strings.Fields(args)...), nil, nil)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v, want an error saying %q", args, err, want)
			}
		}
	})
}

// TestAuthConfig_OffersDevSignIn decides for the configurations a test cannot start: an
// identity provider (OIDC needs its issuer at start-up) and addresses other than loopback
// (tests listen on loopback only).
func TestAuthConfig_OffersDevSignIn(t *testing.T) {
	loopback := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	public := &net.TCPAddr{IP: net.IPv4(0, 0, 0, 0), Port: 8080}
	cases := []struct {
		name    string
		cfg     authConfig
		addr    net.Addr
		offered bool
		why     string
	}{
		{"development on loopback", authConfig{mode: authAuto, devSignIn: devSignInAuto}, loopback, true, ""},
		{"--auth none on loopback", authConfig{mode: authNone, devSignIn: devSignInAuto}, loopback, true, ""},
		{"an OIDC issuer", authConfig{mode: authAuto, devSignIn: devSignInAuto, oidcIssuer: "https://issuer.invalid"}, loopback, false, "identity provider (https://issuer.invalid)"},
		{"a JWT secret", authConfig{mode: authAuto, devSignIn: devSignInAuto, jwtSecret: "x"}, loopback, false, "--jwt-secret"},
		{"open on every address", authConfig{mode: authNone, devSignIn: devSignInAuto}, public, false, "only on loopback, and this server listens on 0.0.0.0:8080"},
		{"open on every address, asked for", authConfig{mode: authNone, devSignIn: devSignInOn}, public, true, ""},
		{"turned off", authConfig{mode: authAuto, devSignIn: devSignInOff}, loopback, false, "--dev-sign-in off"},
		{"under Lambda", authConfig{mode: authNone, devSignIn: devSignInAuto}, lambdaAddr{}, false, "only by `quickphotos serve`"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			offered, why, err := tc.cfg.offersDevSignIn(tc.addr)
			if err != nil {
				t.Fatal(err)
			}
			if offered != tc.offered || !strings.Contains(why, tc.why) {
				t.Errorf("offered %v (%q), want %v (%q)", offered, why, tc.offered, tc.why)
			}
		})
	}
	if _, _, err := (&authConfig{mode: authNone, devSignIn: devSignInOn}).offersDevSignIn(lambdaAddr{}); err == nil {
		t.Error("--dev-sign-in on under Lambda: no error")
	}
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

func postRaw(t *testing.T, url, body string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	_, _ = io.Copy(&b, resp.Body)
	return resp, b.String()
}

func graphqlAs(t *testing.T, base, token, body string, v any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/graphql", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}
