// Runs one DynamoDB operation with the AWS SDK for JavaScript v3, for main_dynamodbauth_test.go:
//
//   node dynamodb.mjs ENDPOINT OPERATION JSON_INPUT
//
// e.g. `node dynamodb.mjs http://127.0.0.1:8000 ListTables '{}'`. The credentials are
// AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, given to the client explicitly (no other
// provider, so nothing but ENDPOINT is contacted), the region AWS_REGION. Prints the output as
// JSON and exits 0, or prints {"error": name, "message": ...} and exits 1.
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import * as dynamodb from "@aws-sdk/client-dynamodb";

const [endpoint, operation, input] = process.argv.slice(2);
const Command = dynamodb[`${operation}Command`];
if (!endpoint || !Command) {
  console.error("usage: node dynamodb.mjs ENDPOINT OPERATION JSON_INPUT");
  process.exit(2);
}
const client = new DynamoDBClient({
  endpoint,
  region: process.env.AWS_REGION,
  credentials: {
    accessKeyId: process.env.AWS_ACCESS_KEY_ID,
    secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY,
  },
  maxAttempts: 1,
});
try {
  const out = await client.send(new Command(JSON.parse(input || "{}")));
  delete out.$metadata;
  console.log(JSON.stringify(out));
} catch (err) {
  console.log(JSON.stringify({ error: err.name, message: err.message }));
  process.exit(1);
}
