package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"

	"github.com/quickphotos/quickphotos/ddb"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/stream"
	"github.com/quickphotos/quickphotos/telemetry"
)

// openedStore is a client of the configured store and what must be closed with it.
type openedStore struct {
	client  dynamo.API
	streams stream.API  // reads the table's change stream
	engine  *ddb.Engine // nil unless embedded
}

func (s *openedStore) Close() error {
	if s.engine != nil {
		return s.engine.Close()
	}
	return nil
}

// open connects to the store. On the embedded engine the clients are the engine's in-process
// APIs, which take and return the SDK's types without encoding requests (docs/benchmarks.md):
// the stream consumers poll every shard every 50 ms by default, and each poll through the SDK
// would encode, sign and decode a request.
func (c storeConfig) open(ctx context.Context) (*openedStore, error) {
	switch c.kind {
	case storeEmbedded:
		engine, err := c.openEngine()
		if err != nil {
			return nil, fmt.Errorf("opening the embedded store: %w", err)
		}
		if c.embeddedViaSDK {
			return &openedStore{client: engine.Client(), streams: engine.StreamsClient(), engine: engine}, nil
		}
		return &openedStore{client: engine.API(), streams: engine.StreamsAPI(), engine: engine}, nil
	case storeDynamoDB:
		if c.inMemory {
			return nil, fmt.Errorf("--in-memory is for the embedded store, not --store %s", storeDynamoDB)
		}
		endpoint, streamsEndpoint := c.endpoint(), c.streamsEndpoint()
		endpoints := []string{endpoint}
		if streamsEndpoint != "" {
			endpoints = append(endpoints, streamsEndpoint)
		}
		opts := loopbackOnly(endpoints...)
		cfg, err := config.LoadDefaultConfig(ctx, opts...)
		if err != nil {
			return nil, fmt.Errorf("loading AWS configuration: %w", err)
		}
		if cfg.Region == "" {
			cfg.Region = "us-east-1"
		}
		if endpoint != "" {
			// DynamoDB Local and compatible stores accept any credentials; don't make
			// developers configure some just to reach one on their own machine.
			if _, err := cfg.Credentials.Retrieve(ctx); err != nil {
				cfg.Credentials = credentials.NewStaticCredentialsProvider("local", "local", "")
			}
		}
		log := c.log
		if log == nil {
			log = slog.Default()
		}
		client := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
			if c.endpointURL != "" {
				o.BaseEndpoint = aws.String(c.endpointURL)
			}
			o.HTTPClient = keepAliveClient{o.HTTPClient}
			o.Logger = telemetry.SDKLogger(log)
		})
		streams := dynamodbstreams.NewFromConfig(cfg, func(o *dynamodbstreams.Options) {
			if streamsEndpoint != "" {
				o.BaseEndpoint = aws.String(streamsEndpoint)
			}
			o.HTTPClient = keepAliveClient{o.HTTPClient}
			o.Logger = telemetry.SDKLogger(log)
		})
		return &openedStore{client: client, streams: streams}, nil
	default:
		return nil, fmt.Errorf("--store: %q is neither %s nor %s", c.kind, storeEmbedded, storeDynamoDB)
	}
}

// streamsEndpoint is where the Streams API is reached when it is not AWS's: DynamoDB Local and
// compatible stores serve it on their DynamoDB endpoint, so --endpoint-url, or the SDK's
// AWS_ENDPOINT_URL_DYNAMODB, serves for both unless AWS_ENDPOINT_URL_DYNAMODB_STREAMS says
// otherwise (the SDK reads that one itself).
func (c storeConfig) streamsEndpoint() string {
	if c.endpointURL != "" {
		return c.endpointURL
	}
	if _, ok := os.LookupEnv("AWS_ENDPOINT_URL_DYNAMODB_STREAMS"); ok {
		return ""
	}
	return os.Getenv("AWS_ENDPOINT_URL_DYNAMODB")
}

// endpoint is the DynamoDB endpoint the client is given, or "" for the SDK's own (AWS's).
func (c storeConfig) endpoint() string {
	return configuredEndpoint(c.endpointURL, "AWS_ENDPOINT_URL_DYNAMODB")
}

// configuredEndpoint is the endpoint of a service's client: its flag, or else the SDK's
// service variable (AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL_S3) or AWS_ENDPOINT_URL
// (unless AWS_IGNORE_CONFIGURED_ENDPOINT_URLS tells the SDK to ignore them); "" for AWS's.
func configuredEndpoint(flag, serviceVariable string) string {
	if flag != "" {
		return flag
	}
	if ignore, _ := strconv.ParseBool(os.Getenv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")); ignore {
		return ""
	}
	if e := os.Getenv(serviceVariable); e != "" {
		return e
	}
	return os.Getenv("AWS_ENDPOINT_URL")
}

// loopbackOnly is the configuration of clients whose every endpoint is on this machine
// (DynamoDB Local, `quickphotos dynamodb`, an S3-compatible store beside it): nothing is asked
// of the instance metadata service either. Without credentials in the environment, the SDK's
// default chain would try it last, and on a laptop or in CI that is a request to
// 169.254.169.254 that leaves the machine. On EC2 with AWS's endpoints, or any other endpoint,
// the default chain keeps it.
func loopbackOnly(endpoints ...string) []func(*config.LoadOptions) error {
	for _, e := range endpoints {
		if !onLoopback(e) {
			return nil
		}
	}
	return []func(*config.LoadOptions) error{config.WithEC2IMDSClientEnableState(imds.ClientDisabled)}
}

// onLoopback reports whether endpoint is a URL whose host is a loopback address (127.0.0.0/8,
// ::1) or localhost.
func onLoopback(endpoint string) bool {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		return false
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// keepAliveClient sends the SDK's requests with a body that hides io.WriterTo. Go's transport
// sends a request's headers, then its body straight to the socket, and then reads the body once
// more, to be sure nothing is left beyond Content-Length. The SDK closes the body as soon as
// the response's headers are in, and its body type then answers WriteTo with io.EOF, which
// io.Copy passes on as an error (a Read answers a plain end). A fast endpoint, such as one on
// this machine, often answers before that last read: the transport took the EOF for a failed
// write and closed the connection under the response it was still reading. Such a request
// cost a new connection (the SDK retried when the response could not be read), and the SDK
// logged "failed to close HTTP response body … response did not match expected checksum"
// about a response cut short. Through Read, the transport sees the end of the body and keeps
// the connection.
type keepAliveClient struct {
	http interface {
		Do(*http.Request) (*http.Response, error)
	}
}

func (c keepAliveClient) Do(req *http.Request) (*http.Response, error) {
	if req.Body != nil && req.Body != http.NoBody {
		req.Body = struct{ io.ReadCloser }{req.Body}
	}
	return c.http.Do(req)
}

// prepareTable makes sure the table and its index are there: the embedded store and
// --create-table create them; otherwise their absence stops the server with an error that says
// how to create them, because production tables belong to infrastructure code.
func (c storeConfig) prepareTable(ctx context.Context, store *dynamo.Store) error {
	if c.kind == storeEmbedded || c.createTable {
		return store.CreateTable(ctx)
	}
	return store.CheckTable(ctx)
}

// openEngine opens the embedded engine: durable in the data directory, or in memory only.
func (c storeConfig) openEngine() (*ddb.Engine, error) {
	if c.inMemory {
		return ddb.OpenMemory(nil)
	}
	engine, err := ddb.Open(c.dataDir, nil)
	if err != nil {
		return nil, fmt.Errorf("in %s: %w", c.dataDir, err)
	}
	return engine, nil
}
