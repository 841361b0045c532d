// Package sigv4auth authenticates the requests of the engine's DynamoDB listener with AWS
// Signature Version 4, against access keys the operator configures, as DynamoDB does: a
// request is handed to the engine only when it is signed by a known key, with the request's
// own headers and body, within MaxSkew of now. A read-only key may only call operations that
// cannot write. Refusals carry DynamoDB's own exceptions (MissingAuthenticationTokenException,
// IncompleteSignatureException, InvalidSignatureException, UnrecognizedClientException,
// AccessDeniedException), so SDKs report them as they would DynamoDB's.
//
// The expected signature is computed by the AWS SDK's own signer (aws/signer/v4) over a
// request rebuilt from exactly the headers the client signed, so the canonical form is the
// SDK's, not a second implementation of it. The signer leaves out of its signature the
// headers it never signs (User-Agent, Expect, X-Amzn-Trace-Id, Transfer-Encoding), so a
// client that signed one of them is refused; no AWS SDK or CLI signs them. Host and
// X-Amz-Target must be signed.
//
// Not accepted: query-string (presigned) authentication, which no DynamoDB client uses for its
// POST requests; session tokens (X-Amz-Security-Token), as the keys are long-term ones;
// unsigned or streaming payloads.
package sigv4auth

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/quickphotos/quickphotos/ddb/internal/wire"
)

// DefaultMaxSkew is how far a request's X-Amz-Date may be from the server's clock: DynamoDB's
// 5 minutes.
const DefaultMaxSkew = 5 * time.Minute

// Options tune a Handler; the zero value takes the defaults.
type Options struct {
	// MaxSkew is how far a request's date may be from now (DefaultMaxSkew when 0).
	MaxSkew time.Duration
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// BodyMemory bounds the bytes of the bodies being checked at once
	// (ddb.DefaultRequestMemory when 0; raised to what one body of unknown length takes).
	BodyMemory int64
}

// Handler checks each request's signature and hands the signed ones to the handler it wraps.
type Handler struct {
	next   http.Handler
	keys   *Keys
	skew   time.Duration
	now    func() time.Time
	bodies *wire.BodyBudget
	signer *v4.Signer
}

// New returns a Handler that serves the requests signed by one of keys with next.
func New(next http.Handler, keys *Keys, opts Options) *Handler {
	h := &Handler{next: next, keys: keys, skew: opts.MaxSkew, now: opts.Now, bodies: wire.NewBodyBudget(opts.BodyMemory), signer: v4.NewSigner()}
	if h.skew <= 0 {
		h.skew = DefaultMaxSkew
	}
	if h.now == nil {
		h.now = time.Now
	}
	return h
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, release, err := h.authenticate(w, r)
	if err != nil {
		writeError(w, err)
		return
	}
	defer release()
	// The engine reads the body again, from memory, within its own limits.
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	r.TransferEncoding = nil
	h.next.ServeHTTP(w, r)
}

