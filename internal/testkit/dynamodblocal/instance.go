package dynamodblocal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"

	"github.com/quickphotos/quickphotos/internal/testkit/procgroup"
	"github.com/quickphotos/quickphotos/internal/testkit/syncbuf"
	"github.com/quickphotos/quickphotos/internal/testkit/testtools"
)

// Credentials and region every client of an Instance uses. DynamoDB Local
// keeps a separate set of tables per access key and region, so anything that
// talks to an Instance (SDK clients, raw signed requests) must use these.
const (
	AccessKeyID     = "quickphotos"
	SecretAccessKey = "quickphotos"
	Region          = "us-east-1"
)

// DefaultStartTimeout bounds how long Launch waits for DynamoDB Local to
// answer ListTables.
const DefaultStartTimeout = 60 * time.Second

// Config says how to launch an Instance. The zero Config finds the jar with
// FindJar, runs in a new temporary directory and waits DefaultStartTimeout.
type Config struct {
	// Jar is the path of DynamoDBLocal.jar; empty means FindJar.
	Jar string
	// Dir is the JVM's working directory; empty means a new temporary
	// directory, removed by Stop.
	Dir string
	// StartTimeout bounds the wait for the first answer; zero means
	// DefaultStartTimeout.
	StartTimeout time.Duration
	// OnDisk keeps the database in a file under Dir (-dbPath) instead of in
	// memory (-inMemory): slower, but the fair comparison for a store that
	// writes to disk, as the benchmarks show.
	OnDisk bool
}

// Instance is one running DynamoDB Local process on 127.0.0.1, in memory
// unless Config.OnDisk.
// It is safe for concurrent use; tests sharing it should use distinct table
// names.
type Instance struct {
	// Endpoint is the base URL, such as http://127.0.0.1:41234.
	Endpoint string
	// Port is the TCP port Endpoint listens on.
	Port int
	// Jar is the DynamoDBLocal.jar that runs.
	Jar string

	cmd     *exec.Cmd
	out     *syncbuf.Buffer
	exited  chan struct{}
	waitErr error
	tmpDir  string // removed by Stop; empty when the caller owns the directory
	stop    sync.Once
}

// Launch starts DynamoDB Local with the zero Config. It is meant for
// TestMain: call Stop when the tests are done.
func Launch() (*Instance, error) { return Config{}.Launch() }

// Launch starts DynamoDB Local and waits until it answers ListTables. On
// failure the error includes the process's output.
func (c Config) Launch() (*Instance, error) {
	jar := c.Jar
	if jar == "" {
		var err error
		if jar, err = FindJar(); err != nil {
			return nil, err
		}
	}
	if _, err := os.Stat(jar); err != nil {
		return nil, fmt.Errorf("%w: %v; %s", ErrJarNotFound, err, InstallHint)
	}
	java, err := javaPath()
	if err != nil {
		return nil, err
	}
	timeout := c.StartTimeout
	if timeout <= 0 {
		timeout = DefaultStartTimeout
	}
	dir, tmp := c.Dir, ""
	if dir == "" {
		if tmp, err = os.MkdirTemp("", "dynamodblocal-"); err != nil {
			return nil, err
		}
		dir = tmp
	}
	// A free port can be taken by someone else between our probe and the
	// JVM's bind; retry a few times when the process dies early.
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		in, err := start(java, jar, dir, c.OnDisk, timeout)
		if err == nil {
			in.tmpDir = tmp
			return in, nil
		}
		lastErr = err
		if !errors.Is(err, errExited) {
			break
		}
	}
	if tmp != "" {
		_ = os.RemoveAll(tmp)
	}
	return nil, lastErr
}

// ErrJavaNotFound is returned (wrapped) when no java binary is on the PATH or in JAVA_HOME.
var ErrJavaNotFound = errors.New("dynamodblocal: java (17 or later) is needed to run DynamoDB Local")

var errExited = errors.New("dynamodblocal: DynamoDB Local exited before answering")

