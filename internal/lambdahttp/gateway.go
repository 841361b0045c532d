package lambdahttp

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
)

// gatewayTemplate is a real API Gateway HTTP API event (aws-lambda-go's
// events/testdata/apigw-v2-request-no-authorizer.json): Gateway fills in the request and keeps
// the rest, so the function sees every field API Gateway sends.
//
//go:embed testdata/apigw-v2-request-no-authorizer.json
var gatewayTemplate []byte

// Gateway plays API Gateway's part for tests, and for nothing else: it is an http.Handler that
// turns each request into the payload format 2.0 event API Gateway would send, invokes the
// function with it as the Lambda runtime does (the event as JSON, decoded by aws-lambda-go's
// own handler), and writes the function's response back. With it, tests written against an
// HTTP server run unchanged against the function. Requests the function cannot answer in
// buffered mode (WebSockets) get what API Gateway gives them: no upgrade.
type Gateway struct {
	// environments holds idle lambda.Handlers, one per execution environment: Lambda runs one
	// invocation at a time in each, and aws-lambda-go relies on that, as Invoke returns bytes
	// of a buffer its handler has already put back in a pool of its own for the next
	// invocation to write into. Concurrent requests each take an environment of their own.
	environments sync.Pool
	// Timeout is the function's timeout, the deadline of each invocation's context.
	Timeout time.Duration
	ids     atomic.Int64
}

// NewGateway returns a Gateway invoking handler, a function lambda.Start would take (such as
// Handler's).
func NewGateway(handler any) *Gateway {
	g := &Gateway{Timeout: 30 * time.Second}
	g.environments.New = func() any { return lambda.NewHandler(handler) }
	return g
}

// invoke runs one invocation in an idle execution environment and returns a copy of its
// response, taken before the environment can run another.
func (g *Gateway) invoke(ctx context.Context, payload []byte) ([]byte, error) {
	function := g.environments.Get().(lambda.Handler)
	defer g.environments.Put(function)
	out, err := function.Invoke(ctx, payload)
	return bytes.Clone(out), err
}

func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	event, err := g.Event(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	payload, err := json.Marshal(event)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), g.Timeout)
	defer cancel()
	out, err := g.invoke(ctx, payload)
	if err != nil {
		// API Gateway answers a failed invocation with 500 and this body.
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `{"message":"Internal Server Error"}`)
		return
	}
	var resp events.APIGatewayV2HTTPResponse
	if err := json.Unmarshal(out, &resp); err != nil {
		http.Error(w, fmt.Sprintf("the function's response is not a payload 2.0 response: %v", err), http.StatusBadGateway)
		return
	}
	body := []byte(resp.Body)
	if resp.IsBase64Encoded {
		if body, err = base64.StdEncoding.DecodeString(resp.Body); err != nil {
			http.Error(w, "the function's body is marked base64 but is not", http.StatusBadGateway)
			return
		}
	}
	for name, value := range resp.Headers {
		w.Header().Set(name, value)
	}
	for _, c := range resp.Cookies {
		w.Header().Add("Set-Cookie", c)
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(body)
}

// Event is the event API Gateway sends for r: header names in lower case, a repeated header's
// values joined with commas, cookies apart, and a body in base64 unless its type is text.
func (g *Gateway) Event(r *http.Request) (events.APIGatewayV2HTTPRequest, error) {
	var event events.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(gatewayTemplate, &event); err != nil {
		return event, err
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return event, err
	}
	if isText(r.Header.Get("Content-Type")) && utf8.Valid(body) {
		event.Body, event.IsBase64Encoded = string(body), false
	} else if len(body) > 0 {
		event.Body, event.IsBase64Encoded = base64.StdEncoding.EncodeToString(body), true
	}
	event.RawPath = r.URL.EscapedPath()
	event.RawQueryString = r.URL.RawQuery
	event.QueryStringParameters = nil
	for name, values := range r.URL.Query() {
		if event.QueryStringParameters == nil {
			event.QueryStringParameters = map[string]string{}
		}
		event.QueryStringParameters[name] = strings.Join(values, ",")
	}
	event.Headers = map[string]string{"host": event.RequestContext.DomainName}
	for name, values := range r.Header {
		if strings.EqualFold(name, "Cookie") {
			for _, v := range values {
				for _, c := range strings.Split(v, ";") {
					event.Cookies = append(event.Cookies, strings.TrimSpace(c))
				}
			}
			continue
		}
		event.Headers[strings.ToLower(name)] = strings.Join(values, ",")
	}
	if len(body) > 0 || r.Method == http.MethodPost {
		event.Headers["content-length"] = fmt.Sprint(len(body))
	}
	sourceIP := r.RemoteAddr
	if host, _, err := net.SplitHostPort(sourceIP); err == nil {
		sourceIP = host
	}
	// API Gateway appends the address it was reached from to what proxies before it wrote.
	if earlier := event.Headers["x-forwarded-for"]; earlier != "" {
		event.Headers["x-forwarded-for"] = earlier + ", " + sourceIP
	} else {
		event.Headers["x-forwarded-for"] = sourceIP
	}
	event.RequestContext.HTTP.Method = r.Method
	event.RequestContext.HTTP.Path = r.URL.Path
	event.RequestContext.HTTP.SourceIP = sourceIP
	event.RequestContext.HTTP.UserAgent = r.UserAgent()
	now := time.Now()
	event.RequestContext.RequestID = fmt.Sprintf("req-%d", g.ids.Add(1))
	event.RequestContext.Time = now.UTC().Format("02/Jan/2006:15:04:05 -0700")
	event.RequestContext.TimeEpoch = now.UnixMilli()
	return event, nil
}

// isText says whether API Gateway passes a body of this type as text rather than base64.
func isText(contentType string) bool {
	mediaType, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	return strings.HasPrefix(mediaType, "text/") || mediaType == "application/json" ||
		strings.HasSuffix(mediaType, "+json") || mediaType == "application/graphql" ||
		mediaType == "application/x-www-form-urlencoded" || mediaType == "application/xml" || mediaType == "application/javascript"
}
