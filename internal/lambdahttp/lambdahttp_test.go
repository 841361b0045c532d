package lambdahttp_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/quickphotos/quickphotos/internal/lambdahttp"
)

// readEvent reads one of aws-lambda-go's sample events (events/testdata, copied to testdata/).
func readEvent(t *testing.T, name string) events.APIGatewayV2HTTPRequest {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var e events.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatal(err)
	}
	return e
}

// TestRequest_FromRealEvents: the SDK's sample events of an HTTP API and of a Function URL
// become the requests net/http's server would hand a handler.
func TestRequest_FromRealEvents(t *testing.T) {
	cases := []struct {
		file                  string
		method, uri, host     string
		remote, body, cookies string
		header                map[string]string
	}{
		{file: "apigw-v2-request-no-authorizer.json", method: "GET", uri: "/", host: "aaaaaaaaaa.execute-api.us-west-2.amazonaws.com",
			remote: "1.2.3.4", header: map[string]string{"Accept": "*/*", "User-Agent": "curl/7.58.0", "X-Forwarded-For": "1.2.3.4"}},
		{file: "apigw-v2-request-jwt-authorizer.json", method: "GET", uri: "/my/path?parameter1=value1&parameter1=value2&parameter2=value",
			host: "id.execute-api.us-east-1.amazonaws.com", remote: "IP", body: "{\r\n\t\"a\": 1\r\n}", cookies: "cookie1; cookie2",
			header: map[string]string{"Header1": "value1", "Header2": "value2"}},
		{file: "lambda-urls-request.json", method: "POST", uri: "/my/path?parameter1=value1&parameter1=value2&parameter2=value",
			host: "<url-id>.lambda-url.us-west-2.on.aws", remote: "123.123.123.123", body: "Hello from client!", cookies: "cookie1; cookie2",
			// A header API Gateway joined stays one value, as a comma-separated line does under net/http.
			header: map[string]string{"Header1": "value1", "Header2": "value1,value2"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			r, err := lambdahttp.Request(context.Background(), readEvent(t, c.file))
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(r.Body)
			got := []string{r.Method, r.RequestURI, r.URL.String(), r.Host, r.RemoteAddr, string(body), r.Header.Get("Cookie")}
			want := []string{c.method, c.uri, c.uri, c.host, c.remote, c.body, c.cookies}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("method, URI, URL, host, remote, body, cookies = %q, want %q", got, want)
			}
			if r.ContentLength != int64(len(c.body)) {
				t.Errorf("ContentLength %d, want %d", r.ContentLength, len(c.body))
			}
			for name, v := range c.header {
				if got := r.Header.Values(name); len(got) != 1 || got[0] != v {
					t.Errorf("header %s = %q, want [%q]", name, got, v)
				}
			}
			if r.Header.Get("Host") != "" {
				t.Error("Host is left in the header; net/http keeps it in r.Host only")
			}
		})
	}
}

// TestRequest_Adjusts: the parts of an event the conversion has to work out.
func TestRequest_Adjusts(t *testing.T) {
	base := func() events.APIGatewayV2HTTPRequest {
		e := readEvent(t, "apigw-v2-request-no-authorizer.json")
		e.RequestContext.HTTP.Method = "POST"
		return e
	}
	cases := []struct {
		name    string
		change  func(*events.APIGatewayV2HTTPRequest)
		uri     string
		body    string
		wantErr string
	}{
		{name: "a base64 body is decoded", change: func(e *events.APIGatewayV2HTTPRequest) {
			e.Body, e.IsBase64Encoded = base64.StdEncoding.EncodeToString([]byte{0xff, 0, 'q'}), true
		}, uri: "/", body: "\xff\x00q"},
		{name: "a named stage is taken off the path", change: func(e *events.APIGatewayV2HTTPRequest) {
			e.RawPath, e.RequestContext.Stage = "/prod/graphql", "prod"
		}, uri: "/graphql"},
		{name: "a path that only starts like the stage keeps it", change: func(e *events.APIGatewayV2HTTPRequest) {
			e.RawPath, e.RequestContext.Stage = "/production/graphql", "prod"
		}, uri: "/production/graphql"},
		{name: "the $default stage is not in the path", change: func(e *events.APIGatewayV2HTTPRequest) {
			e.RawPath = "/graphql"
		}, uri: "/graphql"},
		{name: "an escaped path and query stay as sent", change: func(e *events.APIGatewayV2HTTPRequest) {
			e.RawPath, e.RawQueryString = "/a%2Fb", "query=%7B+user%28username%3A+%22a%22%29+%7B+name+%7D+%7D"
		}, uri: "/a%2Fb?query=%7B+user%28username%3A+%22a%22%29+%7B+name+%7D+%7D"},
		{name: "payload format 1.0 is refused", change: func(e *events.APIGatewayV2HTTPRequest) { e.Version = "1.0" },
			wantErr: `payload format "1.0"`},
		{name: "an event with no HTTP method is refused", change: func(e *events.APIGatewayV2HTTPRequest) {
			*e = events.APIGatewayV2HTTPRequest{}
		}, wantErr: "not an HTTP request"},
		{name: "a body marked base64 that is not is refused", change: func(e *events.APIGatewayV2HTTPRequest) {
			e.Body, e.IsBase64Encoded = "{not base64}", true
		}, wantErr: "marked base64"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := base()
			c.change(&e)
			r, err := lambdahttp.Request(context.Background(), e)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want one saying %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(r.Body)
			if r.RequestURI != c.uri || string(body) != c.body {
				t.Errorf("URI %q, body %q; want %q, %q", r.RequestURI, body, c.uri, c.body)
			}
		})
	}
}

