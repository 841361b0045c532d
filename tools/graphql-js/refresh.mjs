// Runs graphql-ws's own client (with the ws package's WebSocket) with connectionParams as an
// app with expiring tokens writes it: a function that hands out the current token, here the
// next of TOKEN... (the last one once they run out). It subscribes to userChanged(username:
// "ann") and prints one JSON line as each of these happens:
//   {"event": "connected", "params": <connectionParams calls so far>}
//   {"event": "closed", "code": ..., "reason": ...}
//   {"event": "next", "kind": ...}
//   {"event": "error", "reason": ...}      the subscription was ended: the client gave up
// and exits after the first "next", or an "error".
//   node refresh.mjs WS_URL TOKEN...
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

const [url, ...tokens] = process.argv.slice(2);
if (!url || tokens.length === 0) {
  console.error('usage: node refresh.mjs WS_URL TOKEN...');
  process.exit(2);
}

const say = (line) => console.log(JSON.stringify(line));
let params = 0;
const client = createClient({
  url,
  webSocketImpl: WebSocket,
  connectionParams: () => ({ Authorization: `Bearer ${tokens[Math.min(params++, tokens.length - 1)]}` }),
  retryAttempts: 3,
  retryWait: () => new Promise((resolve) => setTimeout(resolve, 10)),
  on: {
    connected: () => say({ event: 'connected', params }),
    closed: (e) => say({ event: 'closed', code: e?.code, reason: e?.reason }),
  },
});
client.subscribe(
  { query: 'subscription { userChanged(username: "ann") { kind } }' },
  {
    next: (r) => {
      say({ event: 'next', kind: r.data?.userChanged?.kind });
      process.exit(0);
    },
    error: (err) => {
      say({ event: 'error', reason: String(err?.code ?? err) });
      process.exit(0);
    },
    complete: () => {},
  },
);
setTimeout(() => {
  say({ event: 'error', reason: 'timed out' });
  process.exit(0);
}, 30000);
