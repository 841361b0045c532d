package blob

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The embedded store's POST form mirrors S3's browser upload: the same field names, a
// base64 policy document in S3's format, and S3-style XML errors, so that one client uploads to
// either store. The signature is an HMAC of the policy under the store's key rather than SigV4,
// which needs no credentials in the form.
const (
	fieldKey         = "key"
	fieldContentType = "content-type"
	fieldPolicy      = "policy"
	fieldAlgorithm   = "x-amz-algorithm"
	fieldSignature   = "x-amz-signature"
	postAlgorithm    = "QUICKPHOTOS-HMAC-SHA256"
	// maxFormFields bounds the bytes of the fields before the file, as S3 does (20 KB).
	maxFormFields = 20 << 10
)

// PresignPost implements Store.
func (s *FileStore) PresignPost(ctx context.Context, key, contentType string, maxBytes int64, expires time.Time, success PostSuccess) (PostForm, error) {
	if err := checkPost(key, contentType, maxBytes, expires, s.now(), success); err != nil {
		return PostForm{}, err
	}
	doc, err := json.Marshal(map[string]any{
		"expiration": expires.UTC().Format("2006-01-02T15:04:05.000Z"),
		"conditions": append([]any{
			map[string]string{fieldKey: key},
			map[string]string{"Content-Type": contentType},
			map[string]string{fieldAlgorithm: postAlgorithm},
			[]any{"content-length-range", 1, maxBytes},
		}, success.conditions()...),
	})
	if err != nil {
		return PostForm{}, err
	}
	policy := base64.StdEncoding.EncodeToString(doc)
	fields := map[string]string{
		fieldKey:       key,
		"Content-Type": contentType,
		fieldPolicy:    policy,
		fieldAlgorithm: postAlgorithm,
		fieldSignature: s.sign("POST", policy),
	}
	maps.Copy(fields, success.fields())
	return PostForm{URL: s.base() + FileStorePath, Fields: fields, Expires: expires, MaxBytes: maxBytes}, nil
}

// Handler serves FileStorePath: POST of an upload form, and GET or HEAD of a signed URL. Every
// refusal is an S3-style XML error with the matching status.
func (s *FileStore) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key, ok := strings.CutPrefix(r.URL.Path, FileStorePath)
		if !ok {
			writeError(w, http.StatusNotFound, "NoSuchKey", "not under "+FileStorePath)
			return
		}
		switch {
		case r.Method == http.MethodPost && key == "":
			s.servePost(w, r)
		case (r.Method == http.MethodGet || r.Method == http.MethodHead) && key != "":
			s.serveGet(w, r, key)
		default:
			w.Header().Set("Allow", "GET, HEAD, POST")
			writeError(w, http.StatusMethodNotAllowed, "MethodNotAllowed", r.Method+" is not allowed on "+r.URL.Path)
		}
	})
}

func (s *FileStore) serveGet(w http.ResponseWriter, r *http.Request, key string) {
	q := r.URL.Query()
	exp, sig := q.Get("expires"), q.Get("signature")
	if err := CheckKey(key); err != nil {
		writeError(w, http.StatusBadRequest, "InvalidArgument", err.Error())
		return
	}
	if len(q) != 2 || exp == "" || sig == "" || !s.verify(sig, "GET", key, exp) {
		writeError(w, http.StatusForbidden, "SignatureDoesNotMatch", "the URL's signature does not match")
		return
	}
	expUnix, err := strconv.ParseInt(exp, 10, 64)
	if err != nil || !s.now().Before(time.Unix(expUnix, 0)) {
		writeError(w, http.StatusForbidden, "AccessDenied", "the URL has expired")
		return
	}
	f, a, mod, err := s.openObject(key)
	if errors.Is(err, ErrNotFound) {
		writeError(w, http.StatusNotFound, "NoSuchKey", "no object "+key)
		return
	}
	if err != nil {
		s.internalError(w, r, err)
		return
	}
	defer f.Close()
	h := w.Header()
	h.Set("Content-Type", a.ContentType)
	h.Set("ETag", `"`+a.ETag+`"`)
	h.Set("X-Content-Type-Options", "nosniff")
	// Uploaded bytes are never a document of this origin, whatever their type claims.
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	if s.immutable(key) {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "private, no-cache")
	}
	http.ServeContent(w, r, "", mod, io.NewSectionReader(f, headerSize, a.Size))
}

