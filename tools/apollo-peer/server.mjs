#!/usr/bin/env node
// The benchmark's peer: quickphotos's GraphQL API (its schema.graphqls) served by Apollo Server
// with per-request DataLoaders, over the same DynamoDB table. See README.md.
//
//   node tools/apollo-peer/server.mjs --endpoint http://127.0.0.1:8000 --table quick-photos --listen 127.0.0.1:4000
//
// Prints the GraphQL URL on stdout once listening; stops on SIGTERM or SIGINT, letting requests
// in flight finish.

import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { checkArguments } from './arguments.mjs';
import { createLoaders, resolvers } from './resolvers.mjs';
import { Store } from './store.mjs';

// reportCost adds the counts of a request's DynamoDB requests to its answer, when asked.
const reportCost = {
  async requestDidStart() {
    return {
      async willSendResponse({ contextValue, response }) {
        if (contextValue.cost && response.body.kind === 'single') {
          const result = response.body.singleResult;
          result.extensions = { ...result.extensions, cost: contextValue.cost };
        }
      },
    };
  },
};

const here = dirname(fileURLToPath(import.meta.url));

const usage = `usage: node tools/apollo-peer/server.mjs [flags]
  --endpoint URL     the DynamoDB endpoint, e.g. http://127.0.0.1:8000 (default: the AWS SDK's)
  --table NAME       the table (default quick-photos)
  --listen HOST:PORT the address to listen on; port 0 picks a free port (default 127.0.0.1:4000)
  --schema FILE      the schema (default: schema.graphqls of the repository)`;

function fail(message) {
  process.stderr.write(`apollo-peer: ${message}\n${usage}\n`);
  process.exit(2);
}

let flags;
try {
  flags = parseArgs({
    options: {
      endpoint: { type: 'string' },
      table: { type: 'string', default: 'quick-photos' },
      listen: { type: 'string', default: '127.0.0.1:4000' },
      schema: { type: 'string', default: resolve(here, '../../schema.graphqls') },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (err) {
  fail(err.message);
}
if (flags.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
const listen = /^(.*):(\d+)$/.exec(flags.listen);
if (!listen) fail(`--listen: ${JSON.stringify(flags.listen)} is not HOST:PORT`);
const host = listen[1].replace(/^\[(.*)\]$/, '$1');
const port = Number(listen[2]);

const store = new Store({ endpoint: flags.endpoint, table: flags.table });
const server = new ApolloServer({
  typeDefs: readFileSync(flags.schema, 'utf8'),
  resolvers,
  plugins: [checkArguments, reportCost],
  includeStacktraceInErrorResponses: false,
  // SIGTERM is handled below, to exit with status 0 once stopped.
  stopOnTerminationSignals: false,
});
const { url } = await startStandaloneServer(server, {
  listen: { host, port },
  context: async ({ req }) => {
    // With X-Quickphotos-Cost: 1 the answer counts the request's DynamoDB requests, as
    // quickphotos's does (extensions.cost: requests, operations).
    const cost = req.headers['x-quickphotos-cost'] === '1' ? { requests: 0, operations: {} } : null;
    const s = cost ? store.counted(cost) : store;
    return { store: s, loaders: createLoaders(s), cost };
  },
});
// The standalone server answers on every path; /graphql is quickphotos's.
process.stdout.write(`${new URL('graphql', url)}\n`);

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  process.stderr.write(`apollo-peer: ${signal}: stopping\n`);
  try {
    await server.stop(); // drains the HTTP server: requests in flight finish
  } finally {
    store.destroy();
  }
}
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
