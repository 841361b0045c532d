package conformance

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/quickphotos/quickphotos/internal/testkit/dynamodblocal"
)

// response is one raw DynamoDB answer.
type response struct {
	Status int
	Body   []byte
}

// target is a DynamoDB JSON 1.0 endpoint.
type target struct {
	name     string
	endpoint string
	client   *http.Client
}

var (
	signer = v4.NewSigner()
	creds  = aws.Credentials{AccessKeyID: dynamodblocal.AccessKeyID, SecretAccessKey: dynamodblocal.SecretAccessKey}
)

// streamsOperations are the operations of the DynamoDB Streams API, which
// both targets serve on their DynamoDB endpoint under their own prefix.
var streamsOperations = map[string]bool{"ListStreams": true, "DescribeStream": true, "GetShardIterator": true, "GetRecords": true}

// streamsTargetPrefix is the X-Amz-Target prefix of the Streams API.
const streamsTargetPrefix = "DynamoDBStreams_20120810."

// targetOf is the X-Amz-Target header of operation op.
func targetOf(op string) string {
	if streamsOperations[op] {
		return streamsTargetPrefix + op
	}
	return "DynamoDB_20120810." + op
}

// do sends one signed request and returns the raw response.
func (t *target) do(ctx context.Context, op string, body []byte) (response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.endpoint+"/", bytes.NewReader(body))
	if err != nil {
		return response{}, err
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", targetOf(op))
	sum := sha256.Sum256(body)
	if err := signer.SignHTTP(ctx, creds, req, hex.EncodeToString(sum[:]), "dynamodb", dynamodblocal.Region, time.Now()); err != nil {
		return response{}, err
	}
	resp, err := t.client.Do(req)
	if err != nil {
		return response{}, fmt.Errorf("%s %s: %w", t.name, op, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return response{}, fmt.Errorf("%s %s: read body: %w", t.name, op, err)
	}
	return response{Status: resp.StatusCode, Body: data}, nil
}

// call sends a request built from v and decodes the answer into out (when
// not nil); a non-200 answer is an error.
func (t *target) call(ctx context.Context, op string, v, out any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	r, err := t.do(ctx, op, body)
	if err != nil {
		return err
	}
	if r.Status != http.StatusOK {
		return fmt.Errorf("%s %s: HTTP %d: %s", t.name, op, r.Status, r.Body)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(r.Body, out)
}

// reset deletes every table, so that each case starts from an empty
// database and ListTables answers are deterministic.
func (t *target) reset(ctx context.Context) error {
	var start string
	var names []string
	for {
		in := map[string]any{}
		if start != "" {
			in["ExclusiveStartTableName"] = start
		}
		var out struct {
			TableNames             []string
			LastEvaluatedTableName string
		}
		if err := t.call(ctx, "ListTables", in, &out); err != nil {
			return err
		}
		names = append(names, out.TableNames...)
		if out.LastEvaluatedTableName == "" {
			break
		}
		start = out.LastEvaluatedTableName
	}
	for _, n := range names {
		if err := t.call(ctx, "DeleteTable", map[string]any{"TableName": n}, nil); err != nil {
			return err
		}
	}
	return nil
}
