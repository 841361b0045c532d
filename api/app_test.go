package api_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/quickphotos/quickphotos/api"
)

// TestApp_ServedAtAppPath: the app is mounted where Config.AppPath says (package web's path,
// which api does not know), the path without its "/" redirects there, and an App without a
// usable path is refused at construction rather than served somewhere else.
func TestApp_ServedAtAppPath(t *testing.T) {
	app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "app at "+r.URL.Path) })
	srv := httptest.NewServer(api.New(api.Config{App: app, AppPath: "/somewhere/"}))
	defer srv.Close()
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, c := range []struct {
		method, path string
		status       int
		body         string
	}{
		{http.MethodGet, "/somewhere/", http.StatusOK, "app at /somewhere/"},
		{http.MethodGet, "/somewhere/assets/a.js", http.StatusOK, "app at /somewhere/assets/a.js"},
		{http.MethodHead, "/somewhere/", http.StatusOK, ""},
		{http.MethodGet, "/somewhere", http.StatusMovedPermanently, ""},
		{http.MethodGet, "/app/", http.StatusNotFound, ""},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			req, _ := http.NewRequestWithContext(t.Context(), c.method, srv.URL+c.path, nil)
			resp, err := noRedirect.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.status || c.status == http.StatusOK && string(body) != c.body {
				t.Fatalf("%d %q, want %d %q", resp.StatusCode, body, c.status, c.body)
			}
			if c.status == http.StatusMovedPermanently && resp.Header.Get("Location") != "/somewhere/" {
				t.Errorf("Location %q", resp.Header.Get("Location"))
			}
		})
	}
	for _, path := range []string{"", "/", "somewhere/", "/somewhere"} {
		t.Run("AppPath "+path, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("New took App at AppPath %q", path)
				}
			}()
			api.New(api.Config{App: app, AppPath: path})
		})
	}
}
