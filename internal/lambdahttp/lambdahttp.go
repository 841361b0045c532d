// Package lambdahttp serves an http.Handler as an AWS Lambda function behind an API Gateway
// HTTP API or a Lambda Function URL, both of which invoke it with payload format 2.0
// (events.APIGatewayV2HTTPRequest; a Function URL's events.LambdaFunctionURLRequest has the
// same JSON). Each event becomes one *http.Request, the handler writes into a buffer, and the
// buffer becomes the event's response: Lambda's buffered invoke mode, in which nothing reaches
// the client before the handler returns.
//
// It converts with the SDK's own event types rather than aws-lambda-go-api-proxy's httpadapter:
// that adapter splits every header but a fixed few at its commas, so a handler reading
// `Accept: application/graphql-response+json, application/json` with Header.Get sees only the
// first media type, where net/http's server would show the whole line; and its response writer
// is not an http.Flusher. The conversion here hands the handler the request net/http would.
package lambdahttp

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-lambda-go/events"
)

// PayloadVersion is the only payload format the handler takes.
const PayloadVersion = "2.0"

// Handler returns the Lambda handler serving h: it takes API Gateway HTTP API and Function URL
// events (payload format 2.0) and answers each with what h wrote. An event of another kind is
// an error of the invocation, which names what arrived, not a response: it is the function's
// configuration that is wrong, not the client's request.
func Handler(h http.Handler) func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	return func(ctx context.Context, event events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		r, err := Request(ctx, event)
		if err != nil {
			return events.APIGatewayV2HTTPResponse{}, err
		}
		w := newResponseWriter()
		h.ServeHTTP(w, r)
		return w.response(), nil
	}
}

// Request is the HTTP request an event stands for, with ctx (the invocation's, which ends at
// the function's timeout) as its context.
func Request(ctx context.Context, event events.APIGatewayV2HTTPRequest) (*http.Request, error) {
	switch {
	case event.Version != PayloadVersion && event.Version != "":
		return nil, fmt.Errorf("lambdahttp: an event of payload format %q; this function takes format %s (set the integration's PayloadFormatVersion to 2.0)", event.Version, PayloadVersion)
	case event.RequestContext.HTTP.Method == "":
		return nil, fmt.Errorf("lambdahttp: the event is not an HTTP request of an API Gateway HTTP API or a Function URL (payload format %s): it has no requestContext.http.method", PayloadVersion)
	}
	body := []byte(event.Body)
	if event.IsBase64Encoded {
		var err error
		if body, err = base64.StdEncoding.DecodeString(event.Body); err != nil {
			return nil, fmt.Errorf("lambdahttp: the event's body is marked base64 but is not: %w", err)
		}
	}
	target := requestPath(event)
	if event.RawQueryString != "" {
		target += "?" + event.RawQueryString
	}
	u, err := url.ParseRequestURI(target)
	if err != nil {
		return nil, fmt.Errorf("lambdahttp: the event's path %q: %w", target, err)
	}
	r, err := http.NewRequestWithContext(ctx, event.RequestContext.HTTP.Method, target, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("lambdahttp: %w", err)
	}
	r.URL = u
	r.RequestURI = u.RequestURI()
	r.ContentLength = int64(len(body))
	if p := event.RequestContext.HTTP.Protocol; p != "" {
		if major, minor, ok := http.ParseHTTPVersion(p); ok {
			r.Proto, r.ProtoMajor, r.ProtoMinor = p, major, minor
		}
	}
	// API Gateway gives each header once, repeated ones joined with commas, which is how
	// net/http shows a header sent as one comma-separated line: one value, whole.
	for name, value := range event.Headers {
		r.Header.Set(name, value)
	}
	// Payload format 2.0 takes the cookies out of the headers.
	if len(event.Cookies) > 0 {
		r.Header.Set("Cookie", strings.Join(event.Cookies, "; "))
	}
	r.Host = r.Header.Get("Host")
	if r.Host == "" {
		r.Host = event.RequestContext.DomainName
	}
	r.Header.Del("Host") // net/http keeps it in r.Host only
	r.RemoteAddr = event.RequestContext.HTTP.SourceIP
	return r, nil
}

// requestPath is the path the client asked for. A named stage of an HTTP API comes first in
// rawPath (/prod/graphql); the handler's routes are the API's own, so the stage is taken off.
func requestPath(event events.APIGatewayV2HTTPRequest) string {
	p := event.RawPath
	if p == "" {
		p = event.RequestContext.HTTP.Path
	}
	if stage := event.RequestContext.Stage; stage != "" && stage != "$default" {
		if rest, ok := strings.CutPrefix(p, "/"+stage); ok && (rest == "" || rest[0] == '/') {
			p = rest
		}
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return p
}

// responseWriter buffers a response for the event's answer. It is an http.Flusher whose Flush
// does nothing: in buffered mode the client gets the response whole, when the handler returns.
type responseWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newResponseWriter() *responseWriter { return &responseWriter{header: http.Header{}} }

func (w *responseWriter) Header() http.Header { return w.header }

func (w *responseWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *responseWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		// As net/http's server does: an unset Content-Type is sniffed from the first bytes.
		if w.header.Get("Content-Type") == "" && w.header.Get("Transfer-Encoding") == "" {
			w.header.Set("Content-Type", http.DetectContentType(p))
		}
		w.WriteHeader(http.StatusOK)
	}
	return w.body.Write(p)
}

func (w *responseWriter) Flush() {}

// response is the event's answer: headers joined as API Gateway wants them, Set-Cookie in
// cookies, and a body that is not UTF-8 in base64.
func (w *responseWriter) response() events.APIGatewayV2HTTPResponse {
	status := w.status
	if status == 0 {
		status = http.StatusOK // a handler that wrote nothing: net/http answers 200 too
	}
	resp := events.APIGatewayV2HTTPResponse{StatusCode: status, Headers: map[string]string{}}
	for name, values := range w.header {
		if name == "Set-Cookie" {
			resp.Cookies = append(resp.Cookies, values...)
			continue
		}
		resp.Headers[name] = strings.Join(values, ", ")
	}
	if b := w.body.Bytes(); utf8.Valid(b) {
		resp.Body = string(b)
	} else {
		resp.Body, resp.IsBase64Encoded = base64.StdEncoding.EncodeToString(b), true
	}
	return resp
}