// TestHandler_Response: what a handler writes becomes the event's response.
func TestHandler_Response(t *testing.T) {
	cases := []struct {
		name    string
		handler http.HandlerFunc
		want    events.APIGatewayV2HTTPResponse
	}{
		{name: "status, headers and a text body", handler: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Add("Vary", "Origin")
			w.Header().Add("Vary", "Accept")
			w.WriteHeader(http.StatusTeapot)
			_, _ = io.WriteString(w, `{"ok":true}`)
		}, want: events.APIGatewayV2HTTPResponse{StatusCode: 418, Headers: map[string]string{"Content-Type": "application/json", "Vary": "Origin, Accept"}, Body: `{"ok":true}`}},
		{name: "cookies apart", handler: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Add("Set-Cookie", "a=1")
			w.Header().Add("Set-Cookie", "b=2")
			w.WriteHeader(http.StatusNoContent)
		}, want: events.APIGatewayV2HTTPResponse{StatusCode: 204, Headers: map[string]string{}, Cookies: []string{"a=1", "b=2"}}},
		{name: "a body that is not UTF-8 in base64, its type sniffed", handler: func(w http.ResponseWriter, _ *http.Request) {
			_, _ = w.Write([]byte("\x89PNG\r\n\x1a\n\xff"))
		}, want: events.APIGatewayV2HTTPResponse{StatusCode: 200, Headers: map[string]string{"Content-Type": "image/png"},
			Body: base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\n\xff")), IsBase64Encoded: true}},
		{name: "nothing written is 200", handler: func(http.ResponseWriter, *http.Request) {},
			want: events.APIGatewayV2HTTPResponse{StatusCode: 200, Headers: map[string]string{}}},
		{name: "a second WriteHeader is ignored, as net/http does", handler: func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusAccepted)
			w.WriteHeader(http.StatusInternalServerError)
			w.(http.Flusher).Flush()
		}, want: events.APIGatewayV2HTTPResponse{StatusCode: 202, Headers: map[string]string{}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := lambdahttp.Handler(c.handler)(context.Background(), readEvent(t, "apigw-v2-request-no-authorizer.json"))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("response\n%+v, want\n%+v", got, c.want)
			}
		})
	}
}

