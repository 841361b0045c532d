// Subscribes with graphql-ws's own client (the graphql-transport-ws protocol, over the ws
// package's WebSocket) and prints each event's payload as one JSON line, until COUNT events
// came (exit 0), an error (exit 1; a refused connection prints "closed CODE REASON" on stderr)
// or 20 seconds (exit 1). Prints "subscribed" once the server acknowledged the connection.
//   node subscribe.mjs WS_URL QUERY COUNT [TOKEN]
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

const [url, query, countArg, token] = process.argv.slice(2);
const count = Number(countArg);
if (!url || !query || !count) {
  console.error('usage: node subscribe.mjs WS_URL QUERY COUNT [TOKEN]');
  process.exit(2);
}
const timer = setTimeout(() => {
  console.error('timed out');
  process.exit(1);
}, 20000);

const client = createClient({
  url,
  webSocketImpl: WebSocket,
  connectionParams: token ? { Authorization: `Bearer ${token}` } : undefined,
  retryAttempts: 0,
  on: { connected: () => console.log('subscribed') },
});

let seen = 0;
client.subscribe(
  { query },
  {
    next: (payload) => {
      console.log(JSON.stringify(payload));
      if (++seen === count) {
        clearTimeout(timer);
        client.dispose();
        process.exit(0);
      }
    },
    error: (err) => {
      // A refused connection ends the subscription with the server's close event.
      if (err && typeof err === 'object' && 'code' in err && 'reason' in err) console.error(`closed ${err.code} ${err.reason}`);
      else console.error('error', JSON.stringify(err));
      process.exit(1);
    },
    complete: () => {
      console.error(`complete after ${seen} events`);
      process.exit(1);
    },
  },
);