// postPolicy is the decoded policy document of an upload form.
type postPolicy struct {
	Expiration time.Time         `json:"expiration"`
	Conditions []json.RawMessage `json:"conditions"`
}

// postRule is one condition: field (lower case, without "$") matches value exactly (eq) or by
// prefix (starts-with); or, for content-length-range, the file's size lies in [min, max].
type postRule struct {
	op, field, value string
	min, max         int64
}

func parseRule(raw json.RawMessage) (postRule, error) {
	var obj map[string]string
	if json.Unmarshal(raw, &obj) == nil {
		if len(obj) != 1 {
			return postRule{}, errors.New("a condition object must hold one field")
		}
		for k, v := range obj {
			return postRule{op: "eq", field: strings.ToLower(k), value: v}, nil
		}
	}
	var arr []json.RawMessage
	if err := json.Unmarshal(raw, &arr); err != nil || len(arr) != 3 {
		return postRule{}, errors.New("a condition must be an object or a three-element array")
	}
	var op string
	if err := json.Unmarshal(arr[0], &op); err != nil {
		return postRule{}, errors.New("a condition's operator must be a string")
	}
	switch op = strings.ToLower(op); op {
	case "content-length-range":
		var r postRule
		r.op = op
		if json.Unmarshal(arr[1], &r.min) != nil || json.Unmarshal(arr[2], &r.max) != nil || r.min < 0 || r.max < r.min {
			return postRule{}, errors.New("content-length-range needs two integers, 0 <= min <= max")
		}
		return r, nil
	case "eq", "starts-with":
		var field, value string
		if json.Unmarshal(arr[1], &field) != nil || json.Unmarshal(arr[2], &value) != nil || !strings.HasPrefix(field, "$") {
			return postRule{}, fmt.Errorf("%s needs a $field and a string", op)
		}
		return postRule{op: op, field: strings.ToLower(field[1:]), value: value}, nil
	}
	return postRule{}, fmt.Errorf("unknown condition %q", op)
}