// TestGateway_RoundTrip: a request through the Gateway reaches the handler as it was sent,
// through the event's JSON and the SDK's handler, and the response comes back as written.
func TestGateway_RoundTrip(t *testing.T) {
	var saw *http.Request
	var sawBody []byte
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		saw, sawBody = r, must(io.ReadAll(r.Body))
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Add("Set-Cookie", "s=1")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte{0, 1, 0xfe})
	})
	srv := httptest.NewServer(lambdahttp.NewGateway(lambdahttp.Handler(h)))
	defer srv.Close()
	req, _ := http.NewRequest("PUT", srv.URL+"/graphql?a=1&a=2", strings.NewReader("\x00binary\xff"))
	req.Header.Set("Content-Type", "application/octet-stream")
	req.Header.Set("Accept", "application/graphql-response+json, application/json;q=0.9")
	req.Header.Add("Cookie", "c=1; d=2")
	req.Header.Set("X-Forwarded-For", "198.51.100.7")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 201 || string(body) != "\x00\x01\xfe" || resp.Header.Get("Set-Cookie") != "s=1" {
		t.Errorf("response %d %q %v", resp.StatusCode, body, resp.Header)
	}
	if saw.Method != "PUT" || saw.RequestURI != "/graphql?a=1&a=2" || string(sawBody) != "\x00binary\xff" ||
		saw.Header.Get("Accept") != "application/graphql-response+json, application/json;q=0.9" || saw.Header.Get("Cookie") != "c=1; d=2" ||
		saw.RemoteAddr != "127.0.0.1" || saw.Header.Get("X-Forwarded-For") != "198.51.100.7, 127.0.0.1" {
		t.Errorf("the handler saw %s %s %q Accept %q Cookie %q from %q (X-Forwarded-For %q)", saw.Method, saw.RequestURI, sawBody, saw.Header.Get("Accept"), saw.Header.Get("Cookie"), saw.RemoteAddr, saw.Header.Get("X-Forwarded-For"))
	}
}

// TestGateway_FailedInvocation: an event the function refuses is API Gateway's 500.
func TestGateway_FailedInvocation(t *testing.T) {
	srv := httptest.NewServer(lambdahttp.NewGateway(func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		return events.APIGatewayV2HTTPResponse{}, io.ErrUnexpectedEOF
	}))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 500 {
		t.Errorf("status %d, want 500", resp.StatusCode)
	}
}

// TestGateway_ConcurrentInvocations: requests in flight together each get their own response,
// as they would from Lambda running them in execution environments of their own.
func TestGateway_ConcurrentInvocations(t *testing.T) {
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write(must(io.ReadAll(r.Body)))
	})
	srv := httptest.NewServer(lambdahttp.NewGateway(lambdahttp.Handler(echo)))
	defer srv.Close()
	var wg sync.WaitGroup
	for client := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range 40 {
				// Bodies of different lengths, so that one overwritten by another shows.
				want := strings.Repeat(fmt.Sprintf("client %d request %d;", client, n), 1+(client*40+n)%97)
				resp, err := http.Post(srv.URL+"/echo", "text/plain", strings.NewReader(want))
				if err != nil {
					t.Error(err)
					return
				}
				got, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 || string(got) != want {
					t.Errorf("client %d request %d: status %d, body of %d bytes starting %.40q, want its own %d bytes", client, n, resp.StatusCode, len(got), got, len(want))
					return
				}
			}
		}()
	}
	wg.Wait()
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// FuzzRequest: any event is a request or an error, never a panic; a request's target is what
// the event's path and query string say, and its body the event's, decoded.
func FuzzRequest(f *testing.F) {
	f.Add("/graphql", "query=%7B+a+%7D", "prod", "accept", "application/json, text/plain", `{"query":"{ a }"}`, false)
	f.Add("/prod/graphql", "", "prod", "cookie", "a=1", "eyJhIjoxfQ==", true)
	f.Add("graphql", "a=%zz", "$default", "host", "example.com", "", false)
	f.Add("//x/../y", "#frag", "", "", "", "\xff", false)
	f.Fuzz(func(t *testing.T, rawPath, rawQuery, stage, headerName, headerValue, body string, isBase64 bool) {
		e := events.APIGatewayV2HTTPRequest{Version: "2.0", RawPath: rawPath, RawQueryString: rawQuery,
			Headers: map[string]string{headerName: headerValue}, Body: body, IsBase64Encoded: isBase64}
		e.RequestContext.HTTP.Method = "POST"
		e.RequestContext.Stage = stage
		r, err := lambdahttp.Request(context.Background(), e)
		if err != nil {
			return
		}
		want := []byte(body)
		if isBase64 {
			want, _ = base64.StdEncoding.DecodeString(body)
		}
		got, _ := io.ReadAll(r.Body)
		if string(got) != string(want) || r.ContentLength != int64(len(want)) {
			t.Errorf("body %q (length %d), want %q", got, r.ContentLength, want)
		}
		if !strings.HasPrefix(r.URL.Path, "/") && r.URL.Path != "" {
			t.Errorf("path %q does not start with /", r.URL.Path)
		}
		if r.Header.Get("Host") != "" {
			t.Error("Host left in the header")
		}
	})
}
