package main

import (
	"context"
	"errors"
	"io"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/feed"
)

// lambdaRuntimeEnv is set by AWS Lambda in a function's environment.
const lambdaRuntimeEnv = "AWS_LAMBDA_RUNTIME_API"

// runLambda runs `quickphotos lambda`: the feed's fan-out as an AWS Lambda function (the
// binary as the bootstrap of a provided.al2023 function) behind a DynamoDB Streams event
// source mapping with ReportBatchItemFailures. Lambda reads the shards and keeps the position;
// the flags come from the function's environment (QUICKPHOTOS_TABLE, …), and the store is
// Amazon DynamoDB.
func runLambda(ctx context.Context, args []string, _, stderr io.Writer) error {
	var store storeConfig
	var cfg feed.Config
	f := newFlags("lambda", stderr)
	store.register(f)
	registerFeed(f, &cfg)
	if err := f.parse(args); err != nil {
		return err
	}
	if os.Getenv(lambdaRuntimeEnv) == "" {
		return errors.New("lambda: run by AWS Lambda only (" + lambdaRuntimeEnv + " is not set); elsewhere run `quickphotos stream`")
	}
	store.kind = storeDynamoDB
	opened, err := store.open(ctx)
	if err != nil {
		return err
	}
	defer opened.Close()
	fanOut := feed.NewFanOut(dynamo.New(opened.client, store.table), cfg)
	lambda.StartWithOptions(fanOut.HandleLambda, lambda.WithContext(ctx))
	return nil
}
