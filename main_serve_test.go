package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/ddb"
)

func TestServe_AuthenticationModes(t *testing.T) {
	loopback := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	loopback6 := &net.TCPAddr{IP: net.IPv6loopback, Port: 8080}
	everywhere := &net.TCPAddr{IP: net.IPv4zero, Port: 8080}
	private := &net.TCPAddr{IP: net.IPv4(10, 1, 2, 3), Port: 8080}
	secret := strings.Repeat("s", 32)
	cases := []struct {
		name    string
		cfg     authConfig
		addr    net.Addr
		wantErr string // "" means it starts; wantSay is then part of what it says
		wantSay string
	}{
		{"no verifier on loopback runs open", authConfig{mode: authAuto}, loopback, "", "loopback only"},
		{"no verifier on IPv6 loopback runs open", authConfig{mode: authAuto}, loopback6, "", "loopback only"},
		{"no verifier on every interface is refused", authConfig{mode: authAuto}, everywhere, "--auth none", ""},
		{"no verifier on a private address is refused", authConfig{mode: authAuto}, private, "refusing", ""},
		{"--auth none runs open anywhere", authConfig{mode: authNone}, everywhere, "", "--auth none"},
		{"a JWT secret anywhere", authConfig{mode: authAuto, jwtSecret: secret}, everywhere, "", "HS256"},
		{"a short JWT secret", authConfig{mode: authAuto, jwtSecret: "short"}, loopback, "32", ""},
		{"--auth none with a secret", authConfig{mode: authNone, jwtSecret: secret}, loopback, "contradicts", ""},
		{"a secret and an issuer", authConfig{mode: authAuto, jwtSecret: secret, oidcIssuer: "https://issuer.example"}, loopback, "pick one", ""},
		{"an issuer without an audience", authConfig{mode: authAuto, oidcIssuer: "https://issuer.example"}, loopback, "--oidc-audience", ""},
		{"an unknown mode", authConfig{mode: "sometimes"}, loopback, "--auth", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, say, err := c.cfg.verifier(context.Background(), c.addr)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want one mentioning %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer closeVerifier(v)
			if !strings.Contains(say, c.wantSay) {
				t.Errorf("says %q, want it to mention %q", say, c.wantSay)
			}
		})
	}
}

func TestServe_RefusesAnOpenServerOnEveryInterface(t *testing.T) {
	var stdout bytes.Buffer
	err := run(context.Background(), []string{"serve", "--addr", "0.0.0.0:0", "--data", t.TempDir()}, &stdout, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "--auth none") {
		t.Fatalf("err %v, want a refusal that names --auth none", err)
	}
}

func TestToken_ThenServeWithTheSameSecret(t *testing.T) {
	t.Setenv("QUICKPHOTOS_JWT_SECRET", "a development secret of 32+ bytes!")
	alice := strings.TrimSpace(runOK(t, "token", "alice", "--ttl", "5m"))
	bob := strings.TrimSpace(runOK(t, "token", "--ttl", "5m", "bob"))
	if strings.Count(alice, ".") != 2 {
		t.Fatalf("token printed %q, want a JWT", alice)
	}
	lines := startCommand(t, "authentication:", "serve", "--addr", "127.0.0.1:0", "--data", t.TempDir())
	if !strings.Contains(lines[len(lines)-1], "HS256") {
		t.Errorf("start-up says %q, want the HS256 verifier named", lines[len(lines)-1])
	}
	base := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(strings.Join(lines, ""))
	const create = `{"query":"mutation { createUser(input: {username: \"alice\"}) { username } }"}`
	for _, c := range []struct {
		name, token, want string
	}{
		{"no token", "", "UNAUTHENTICATED"},
		{"bob's token", bob, "FORBIDDEN"},
		{"alice's token", alice, ""},
	} {
		if got := graphqlCode(t, base, c.token, create); got != c.want {
			t.Errorf("%s: code %q, want %q", c.name, got, c.want)
		}
	}

	for _, args := range [][]string{{"token"}, {"token", "alice", "bob"}, {"token", "not a username"}} {
		if err := run(context.Background(), args, io.Discard, io.Discard); err == nil {
			t.Errorf("quickphotos %s: no error", strings.Join(args, " "))
		}
	}
	t.Setenv("QUICKPHOTOS_JWT_SECRET", "")
	if err := run(context.Background(), []string{"token", "alice"}, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "secret") {
		t.Errorf("token without a secret: %v", err)
	}
}