// servePost accepts an upload form: it reads the fields up to the file, checks the signature,
// the expiry and every policy condition, refuses any field no condition covers, then streams
// the file to a temporary file, refusing it as soon as it outgrows the policy's range, and
// renames it into place. Nothing is stored unless every check passes.
func (s *FileStore) servePost(w http.ResponseWriter, r *http.Request) {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		writeError(w, http.StatusBadRequest, "InvalidArgument", "the request must be multipart/form-data with a boundary")
		return
	}
	body := &limitedBody{r: r.Body, left: maxFormFields + 16<<10}
	mr := multipart.NewReader(body, params["boundary"])

	fields := map[string]string{}
	var file *multipart.Part
	for file == nil {
		part, err := mr.NextPart()
		if err == io.EOF {
			writeError(w, http.StatusBadRequest, "InvalidArgument", "the form has no file field")
			return
		}
		if err != nil {
			writeError(w, http.StatusBadRequest, "MalformedPOSTRequest", "the multipart body cannot be read: "+err.Error())
			return
		}
		name := strings.ToLower(part.FormName())
		if name == "file" {
			file = part
			break
		}
		if name == "" {
			writeError(w, http.StatusBadRequest, "MalformedPOSTRequest", "a form part has no name")
			return
		}
		if _, dup := fields[name]; dup {
			writeError(w, http.StatusBadRequest, "InvalidArgument", "the form repeats the field "+name)
			return
		}
		v, err := io.ReadAll(io.LimitReader(part, maxFormFields+1))
		if err != nil || len(v) > maxFormFields {
			writeError(w, http.StatusBadRequest, "MaxPostPreDataLengthExceeded", "the form fields before the file are too large")
			return
		}
		fields[name] = string(v)
	}

	rng, expires, code, msg := s.checkForm(fields)
	if code != "" {
		status := http.StatusBadRequest
		if code == "AccessDenied" || code == "SignatureDoesNotMatch" {
			status = http.StatusForbidden
		}
		writeError(w, status, code, msg)
		return
	}
	key, contentType := fields[fieldKey], fields[fieldContentType]

	// The file, its closing boundary, and slack; the file's own limit is exact below.
	body.left = rng.max + 64<<10
	// A verified upload may take longer than the server's timeouts allow a request, as long as
	// its bytes keep coming and its policy has not expired more than a stall ago: a trickle of
	// bytes cannot hold the connection past that. The response must still be writable once the
	// file is in.
	rc := http.NewResponseController(w)
	body.r = &stallDeadline{r: body.r, rc: rc, stall: s.stall, until: expires.Add(s.stall)}
	ow, err := s.newObjectWriter()
	if err != nil {
		s.internalError(w, r, err)
		return
	}
	n, err := io.Copy(ow, io.LimitReader(file, rng.max+1))
	// Errors are ignored: a connection without deadlines (HTTP/2 before Go's support, a
	// recorder in tests) keeps the server's own.
	_ = rc.SetWriteDeadline(time.Now().Add(s.stall))
	switch {
	case errors.Is(err, errBodyLimit) || n > rng.max:
		ow.abort()
		writeError(w, http.StatusBadRequest, "EntityTooLarge", fmt.Sprintf("the file is larger than the %d bytes allowed", rng.max))
		return
	case err != nil:
		ow.abort()
		writeError(w, http.StatusBadRequest, "IncompleteBody", "the file part cannot be read: "+err.Error())
		return
	case n < rng.min:
		ow.abort()
		writeError(w, http.StatusBadRequest, "EntityTooSmall", fmt.Sprintf("the file is smaller than the %d bytes required", rng.min))
		return
	}
	a, err := ow.commit(key, contentType)
	if err != nil {
		s.internalError(w, r, err)
		return
	}
	s.answerPost(w, fields, key, `"`+a.ETag+`"`)
}

