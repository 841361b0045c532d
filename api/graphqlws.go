package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/coder/websocket"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/quickphotos/quickphotos/auth"
	"github.com/quickphotos/quickphotos/domain"
)

// graphqlWS serves GraphQL over WebSocket as graphql-ws's PROTOCOL.md defines it (the
// graphql-transport-ws subprotocol), close codes included, because clients act on them: the
// stock graphql-ws client retries a connection closed with 1000 or 1002 at once and for ever,
// gives up, telling the application, on 4400, 4401, 4406, 4409 and 4429, and retries 4403 and
// 4408 (retryAttempts times, 5 by default, backing off), calling connectionParams again for
// each attempt: so 4403 is also how an expired token ends a connection (tokenexpiry.go).
//
// Every subscribe message is an operation the connection runs beside the others, each in a
// goroutine of its own; the connection's reading admits each one first, as HTTP admits a
// request: its caller's rate limit, before the document is read (ratelimit.go), during whose
// refusal hold the reading waits, and a bound on the operations in flight at once.
//
// It is written here rather than configured from gqlgen's transport.Websocket, which closes
// with 1000 "terminated" or 1002 where the protocol has its own codes (a refused
// connection_init, a subscribe before the acknowledgement, a second connection_init, the init
// timeout, a message it cannot read), runs a second subscribe whose id is in use beside the
// first, and ignores a subscribe without an id; none of that is within reach of its hooks
// (InitFunc, ErrorFunc, CloseFunc). Execution is gqlgen's own executor, as for every transport.
type graphqlWS struct {
	accept      websocket.AcceptOptions
	verifier    auth.Verifier
	initTimeout time.Duration
	readLimit   int64
	refusals    *refusalLog
	// limit admits each operation before its document is read.
	limit rateLimit
	// maxInFlight bounds the operations a connection has in flight: subscribe messages being
	// checked, parsed and started, and queries and mutations running. A subscription that has
	// started is held by the hub, which bounds those to as many (live.Config.PerConnection).
	maxInFlight int
}

// wsSubprotocol is the only subprotocol graphqlWS speaks.
const wsSubprotocol = "graphql-transport-ws"

// Close codes of graphql-transport-ws.
const (
	closeBadRequest      websocket.StatusCode = 4400 // a message the protocol does not allow
	closeUnauthorized    websocket.StatusCode = 4401 // subscribe before connection_ack
	closeForbidden       websocket.StatusCode = 4403 // connection_init refused (a bad token), or the token expired
	closeBadSubprotocol  websocket.StatusCode = 4406 // not graphql-transport-ws
	closeInitTimeout     websocket.StatusCode = 4408 // no connection_init within liveInitTimeout
	closeSubscriberTaken websocket.StatusCode = 4409 // subscribe with the id of a running operation
	closeTooManyInits    websocket.StatusCode = 4429 // a second connection_init
	closeInternal        websocket.StatusCode = 4500 // the server failed
)

// wsWriteTimeout bounds one message's write: a peer that stops reading is dropped.
const wsWriteTimeout = 10 * time.Second

var _ graphql.Transport = graphqlWS{}

func (graphqlWS) Supports(r *http.Request) bool { return isWebSocket(r) }