// graphqlCode posts body with an optional bearer token and returns the first error's code.
func graphqlCode(t *testing.T, base, token, body string) string {
	t.Helper()
	return graphqlCodeAt(t, base, "", token, body)
}

// TestServe_ShutdownFinishesRequestsInFlight: a request whose body is still arriving when the
// server is told to stop is answered, and then the store is closed cleanly (it opens again).
func TestServe_ShutdownFinishesRequestsInFlight(t *testing.T) {
	data := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--data", data}, pw, io.Discard)
		pw.Close()
	}()
	addr := waitForAddress(t, pr)

	body := `{"query":"mutation { createUser(input: {username: \"late\"}) { username } }"}`
	conn := sendHalfARequest(t, addr, body)
	cancel() // SIGTERM, as main wires it
	time.Sleep(100 * time.Millisecond)
	if _, err := io.WriteString(conn, body[len(body)/2:]); err != nil {
		t.Fatalf("finishing the request: %v", err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("the request in flight got no response: %v", err)
	}
	answer, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(answer), `"late"`) {
		t.Fatalf("the request in flight: %d %s", resp.StatusCode, answer)
	}
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	engine, err := ddb.Open(data, &ddb.Options{})
	if err != nil {
		t.Fatalf("the store was not closed cleanly: %v", err)
	}
	engine.Close()
}

// TestServe_ShutdownIsBounded: a request that never finishes does not hold the server up
// beyond --shutdown-timeout.
func TestServe_ShutdownIsBounded(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--shutdown-timeout", "200ms"}, pw, io.Discard)
		pw.Close()
	}()
	addr := waitForAddress(t, pr)
	sendHalfARequest(t, addr, `{"query":"{ viewer { username } }"}`) // and never the rest
	cancel()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "cut off") {
			t.Fatalf("serve: %v, want an error saying requests were cut off", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop")
	}
}

// TestMain_SIGTERMStopsGracefully runs the real binary's main (this test binary, re-executed)
// and stops it with SIGTERM.
func TestMain_SIGTERMStopsGracefully(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), runMainEnv+"=serve --addr 127.0.0.1:0 --data "+t.TempDir())
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	r := bufio.NewReader(stdout)
	var addr string
	for addr == "" {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("serve stopped before printing its address: %v", err)
		}
		if strings.Contains(line, "GraphiQL at") {
			addr = regexp.MustCompile(`127\.0\.0\.1:\d+`).FindString(line)
		}
	}
	if _, err := http.Get("http://" + addr + "/healthz"); err != nil {
		t.Fatalf("healthz: %v", err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(r)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("after SIGTERM: %v (printed %q)", err, rest)
	}
	if !strings.Contains(string(rest), "stopped") {
		t.Errorf("printed %q after SIGTERM, want it to say it stopped", rest)
	}
}

// runMainEnv makes the test binary run main with these arguments instead of the tests.
const runMainEnv = "QUICKPHOTOS_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if args := os.Getenv(runMainEnv); args != "" {
		os.Args = append([]string{"quickphotos"}, strings.Fields(args)...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// waitForAddress reads serve's output up to the GraphiQL line and returns the address.
func waitForAddress(t *testing.T, out io.Reader) string {
	t.Helper()
	r := bufio.NewReader(out)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("serve stopped before printing its address: %v", err)
		}
		if strings.Contains(line, "GraphiQL at") {
			go func() { _, _ = io.Copy(io.Discard, r) }()
			return regexp.MustCompile(`127\.0\.0\.1:\d+`).FindString(line)
		}
	}
}

// sendHalfARequest opens a connection and sends a POST of body whose second half is missing,
// once the handler is reading it: the request asks for "100 Continue", which net/http sends
// when the handler first reads the body, so the request is in flight, however slow the machine.
func sendHalfARequest(t *testing.T, addr, body string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "POST /graphql HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", addr, len(body))
	const continued = "HTTP/1.1 100 Continue\r\n\r\n"
	got := make([]byte, len(continued))
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.ReadFull(conn, got); err != nil || string(got) != continued {
		t.Fatalf("waiting for 100 Continue: %q, %v", got, err)
	}
	_ = conn.SetReadDeadline(time.Time{})
	if _, err := io.WriteString(conn, body[:len(body)/2]); err != nil {
		t.Fatal(err)
	}
	return conn
}