// answerPost answers a POST whose file is stored at key as the form's success fields ask, as S3
// does (see PostSuccess; the policy covered them): a redirect to a success_action_redirect that
// is an absolute http or https URL, else the success_action_status 200 or 201, else 204. S3's
// answers name the object's bucket; this store has none, so it names "".
func (s *FileStore) answerPost(w http.ResponseWriter, fields map[string]string, key, etag string) {
	if raw, ok := fields[fieldSuccessRedirect]; ok && isRedirectURL(raw) {
		u, _ := url.Parse(raw)
		q := u.Query()
		q.Set("bucket", "")
		q.Set("key", key)
		q.Set("etag", etag)
		u.RawQuery = q.Encode()
		w.Header().Set("Location", u.String())
		w.WriteHeader(http.StatusSeeOther)
		return
	}
	location := s.base() + FileStorePath + key
	w.Header().Set("ETag", etag)
	w.Header().Set("Location", location)
	switch fields[fieldSuccessStatus] {
	case "200":
		w.WriteHeader(http.StatusOK)
	case "201":
		body, _ := xml.Marshal(PostResponse{Location: location, Key: key, ETag: etag})
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusCreated)
		w.Write([]byte(xml.Header))
		w.Write(body)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

// PostResponse is the XML body of a 201 answer to an upload form, S3's PostResponse: where the
// object is (its URL, not signed), its bucket ("" on the embedded store), key and quoted ETag.
type PostResponse struct {
	XMLName  xml.Name `xml:"PostResponse"`
	Location string
	Bucket   string
	Key      string
	ETag     string
}

// checkForm verifies the form's fields against its signed policy; it returns the length range
// or an S3 error code and message.
func (s *FileStore) checkForm(fields map[string]string) (rng postRule, expires time.Time, code, msg string) {
	policy, sig := fields[fieldPolicy], fields[fieldSignature]
	if policy == "" || sig == "" || fields[fieldAlgorithm] != postAlgorithm {
		return rng, expires, "InvalidArgument", "the form lacks its policy, x-amz-signature or x-amz-algorithm"
	}
	if !s.verify(sig, "POST", policy) {
		return rng, expires, "SignatureDoesNotMatch", "the policy's signature does not match"
	}
	doc, err := base64.StdEncoding.DecodeString(policy)
	var p postPolicy
	if err == nil {
		err = json.Unmarshal(doc, &p)
	}
	if err != nil {
		return rng, expires, "InvalidPolicyDocument", "the policy cannot be decoded"
	}
	expires = p.Expiration
	if !s.now().Before(p.Expiration) {
		return rng, expires, "AccessDenied", "Invalid according to Policy: Policy expired."
	}
	covered := map[string]bool{fieldPolicy: true, fieldSignature: true}
	haveRange := false
	for _, raw := range p.Conditions {
		c, err := parseRule(raw)
		if err != nil {
			return rng, expires, "InvalidPolicyDocument", err.Error()
		}
		if c.op == "content-length-range" {
			rng, haveRange = c, true
			continue
		}
		covered[c.field] = true
		v, ok := fields[c.field]
		if !ok || (c.op == "eq" && v != c.value) || (c.op == "starts-with" && !strings.HasPrefix(v, c.value)) {
			return rng, expires, "AccessDenied", fmt.Sprintf("Invalid according to Policy: Policy Condition failed: [%q, \"$%s\", %q]", c.op, c.field, c.value)
		}
	}
	if !haveRange {
		return rng, expires, "InvalidPolicyDocument", "the policy has no content-length-range"
	}
	for name := range fields {
		if !covered[name] {
			return rng, expires, "AccessDenied", "Invalid according to Policy: Extra input fields: " + name
		}
	}
	if err := CheckKey(fields[fieldKey]); err != nil {
		return rng, expires, "InvalidArgument", err.Error()
	}
	if err := checkContentType(fields[fieldContentType]); err != nil {
		return rng, expires, "InvalidArgument", err.Error()
	}
	return rng, expires, "", ""
}

var errBodyLimit = errors.New("request body exceeds its limit")

// limitedBody fails a read past left bytes; servePost raises left once it knows the policy's
// size limit, so no request reads more than the fields' allowance plus the file's.
type limitedBody struct {
	r    io.Reader
	left int64
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, errBodyLimit
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

// stallDeadline pushes the connection's read deadline about stall ahead as bytes arrive, so
// a read fails only after about stall without any, and never past until. It pushes at most
// every stall/8, not on every read, which keeps the timer off the hot path.
type stallDeadline struct {
	r     io.Reader
	rc    *http.ResponseController
	stall time.Duration
	until time.Time
	next  time.Time
}

func (d *stallDeadline) Read(p []byte) (int, error) {
	if now := time.Now(); !now.Before(d.next) {
		deadline := now.Add(d.stall)
		if deadline.After(d.until) {
			deadline = d.until
		}
		_ = d.rc.SetReadDeadline(deadline)
		d.next = now.Add(d.stall / 8)
	}
	return d.r.Read(p)
}

// internalError logs err, which the client is not told, and answers 500 InternalError.
func (s *FileStore) internalError(w http.ResponseWriter, r *http.Request, err error) {
	s.log.ErrorContext(r.Context(), "media store", "method", r.Method, "path", r.URL.Path, "err", err)
	writeError(w, http.StatusInternalServerError, "InternalError", "the store failed; see the server's log")
}

// writeError writes an S3-style XML error.
func writeError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/xml")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	body, _ := xml.Marshal(struct {
		XMLName xml.Name `xml:"Error"`
		Code    string
		Message string
	}{Code: code, Message: msg})
	w.Write([]byte(xml.Header))
	w.Write(body)
}
