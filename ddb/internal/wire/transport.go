package wire

import (
	"bytes"
	"io"
	"net/http"
)

// NewTransport returns an http.RoundTripper that serves every request with
// e.ServeHTTP in the calling goroutine, without a socket. Use it (or
// Engine.HTTPClient) as the HTTP client of an aws-sdk-go-v2 DynamoDB client
// to use the engine in-process:
//
//	client := dynamodb.New(dynamodb.Options{
//		Region:       "local",
//		BaseEndpoint: aws.String("http://ddb.local"),
//		Credentials:  credentials.NewStaticCredentialsProvider("x", "x", ""),
//		HTTPClient:   engine.HTTPClient(),
//	})
//
// The endpoint host is ignored; any credentials are accepted.
func NewTransport(h http.Handler) http.RoundTripper { return transport{h} }

// transport is the in-memory RoundTripper.
type transport struct{ h http.Handler }

// RoundTrip implements http.RoundTripper.
func (t transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	if req.Body == nil {
		req.Body = http.NoBody
	}
	t.h.ServeHTTP(rec, req)
	if req.Body != nil {
		req.Body.Close()
	}
	// A network client fails with the context's error when it ends before
	// the answer arrives; so does this one, so that callers see the
	// cancellation, not the RequestCanceled answer nobody was waiting for.
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	return &http.Response{
		Status:        http.StatusText(rec.status),
		StatusCode:    rec.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        rec.header,
		Body:          io.NopCloser(bytes.NewReader(rec.body.Bytes())),
		ContentLength: int64(rec.body.Len()),
		Request:       req,
	}, nil
}

// recorder is a minimal http.ResponseWriter buffering the response.
type recorder struct {
	header http.Header
	status int
	wrote  bool
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
}

func (r *recorder) Write(p []byte) (int, error) {
	r.wrote = true
	return r.body.Write(p)
}
