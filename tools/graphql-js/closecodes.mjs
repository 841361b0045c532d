// Runs graphql-ws's own client (with the ws package's WebSocket) through the ways a
// graphql-transport-ws connection can be refused, and prints one JSON line per scenario:
//   {"name": ..., "code": <close code the application was told>, "reason": ..., "connects": <sockets opened>}
// A scenario whose client never gave up prints "code": null. Exits 0 once every scenario ended.
//   node closecodes.mjs WS_URL TOKEN
// TOKEN is a valid token for the server; the scenarios that need a connection use it.
//
// The client sends only well-formed messages in their order; the scenarios that break the
// protocol do it through a WebSocket whose send() changes what the client sends, so the
// refusal still reaches the client's own close handling, retries included.
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

const [url, token] = process.argv.slice(2);
if (!url || !token) {
  console.error('usage: node closecodes.mjs WS_URL TOKEN');
  process.exit(2);
}

const subscription = 'subscription { userChanged(username: "nobody") { kind } }';

// tampered is a WebSocket class whose send passes each outgoing message through change, which
// returns the messages to send instead (none, the same, or others).
function tampered(change) {
  return class extends WebSocket {
    send(data) {
      for (const m of change(JSON.parse(data))) super.send(typeof m === 'string' ? m : JSON.stringify(m));
    }
  };
}

const scenarios = [
  {
    // A bad token is final for the application: graphql-ws retries 4403 (the server might grant
    // access later) only retryAttempts times, and then tells the subscription.
    name: 'bad token, two retries',
    options: { connectionParams: { Authorization: 'Bearer not-a-token' }, retryAttempts: 2 },
  },
  {
    name: 'bad token, no retries',
    options: { connectionParams: { Authorization: 'Bearer not-a-token' }, retryAttempts: 0 },
  },
  {
    name: 'two subscriptions with one id',
    options: { connectionParams: { Authorization: `Bearer ${token}` }, generateID: () => 'same' },
    subscriptions: 2,
  },
  {
    name: 'a message that is not JSON',
    options: {
      connectionParams: { Authorization: `Bearer ${token}` },
      webSocketImpl: tampered((m) => (m.type === 'subscribe' ? ['not json'] : [m])),
    },
  },
  {
    name: 'an unknown message type',
    options: {
      connectionParams: { Authorization: `Bearer ${token}` },
      webSocketImpl: tampered((m) => (m.type === 'subscribe' ? [{ ...m, type: 'start' }] : [m])),
    },
  },
  {
    name: 'subscribe without an id',
    options: {
      connectionParams: { Authorization: `Bearer ${token}` },
      webSocketImpl: tampered((m) => (m.type === 'subscribe' ? [{ type: m.type, payload: m.payload }] : [m])),
    },
  },
  {
    name: 'subscribe before connection_init',
    options: {
      webSocketImpl: tampered((m) =>
        m.type === 'connection_init' ? [{ id: 'early', type: 'subscribe', payload: { query: subscription } }, m] : [m],
      ),
    },
  },
  {
    name: 'a second connection_init',
    options: { webSocketImpl: tampered((m) => (m.type === 'connection_init' ? [m, m] : [m])) },
  },
  {
    name: 'no connection_init',
    options: { webSocketImpl: tampered((m) => (m.type === 'connection_init' ? [] : [m])), retryAttempts: 0 },
  },
];

async function run({ name, options, subscriptions = 1 }) {
  let connects = 0;
  const client = createClient({
    url,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    retryWait: () => new Promise((resolve) => setTimeout(resolve, 10)),
    ...options,
    on: { opened: () => connects++ },
  });
  const ends = [];
  for (let i = 0; i < subscriptions; i++) {
    ends.push(
      new Promise((resolve) => {
        client.subscribe(
          { query: subscription },
          {
            next: () => {},
            error: (err) => resolve(err),
            complete: () => resolve(null),
          },
        );
      }),
    );
  }
  const timeout = new Promise((resolve) => setTimeout(() => resolve('timed out'), 15000));
  const first = await Promise.race([ends[0], timeout]);
  try {
    await client.dispose();
  } catch {
    // the socket was closed already: what it closed with is in first
  }
  const closed = first && typeof first === 'object' && 'code' in first;
  console.log(
    JSON.stringify({ name, code: closed ? first.code : null, reason: closed ? first.reason : String(first), connects }),
  );
}

for (const s of scenarios) {
  try {
    await run(s);
  } catch (err) {
    console.log(JSON.stringify({ name: s.name, code: null, reason: `the scenario threw: ${err?.code ?? err}`, connects: 0 }));
  }
}
process.exit(0);
