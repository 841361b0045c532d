package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// answer is what a GraphQL response says, as far as the load tool cares.
type answer struct {
	// code is the first error's extensions.code, "" when the operation succeeded.
	code string
	// data is the response's data.
	data json.RawMessage
}

// graphqlResponse is the part of a response the tool reads.
type graphqlResponse struct {
	Data   json.RawMessage `json:"data"`
	Errors []struct {
		Message    string `json:"message"`
		Extensions struct {
			Code string `json:"code"`
		} `json:"extensions"`
	} `json:"errors"`
}

// body is the call's request body. Its bytes are the same for the same call every time (the
// encoder sorts a map's keys), which is what lets the floor (package floor) find a recorded
// answer by the body alone.
func (c call) body() ([]byte, error) {
	return json.Marshal(map[string]any{"query": c.document, "variables": c.vars})
}

// post sends one operation and reads the whole answer. A transport failure, a status other than
// 200 (or 429, a rate limit's refusal) or a body that is not a GraphQL response is an error; GraphQL errors are the answer's code.
func post(ctx context.Context, hc *http.Client, url, token string, c call) (answer, error) {
	body, err := c.body()
	if err != nil {
		return answer{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return answer{}, err
	}
	// A rate limit refuses with 429 and a GraphQL body: that is the answer's code.
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusTooManyRequests {
		return answer{}, fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, raw)
	}
	var r graphqlResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		return answer{}, fmt.Errorf("not a GraphQL response: %.200s", raw)
	}
	if len(r.Errors) > 0 {
		code := r.Errors[0].Extensions.Code
		if code == "" {
			code = "NO_CODE: " + r.Errors[0].Message
		}
		return answer{code: code}, nil
	}
	return answer{data: r.Data}, nil
}