// authenticate checks r as DynamoDB does, in DynamoDB's order (so a request wrong in two ways
// gets DynamoDB's answer): the Authorization header's parameters and date, the clock skew,
// the scope, the key, the signature over the headers and body, then what the key may do. It
// returns the body, read once, with the function that gives its memory back.
func (h *Handler) authenticate(w http.ResponseWriter, r *http.Request) (body []byte, release func(), _ *authError) {
	if q := r.URL.Query(); q.Has("X-Amz-Signature") || q.Has("X-Amz-Credential") {
		return nil, nil, &authError{typeIncomplete, "Query-string authentication is not accepted by this endpoint: sign the request's Authorization header."}
	}
	header := r.Header.Get("Authorization")
	if !strings.HasPrefix(strings.TrimSpace(header), "AWS4-") {
		return nil, nil, &authError{typeMissingToken, "Request is missing Authentication Token"}
	}
	a, err := parseAuthorization(header, r.Header.Get("X-Amz-Date"), r.Header.Get("Date") != "")
	if err != nil {
		return nil, nil, err
	}
	signed, err := a.signingTime()
	if err != nil {
		return nil, nil, err
	}
	if err := checkSkew(signed, h.now().UTC(), h.skew); err != nil {
		return nil, nil, err
	}
	names, err := a.signedHeaderList(r.Header.Get("X-Amz-Target") != "")
	if err != nil {
		return nil, nil, err
	}
	cred, err := a.parseCredential()
	if err != nil {
		return nil, nil, err
	}
	key, ok := h.keys.lookup(cred.keyID)
	if !ok {
		return nil, nil, &authError{typeUnrecognizedClient, "The security token included in the request is invalid."}
	}
	// Only a request from a known key within the skew gets its body read.
	body, release, err = readBody(h.bodies, w, r)
	if err != nil {
		return nil, nil, err
	}
	if err := h.verify(r.Context(), r, a, names, cred, key, signed, body); err != nil {
		release()
		return nil, nil, err
	}
	if r.Header.Get("X-Amz-Security-Token") != "" {
		release()
		return nil, nil, &authError{typeUnrecognizedClient, "The security token included in the request is invalid"}
	}
	if target := r.Header.Get("X-Amz-Target"); key.ReadOnly && !readsOnly(target, body) {
		release()
		name, _ := operationName(target)
		return nil, nil, &authError{typeAccessDenied, "User: access key " + key.ID + " (read-only) is not authorized to perform: dynamodb:" + name}
	}
	return body, release, nil
}

// errSignatureMismatch is DynamoDB's answer to a signature that is not the expected one.
var errSignatureMismatch = &authError{typeInvalidSignature, "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details."}

// verify signs a copy of r holding only the headers the client signed, with key's secret at
// the client's time and scope and the hash of the body received, and compares the result
// with the client's signature in constant time: a body changed on the way changes the
// expected signature. An X-Amz-Content-Sha256 header, which the client signs in place of
// the body, must be the body's hash.
func (h *Handler) verify(ctx context.Context, r *http.Request, a *authorization, names []string, cred credential, key Key, signed time.Time, body []byte) *authError {
	u := *r.URL
	u.Scheme, u.Host = "http", r.Host
	req := &http.Request{Method: r.Method, URL: &u, Host: r.Host, Header: make(http.Header, len(names))}
	for _, name := range names {
		switch name {
		case "host", "x-amz-date":
			// The signer takes the host from req.Host and writes X-Amz-Date from the time.
		case "content-length":
			// The signer signs the length it is given, when not 0.
			req.ContentLength = int64(len(body))
		default:
			if values := r.Header.Values(name); len(values) > 0 {
				req.Header[http.CanonicalHeaderKey(name)] = values
			}
		}
	}
	sum := sha256.Sum256(body)
	payloadHash := hex.EncodeToString(sum[:])
	if claimed := r.Header.Get("X-Amz-Content-Sha256"); claimed != "" && claimed != payloadHash {
		return &authError{typeInvalidSignature, "The provided 'x-amz-content-sha256' header does not match what was computed."}
	}
	creds := aws.Credentials{AccessKeyID: key.ID, SecretAccessKey: key.Secret}
	if err := h.signer.SignHTTP(ctx, creds, req, payloadHash, cred.service, cred.region, signed); err != nil {
		return &authError{typeInvalidSignature, "The request could not be signed for comparison: " + err.Error()}
	}
	want, err := parseAuthorization(req.Header.Get("Authorization"), a.date, true)
	if err != nil {
		return errSignatureMismatch
	}
	// The signed header list is compared too: the signer signs host, and content-length when
	// given, whatever the client listed.
	sameHeaders := want.signedHeaders == a.signedHeaders
	sameSignature := hmac.Equal([]byte(want.signature), []byte(a.signature))
	if !sameHeaders || !sameSignature {
		return errSignatureMismatch
	}
	return nil
}