func start(java, jar, dir string, onDisk bool, timeout time.Duration) (*Instance, error) {
	port, err := testtools.FreePort()
	if err != nil {
		return nil, err
	}
	lib := filepath.Join(filepath.Dir(jar), "DynamoDBLocal_lib")
	storage := []string{"-inMemory"}
	if onDisk {
		storage = []string{"-dbPath", dir}
	}
	args := append([]string{"-Djava.library.path=" + lib, "-jar", jar}, storage...)
	cmd := exec.Command(java, append(args, "-port", strconv.Itoa(port), "-disableTelemetry")...)
	cmd.Dir = dir
	out := &syncbuf.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	procgroup.Own(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("dynamodblocal: start %s: %w", java, err)
	}
	in := &Instance{
		Endpoint: "http://127.0.0.1:" + strconv.Itoa(port),
		Port:     port,
		Jar:      jar,
		cmd:      cmd,
		out:      out,
		exited:   make(chan struct{}),
	}
	go func() { in.waitErr = cmd.Wait(); close(in.exited) }()
	if err := in.waitReady(timeout); err != nil {
		_ = in.Stop()
		return nil, fmt.Errorf("%w\n--- DynamoDB Local output ---\n%s", err, in.Output())
	}
	return in, nil
}

// waitReady polls ListTables until it succeeds, the process exits or the
// timeout passes.
func (in *Instance) waitReady(timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	client := in.Client(func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
	var last error
	for {
		callCtx, callCancel := context.WithTimeout(ctx, 2*time.Second)
		_, err := client.ListTables(callCtx, &dynamodb.ListTablesInput{})
		callCancel()
		if err == nil {
			return nil
		}
		last = err
		select {
		case <-in.exited:
			return fmt.Errorf("%w (%v)", errExited, in.waitErr)
		case <-ctx.Done():
			return fmt.Errorf("dynamodblocal: no answer from %s within %s: %v", in.Endpoint, timeout, last)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Client returns a DynamoDB client for the instance: static credentials
// AccessKeyID/SecretAccessKey, region Region, BaseEndpoint Endpoint. The
// optional functions adjust its options.
func (in *Instance) Client(optFns ...func(*dynamodb.Options)) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       Region,
		Credentials:  credentials.NewStaticCredentialsProvider(AccessKeyID, SecretAccessKey, ""),
		BaseEndpoint: aws.String(in.Endpoint),
	}, optFns...)
}

// StreamsClient returns a DynamoDB Streams client for the instance, which serves the Streams
// API on the same endpoint, with Client's credentials and region.
func (in *Instance) StreamsClient(optFns ...func(*dynamodbstreams.Options)) *dynamodbstreams.Client {
	return dynamodbstreams.New(dynamodbstreams.Options{
		Region:       Region,
		Credentials:  credentials.NewStaticCredentialsProvider(AccessKeyID, SecretAccessKey, ""),
		BaseEndpoint: aws.String(in.Endpoint),
	}, optFns...)
}

// Output returns everything the process has written to stdout and stderr.
func (in *Instance) Output() string { return in.out.String() }

// Stop kills the process group, waits for it and removes the temporary
// working directory Launch created. It is safe to call more than once.
func (in *Instance) Stop() error {
	var err error
	in.stop.Do(func() {
		_ = procgroup.Kill(in.cmd)
		select {
		case <-in.exited:
		case <-time.After(10 * time.Second):
			err = errors.New("dynamodblocal: process did not exit after SIGKILL")
		}
		if in.tmpDir != "" {
			if rmErr := os.RemoveAll(in.tmpDir); err == nil {
				err = rmErr
			}
		}
	})
	return err
}

func javaPath() (string, error) {
	if home := os.Getenv("JAVA_HOME"); home != "" {
		p := filepath.Join(home, "bin", "java")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	p, err := exec.LookPath("java")
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrJavaNotFound, err)
	}
	return p, nil
}