func jsonDecode(r io.Reader, v any) error { return json.NewDecoder(r).Decode(v) }

// TestServe_MetricsOnTheirOwnListener: with --metrics-addr the Prometheus metrics are served
// there, counting the API's requests, and no longer on the API's address.
func TestServe_MetricsOnTheirOwnListener(t *testing.T) {
	for name, tc := range map[string]struct {
		args           []string
		publicMetrics  bool
		ownMetricsLine bool
		profiles       bool
	}{
		"default: on the API's address": {nil, true, false, false},
		"--metrics-addr":                {[]string{"--metrics-addr", "127.0.0.1:0"}, false, true, false},
		"--metrics-addr --pprof":        {[]string{"--metrics-addr", "127.0.0.1:0", "--pprof"}, false, true, true},
	} {
		t.Run(name, func(t *testing.T) {
			lines := strings.Join(startCommand(t, "GraphiQL at", append([]string{"serve", "--addr", "127.0.0.1:0", "--data", t.TempDir()}, tc.args...)...), "")
			api := regexp.MustCompile(`GraphiQL at (http://127\.0\.0\.1:\d+)`).FindStringSubmatch(lines)[1]
			var got map[string]any
			postJSON(t, api+"/graphql", `{"query":"{ __typename }"}`, &got)

			if status, _ := getBody(t, api+"/debug/pprof/"); status != http.StatusNotFound {
				t.Errorf("the API's address answers /debug/pprof/ with %d, want 404", status)
			}
			status, _ := getBody(t, api+"/metrics")
			if (status == http.StatusOK) != tc.publicMetrics {
				t.Errorf("GET %s/metrics: %d, want metrics there: %v", api, status, tc.publicMetrics)
			}
			m := regexp.MustCompile(`metrics at (http://127\.0\.0\.1:\d+/metrics)`).FindStringSubmatch(lines)
			if (m != nil) != tc.ownMetricsLine {
				t.Fatalf("start-up lines %q; a metrics listener expected: %v", lines, tc.ownMetricsLine)
			}
			if m == nil {
				return
			}
			status, body := getBody(t, m[1])
			if status != http.StatusOK || !strings.Contains(body, `quickphotos_graphql_operations_total`) {
				t.Errorf("GET %s: %d, metrics of the API's requests missing:\n%.500s", m[1], status, body)
			}
			if status, _ := getBody(t, strings.TrimSuffix(m[1], "/metrics")+"/graphql"); status != http.StatusNotFound {
				t.Errorf("the metrics listener answers /graphql with %d, want 404", status)
			}
			status, body = getBody(t, strings.TrimSuffix(m[1], "/metrics")+"/debug/pprof/heap?debug=1")
			if served := status == http.StatusOK && strings.Contains(body, "heap profile"); served != tc.profiles {
				t.Errorf("GET /debug/pprof/heap on the metrics listener: %d %.100q; profiles expected: %v", status, body, tc.profiles)
			}
		})
	}
}

// getBody GETs url and returns the status and body.
func getBody(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

func TestServe_ProfilesOnlyBesideTheMetrics(t *testing.T) {
	err := run(t.Context(), []string{"serve", "--addr", "127.0.0.1:0", "--in-memory", "--pprof"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "--metrics-addr") {
		t.Errorf("serve --pprof without --metrics-addr: %v", err)
	}
}

// TestServe_BusyPortFailsFirstAndAlone: when a port serve is to listen on is taken, serve
// stops with that error before it has opened the store (the data directory is never made),
// loaded the sample or started a stream consumer, and logs nothing.
func TestServe_BusyPortFailsFirstAndAlone(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { busy.Close() })
	for _, tc := range []struct{ name, flag, want string }{
		{"API", "--addr", ""},
		{"metrics", "--metrics-addr", "--metrics-addr: "},
		{"DynamoDB API", "--dynamodb-listen", "--dynamodb-listen: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := filepath.Join(t.TempDir(), "data")
			args := []string{"serve", "--data", data, "--sample", "--sample-users", "20", "--addr", "127.0.0.1:0"}
			args = append(args, tc.flag, busy.Addr().String())
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), args, &stdout, &stderr)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !strings.Contains(err.Error(), "address already in use") {
				t.Fatalf("err %v: want %q and the address in use", err, tc.want)
			}
			if stderr.Len() > 0 || stdout.Len() > 0 {
				t.Errorf("serve printed before it stopped:\n%s%s", &stdout, &stderr)
			}
			if _, err := os.Stat(data); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("serve opened the store before it failed to listen (%s: %v)", data, err)
			}
		})
	}
}