func isWebSocket(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

func (t graphqlWS) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	opts := t.accept
	opts.Subprotocols = []string{wsSubprotocol}
	conn, err := websocket.Accept(w, r, &opts)
	if err != nil {
		return // Accept has answered the request, and says why in its status
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	c := &wsConn{t: t, conn: conn, exec: exec, header: r.Header, ctx: ctx, identity: identityOf(ctx), ops: map[string]*wsOperation{}}
	if conn.Subprotocol() != wsSubprotocol {
		c.refuse(ctx, closeBadSubprotocol, "Subprotocol not acceptable")
		return
	}
	conn.SetReadLimit(t.readLimit)
	c.serve(ctx)
	c.mu.Lock()
	if c.expiry != nil {
		c.expiry.Stop()
	}
	c.mu.Unlock()
	cancel()
	c.running.Wait()
}

// wsConn is one graphql-transport-ws connection.
type wsConn struct {
	t      graphqlWS
	conn   *websocket.Conn
	exec   graphql.GraphExecutor
	header http.Header
	// running counts the goroutines of the operations and the keep-alive, which Do waits for.
	running sync.WaitGroup

	// closing closes the connection once: the first refusal is the one the client gets.
	closing sync.Once

	mu sync.Mutex
	// ctx is the connection's: its caller once connection_init named one.
	ctx context.Context
	// identity is the caller's token's, whose expiry ends the connection (zero without a
	// token); expiry is the timer that ends it, from the acknowledgement on.
	identity auth.Identity
	expiry   *time.Timer
	initSeen bool
	acked    bool
	// ops are the running operations by id. An operation writes only while it is still the
	// one under its id, so that none writes after the client completed it, nor into an
	// operation that reuses its id.
	ops map[string]*wsOperation
	// inFlight counts the operations that are not settled (see graphqlWS.maxInFlight).
	inFlight int
}

type wsOperation struct {
	cancel context.CancelFunc
	// settled: the operation no longer counts in wsConn.inFlight. It ended, or it is a
	// subscription that started, which the hub counts instead.
	settled bool
}

// wsMessage is a message of the protocol. Type and ID are pointers to tell a missing member
// from an empty one.
type wsMessage struct {
	Type    *string         `json:"type"`
	ID      *string         `json:"id,omitempty"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// serve reads the client's messages until the connection closes.
func (c *wsConn) serve(ctx context.Context) {
	timer := time.AfterFunc(c.t.initTimeout, func() {
		c.mu.Lock()
		seen := c.initSeen
		c.mu.Unlock()
		if !seen {
			c.refuse(ctx, closeInitTimeout, "Connection initialisation timeout")
		}
	})
	defer timer.Stop()
	for {
		_, data, err := c.conn.Read(ctx)
		if err != nil {
			return // the peer closed, or went away, or refuse closed
		}
		if code, reason := c.handle(ctx, data); code != 0 {
			c.refuse(ctx, code, reason)
			return
		}
	}
}

// handle acts on one message; a non-zero code closes the connection with it.
func (c *wsConn) handle(ctx context.Context, data []byte) (websocket.StatusCode, string) {
	var m wsMessage
	if err := json.Unmarshal(data, &m); err != nil || m.Type == nil {
		return closeBadRequest, "Invalid message received: not a JSON object with a string type (and a string id)"
	}
	switch typ := *m.Type; typ {
	case "connection_init":
		if !isObjectOrAbsent(m.Payload) {
			return closeBadRequest, "Invalid message received: the connection_init payload must be an object"
		}
		return c.init(ctx, m.Payload)
	case "ping":
		if !isObjectOrAbsent(m.Payload) {
			return closeBadRequest, "Invalid message received: the ping payload must be an object"
		}
		c.write(ctx, "pong", "", nil)
	case "pong":
		if !isObjectOrAbsent(m.Payload) {
			return closeBadRequest, "Invalid message received: the pong payload must be an object"
		}
	case "subscribe":
		if m.ID == nil || *m.ID == "" {
			return closeBadRequest, "Invalid message received: subscribe needs an id"
		}
		params, documentID, err := subscribeParams(m.Payload)
		if err != nil {
			return closeBadRequest, "Invalid message received: " + err.Error()
		}
		return c.subscribe(ctx, *m.ID, params, documentID, m.Payload)
	case "complete":
		if m.ID == nil || *m.ID == "" {
			return closeBadRequest, "Invalid message received: complete needs an id"
		}
		c.mu.Lock()
		if op := c.ops[*m.ID]; op != nil {
			delete(c.ops, *m.ID)
			op.cancel()
		}
		c.mu.Unlock()
	default:
		return closeBadRequest, fmt.Sprintf("Invalid message received: unexpected type %.40q", typ)
	}
	return 0, ""
}

// init authenticates the connection with the Authorization entry of connection_init's payload
// (as Apollo Client and graphql-ws send connection parameters), acknowledges it, and starts its
// keep-alive pings and the timer of its token's expiry. Without an entry, the caller identify
// found for the upgrade request stays, and so does its token's expiry.
func (c *wsConn) init(ctx context.Context, payload json.RawMessage) (websocket.StatusCode, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.initSeen {
		return closeTooManyInits, "Too many initialisation requests"
	}
	c.initSeen = true
	var params map[string]any
	_ = json.Unmarshal(payload, &params) // checked to be an object or absent
	if header := authorizationOf(params); header != "" && c.t.verifier != nil {
		r, _ := http.NewRequestWithContext(ctx, http.MethodGet, "/", nil)
		r.Header.Set("Authorization", header)
		caller, id, err := callerOf(r, c.t.verifier)
		if err != nil {
			if domain.ErrorCode(err) == domain.Internal {
				c.t.refusals.logger.ErrorContext(ctx, "internal error authenticating a WebSocket", "err", err)
				return closeInternal, "Internal error authenticating the connection"
			}
			return closeForbidden, "Forbidden: " + domain.ErrorMessage(err)
		}
		c.ctx = withIdentity(domain.WithCaller(c.ctx, caller), id)
		c.identity = id
	}
	c.acked = true
	if !c.identity.Expires.IsZero() {
		c.expiry = time.AfterFunc(c.identity.Left(), func() { c.refuse(ctx, closeForbidden, tokenExpiredReason) })
	}
	c.writeLocked(ctx, "connection_ack", "", nil)
	c.running.Add(1)
	go func() {
		defer c.running.Done()
		c.keepAlive(ctx)
	}()
	return 0, ""
}

// authorizationOf is connection_init's Authorization entry, spelt as either client spells it.
func authorizationOf(params map[string]any) string {
	for _, key := range []string{"Authorization", "authorization"} {
		if v, ok := params[key].(string); ok && v != "" {
			return v
		}
	}
	return ""
}

// keepAlive sends a ping every liveKeepAlive, so that proxies keep the connection open and a
// dead peer is found when a write fails.
func (c *wsConn) keepAlive(ctx context.Context) {
	tick := time.NewTicker(liveKeepAlive)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			c.write(ctx, "ping", "", nil)
		}
	}
}

// subscribeParams reads a subscribe payload as graphql-ws validates it: an object with a
// string query, and variables, operationName and extensions of their types when present. A
// trusted document's documentId (trusteddocs.go), a string, may stand in for the query, and so
// may extensions (a persisted query's hash); the documentId is returned as sent.
func subscribeParams(payload json.RawMessage) (*graphql.RawParams, string, error) {
	if !isObject(payload) {
		return nil, "", errors.New("the subscribe payload must be an object")
	}
	var p struct {
		Query         *string         `json:"query"`
		DocumentID    *string         `json:"documentId"`
		OperationName *string         `json:"operationName"`
		Variables     json.RawMessage `json:"variables"`
		Extensions    json.RawMessage `json:"extensions"`
	}
	if err := json.Unmarshal(payload, &p); err != nil {
		return nil, "", errors.New("the subscribe payload's members are not of their types")
	}
	if p.Query == nil && p.DocumentID == nil && !isObject(p.Extensions) {
		return nil, "", errors.New("the subscribe payload needs a query, a documentId, or the extensions of a persisted query")
	}
	params := &graphql.RawParams{}
	if p.Query != nil {
		params.Query = *p.Query
	}
	var documentID string
	if p.DocumentID != nil {
		documentID = *p.DocumentID
	}
	if p.OperationName != nil {
		params.OperationName = *p.OperationName
	}
	for _, member := range []struct {
		name string
		raw  json.RawMessage
		into *map[string]any
	}{{"variables", p.Variables, &params.Variables}, {"extensions", p.Extensions, &params.Extensions}} {
		if !isObjectOrAbsent(member.raw) {
			return nil, "", fmt.Errorf("the subscribe payload's %s must be an object", member.name)
		}
		dec := json.NewDecoder(bytes.NewReader(member.raw))
		dec.UseNumber() // as gqlgen's HTTP transports decode variables: integers stay exact
		if len(member.raw) > 0 {
			_ = dec.Decode(member.into) // an object, checked above
		}
	}
	return params, documentID, nil
}

func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}

// isObjectOrAbsent: a payload that is missing or null, or an object.
func isObjectOrAbsent(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null" || raw[0] == '{'
}

// subscribe starts operation id, once the connection admits it (see graphqlWS): a subscribe
// past its token's expiry closes the connection, one past the cap on operations in flight or
// refused by the rate limit ends with an error message, and the rate limit's refusal is held
// before the connection reads on. The request's text is then checked as an HTTP request's is
// (keys given once, valid UTF-8); a refusal there ends the operation with an error message, as
// a document that does not validate does.
func (c *wsConn) subscribe(connCtx context.Context, id string, params *graphql.RawParams, documentID string, payload json.RawMessage) (websocket.StatusCode, string) {
	c.mu.Lock()
	switch {
	case !c.acked:
		c.mu.Unlock()
		return closeUnauthorized, "Unauthorized"
	case c.identity.Expired():
		c.mu.Unlock()
		return closeForbidden, tokenExpiredReason
	case c.ops[id] != nil:
		c.mu.Unlock()
		return closeSubscriberTaken, fmt.Sprintf("Subscriber for %.80s already exists", id)
	case c.inFlight >= c.t.maxInFlight:
		c.mu.Unlock()
		c.refuseOperation(connCtx, id, tooManyInFlight(c.t.maxInFlight))
		return 0, ""
	}
	callerCtx := c.ctx
	c.mu.Unlock()

	a, refused := c.t.limit.account(callerCtx)
	if refused != nil {
		holdRefusal(connCtx)
		c.refuseOperation(connCtx, id, rateError(*refused))
		return 0, ""
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	ctx, cancel := context.WithCancel(c.ctx)
	if a != nil {
		ctx = context.WithValue(ctx, admissionKey{}, a)
	}
	op := &wsOperation{cancel: cancel}
	c.ops[id] = op
	c.inFlight++
	c.running.Add(1)
	go func() {
		defer c.running.Done()
		defer cancel()
		defer c.settle(op)
		// An operation refused before it ran (its request checks, its document) still cost
		// the server its work; one that ran was charged already.
		defer chargeOperation(ctx, nil)
		hash, err := "", checkPayloadText(payload)
		if err == nil && documentID != "" {
			hash, err = parseDocumentID(documentID)
		}
		if err != nil {
			resp := c.exec.DispatchError(ctx, gqlerror.List{requestError(err)})
			c.finish(ctx, id, op, "error", resp.Errors)
			return
		}
		// Each operation its own: the trusted documents check reads its id here.
		ctx = context.WithValue(ctx, documentRequestKey{}, &documentRequest{hash: hash})
		c.run(ctx, id, op, params)
	}()
	return 0, ""
}

// tooManyInFlight refuses an operation past a connection's cap on operations in flight.
func tooManyInFlight(max int) *gqlerror.Error {
	return requestError(domain.Errorf(domain.LimitExceeded,
		"this connection has %d operations in flight already, besides its subscriptions: wait for one to end, or complete one", max))
}

// refuseOperation ends operation id, which never started, with an error message.
func (c *wsConn) refuseOperation(ctx context.Context, id string, err *gqlerror.Error) {
	resp := c.exec.DispatchError(ctx, gqlerror.List{err})
	c.write(ctx, "error", id, resp.Errors)
}

// settle stops counting op in flight: it ended, or it is a subscription that started.
func (c *wsConn) settle(op *wsOperation) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.settleLocked(op)
}

func (c *wsConn) settleLocked(op *wsOperation) {
	if !op.settled {
		op.settled = true
		c.inFlight--
	}
}

// checkPayloadText applies the request checks of requestjson.go to a subscribe payload.
func checkPayloadText(payload json.RawMessage) error {
	if err := checkJSON(payload, "the subscribe payload", topLevel); err != nil {
		return err
	}
	return checkJSONText(payload, "the subscribe payload")
}

// requestError is err, a request refused before GraphQL ran, as a GraphQL error with its code.
func requestError(err error) *gqlerror.Error {
	return &gqlerror.Error{Message: domain.ErrorMessage(err), Extensions: map[string]any{"code": extensionCode(domain.ErrorCode(err))}}
}

// run executes operation id: each response goes out as next, and the operation ends with
// complete, or with error when it could not start (a document that does not parse or
// validate), as the protocol has it.
func (c *wsConn) run(ctx context.Context, id string, op *wsOperation, params *graphql.RawParams) {
	start := graphql.Now()
	ctx = graphql.StartOperationTrace(ctx)
	params.Headers = c.header
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}
	rc, errs := c.exec.CreateOperationContext(ctx, params)
	if errs != nil {
		resp := c.exec.DispatchError(graphql.WithOperationContext(ctx, rc), errs)
		c.finish(ctx, id, op, "error", resp.Errors)
		return
	}
	ctx = graphql.WithOperationContext(ctx, rc)
	defer func() {
		if p := recover(); p != nil {
			resp := c.exec.DispatchError(ctx, gqlerror.List{gqlerror.WrapIfUnwrapped(rc.Recover(ctx, p))})
			c.finish(ctx, id, op, "error", resp.Errors)
		}
	}()
	// The responses are made under the context DispatchOperation returns, which may end with
	// the operation's last response (a query's deadline, operation.go); they are written
	// under the operation's.
	responses, dispatched := c.exec.DispatchOperation(ctx, rc)
	if rc.Operation.Operation == ast.Subscription {
		c.settle(op) // the hub holds it now, and counts it
	}
	for {
		resp := responses(dispatched)
		if resp == nil {
			break
		}
		if !c.send(ctx, id, op, resp) {
			return
		}
	}
	c.finish(ctx, id, op, "complete", nil)
}

// send writes a next message of operation id, unless the operation is no longer op, or the
// token has expired: then the connection closes (its timer may not have fired yet).
func (c *wsConn) send(ctx context.Context, id string, op *wsOperation, resp *graphql.Response) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ops[id] != op {
		return false
	}
	if c.identity.Expired() {
		c.expiry.Reset(0)
		return false
	}
	return c.writeLocked(ctx, "next", id, resp)
}

// finish ends operation id with a complete or error message, unless the client completed it.
func (c *wsConn) finish(ctx context.Context, id string, op *wsOperation, typ string, payload any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	// Settled before the client hears of the end, so that the operation it sends next finds
	// room.
	c.settleLocked(op)
	if c.ops[id] != op {
		return
	}
	delete(c.ops, id)
	c.writeLocked(ctx, typ, id, payload)
}

func (c *wsConn) write(ctx context.Context, typ, id string, payload any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writeLocked(ctx, typ, id, payload)
}

// writeLocked writes one message; c.mu keeps the messages of an operation in their order and
// none after its end. A write that fails drops the connection.
func (c *wsConn) writeLocked(ctx context.Context, typ, id string, payload any) bool {
	m := struct {
		ID      string `json:"id,omitempty"`
		Type    string `json:"type"`
		Payload any    `json:"payload,omitempty"`
	}{id, typ, payload}
	b, err := json.Marshal(m)
	if err != nil {
		b, _ = json.Marshal(struct {
			ID      string            `json:"id"`
			Type    string            `json:"type"`
			Payload []*gqlerror.Error `json:"payload"`
		}{id, "error", []*gqlerror.Error{requestError(domain.Wrap(domain.Internal, err, "the response could not be encoded"))}})
	}
	wctx, cancel := context.WithTimeout(ctx, wsWriteTimeout)
	defer cancel()
	if err := c.conn.Write(wctx, websocket.MessageText, b); err != nil {
		_ = c.conn.CloseNow()
		return false
	}
	return true
}

// refuse logs the refusal and closes the connection with code, unless another refusal closed
// it already (the expiry's timer and the reading may both find the token expired).
func (c *wsConn) refuse(ctx context.Context, code websocket.StatusCode, reason string) {
	c.closing.Do(func() {
		c.t.refusals.log(ctx, int(code), reason)
		// A close reason is at most 123 bytes (RFC 6455, 5.5).
		if len(reason) > 123 {
			reason = strings.ToValidUTF8(reason[:123], "")
		}
		_ = c.conn.Close(code, reason)
	})
}
