// Prints a running server's schema as SDL, from its introspection answer, as a Relay project
// fetches it: the relay-compiler test (api/graphqlclients_test.go) compiles testdata/relay
// against what the server serves, not against the file it was built from.
//
// Usage: node print-schema.mjs GRAPHQL_URL
import { buildClientSchema, getIntrospectionQuery, printSchema } from "graphql";

const [url] = process.argv.slice(2);
if (!url) {
  console.error("usage: node print-schema.mjs GRAPHQL_URL");
  process.exit(2);
}
const res = await fetch(url, {
  method: "POST",
  headers: { "Content-Type": "application/json", Accept: "application/graphql-response+json" },
  body: JSON.stringify({ query: getIntrospectionQuery({ descriptions: true }) }),
});
const body = await res.json();
if (!res.ok || body.errors) {
  console.error(`introspection failed: HTTP ${res.status}: ${JSON.stringify(body.errors ?? body)}`);
  process.exit(1);
}
process.stdout.write(printSchema(buildClientSchema(body.data)) + "\n");