// TestServe_EmbeddedPhotoFilesNeedTheirOriginOnEveryInterface: listening on every address, serve
// cannot name itself in upload forms and image URLs (http://0.0.0.0:8080 reaches nothing), so
// with embedded photo files it needs --media-base-url, and says so before it opens anything.
func TestServe_EmbeddedPhotoFilesNeedTheirOriginOnEveryInterface(t *testing.T) {
	t.Setenv("QUICKPHOTOS_JWT_SECRET", "a development secret of 32+ bytes!")
	err := run(context.Background(), []string{"serve", "--addr", "0.0.0.0:0", "--data", t.TempDir()}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "--media-base-url") {
		t.Fatalf("err %v, want a refusal that names --media-base-url", err)
	}

	for _, c := range []struct {
		name   string
		media  mediaConfig
		listen string
		ok     bool
	}{
		{"embedded on 0.0.0.0", mediaConfig{kind: mediaEmbedded}, "0.0.0.0:8080", false},
		{"embedded on ::", mediaConfig{kind: mediaEmbedded}, "[::]:8080", false},
		{"embedded with no host", mediaConfig{kind: mediaEmbedded}, ":8080", false},
		{"embedded on 0.0.0.0 with its origin", mediaConfig{kind: mediaEmbedded, baseURL: "https://photos.example.com"}, "0.0.0.0:8080", true},
		{"embedded on one address", mediaConfig{kind: mediaEmbedded}, "192.0.2.7:8080", true},
		{"embedded on loopback", mediaConfig{kind: mediaEmbedded}, "127.0.0.1:8080", true},
		{"S3 on 0.0.0.0", mediaConfig{kind: mediaS3, bucket: "photos"}, "0.0.0.0:8080", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			addr, err := net.ResolveTCPAddr("tcp", c.listen)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.media.checkOrigin(addr); (err == nil) != c.ok {
				t.Errorf("checkOrigin(%s): %v, want ok %v", c.listen, err, c.ok)
			}
		})
	}
}

// TestServe_OpenOnLoopbackAnswersOnlyItsOwnNames: serve open because it listens on loopback
// refuses a request that names it other than by an address or localhost (a web page on a DNS
// name rebound to 127.0.0.1); under --auth none, open to anyone on purpose, and with a verifier,
// the name does not matter.
func TestServe_OpenOnLoopbackAnswersOnlyItsOwnNames(t *testing.T) {
	const create = `{"query":"mutation { createUser(input: {username: \"ann\"}) { username } }"}`
	for _, c := range []struct {
		name     string
		args     []string
		wantEvil string // the code a request naming attacker.example gets
	}{
		{"open on loopback", nil, "FORBIDDEN"},
		{"--auth none", []string{"--auth", "none"}, ""},
		{"--jwt-secret", []string{"--jwt-secret", "a development secret of 32+ bytes!"}, "UNAUTHENTICATED"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("QUICKPHOTOS_JWT_SECRET", "")
			lines := startCommand(t, "authentication:", append([]string{"serve", "--addr", "127.0.0.1:0", "--in-memory"}, c.args...)...)
			base := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(strings.Join(lines, ""))
			evil := strings.Replace(strings.TrimPrefix(base, "http://"), "127.0.0.1", "attacker.example", 1)
			if got := graphqlCodeAt(t, base, evil, "", create); got != c.wantEvil {
				t.Errorf("a request naming %s: code %q, want %q", evil, got, c.wantEvil)
			}
		})
	}
}

// graphqlCodeAt is graphqlCode for a request sent to base that names host in its Host header
// ("": base's own).
func graphqlCodeAt(t *testing.T, base, host, token, body string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/graphql", strings.NewReader(body))
	if host != "" {
		req.Host = host
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	var got struct {
		Errors []struct {
			Extensions struct{ Code string }
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := jsonDecode(resp.Body, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Errors) == 0 {
		return ""
	}
	return got.Errors[0].Extensions.Code
}
