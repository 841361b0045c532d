package ddb

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
)

// Client returns an aws-sdk-go-v2 DynamoDB client that talks to the engine in memory, through
// HTTPClient: no socket, no port, yet every request goes through the same SDK code (signing,
// serialization, retries) as a request to Amazon DynamoDB. optFns adjust the client's options.
func (e *Engine) Client(optFns ...func(*dynamodb.Options)) *dynamodb.Client {
	opts := dynamodb.Options{
		// A real region name: for an unknown one the SDK's endpoint resolver recompiles its
		// rules on every request, which doubled the in-process latency (docs/benchmarks.md).
		Region: "us-east-1",
		// The engine accepts any SigV4 credentials; these only satisfy the signer.
		Credentials:  credentials.NewStaticCredentialsProvider("embedded", "embedded", ""),
		BaseEndpoint: aws.String("http://embedded.invalid"),
		HTTPClient:   e.HTTPClient(),
	}
	for _, fn := range optFns {
		fn(&opts)
	}
	return dynamodb.New(opts)
}

// StreamsClient returns an aws-sdk-go-v2 DynamoDB Streams client that talks to the engine in
// memory, as Client does: a consumer of the engine's streams (ListStreams, DescribeStream,
// GetShardIterator, GetRecords) runs the same code as against Amazon DynamoDB Streams.
func (e *Engine) StreamsClient(optFns ...func(*dynamodbstreams.Options)) *dynamodbstreams.Client {
	opts := dynamodbstreams.Options{
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider("embedded", "embedded", ""),
		BaseEndpoint: aws.String("http://embedded.invalid"),
		HTTPClient:   e.HTTPClient(),
	}
	for _, fn := range optFns {
		fn(&opts)
	}
	return dynamodbstreams.New(opts)
}
