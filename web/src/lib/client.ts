// Builds the Apollo Client of one signed-in session: a plain InMemoryCache (every object the
// app reads has a Node id, which is all the cache needs to normalise it), restored from and
// saved to the browser's storage; links that send document ids, over HTTP for queries and
// mutations and over graphql-ws for subscriptions; the mutation queue and the sync step; and
// the session's token, which the person renews by signing in again when the server no longer
// accepts it, without losing the queue or the cache.

import { ApolloClient, ApolloLink, InMemoryCache } from "@apollo/client";
import { OperationTypeNode } from "graphql";
import { createClient } from "graphql-ws";
import { type Subscription, tap } from "rxjs";
import { queuedMutations } from "../mutations";
import { browserOnline, Connectivity } from "../offline/connectivity";
import { holdLink } from "../offline/holdLink";
import { Outbox } from "../offline/outbox";
import { cacheSaver, restoreCache } from "../offline/persistCache";
import { MutationQueue } from "../offline/queue";
import { ChangesAvailableSubscription, Sync } from "../offline/sync";
import { httpLink, wsLink } from "./documentIdLink";
import { apiBase, websocketURL } from "./network";
import { Credentials, type Session } from "./session";

export interface SessionServices {
  client: ApolloClient;
  queue: MutationQueue;
  outbox: Outbox;
  connectivity: Connectivity;
  /** The token the requests carry, and whether the server refused it. */
  credentials: Credentials;
  /** syncNow runs the sync step (once the queue drains) if the browser is online. */
  syncNow: () => void;
  /**
   * signedInAgain takes the token of the same user signed in again after the server refused the
   * session's: the held changes go, and the screens whose reads were refused read again.
   */
  signedInAgain: (token: string) => void;
  /**
   * close stops the WebSocket, the sync and the saving of the cache (saved once more first);
   * with forget (signing out), nothing is saved and what the browser kept of the session, its
   * cache, sync cursor and queue, is removed. Closing again does nothing but forget.
   */
  close: (how?: { forget?: boolean }) => void;
}

export function startSession(session: Session, storage: Storage = window.localStorage): SessionServices {
  const credentials = new Credentials(session.token);
  const endpoint = { url: `${apiBase()}/graphql`, token: () => credentials.token };
  const cacheKey = `quickphotos.cache.${session.username}`;
  const cache = new InMemoryCache();
  // The sync cursor is stored with the cache (offline/persistCache.ts), and this tab syncs from
  // the one its own cache restored: with none restored, it starts anew.
  const restored = restoreCache(cache, storage, cacheKey, oldSyncCursorKey(session.username));
  const saver = cacheSaver(cache, storage, cacheKey, () => sync.cursor);

  const connectivity = new Connectivity(browserOnline());
  const ended = new AbortController();
  // The token the WebSocket's connection carries: the server closes the connection with 4403
  // when it expires (graphql-ws's client then connects again, with connectionParams asked anew),
  // which marks it refused as an HTTP answer UNAUTHENTICATED does (below).
  let wsToken = credentials.token;
  const ws = createClient({
    url: websocketURL(endpoint.url),
    connectionParams: () => {
      wsToken = credentials.token;
      return { Authorization: `Bearer ${wsToken}` };
    },
    lazy: true,
    retryAttempts: Number.POSITIVE_INFINITY,
    shouldRetry: () => true,
    on: {
      closed: (event) => {
        if ((event as { code?: number } | undefined)?.code === 4403) credentials.refuse(wsToken);
      },
    },
  });
  // Each answer from the server is saved, a moment later, with the cache.
  const save = new ApolloLink((op, forward) => forward(op).pipe(tap(() => saver.schedule())));
  // Any request answered UNAUTHENTICATED (the app always sends a token: this one expired, or the
  // server no longer has its key) marks the token it carried refused, and the app asks the
  // person to sign in again; the hold link keeps the queued changes back until they have.
  const watchToken = new ApolloLink((op, forward) => {
    const token = credentials.token;
    return forward(op).pipe(
      tap((answer) => {
        if (answer.errors?.some((e) => e.extensions?.code === "UNAUTHENTICATED")) credentials.refuse(token);
      }),
    );
  });
  const link = ApolloLink.from([
    save,
    ApolloLink.split(
      (op) => op.operationType === OperationTypeNode.SUBSCRIPTION,
      wsLink(ws),
      ApolloLink.from([holdLink({ connectivity, credentials, closed: ended.signal }), watchToken, httpLink(endpoint)]),
    ),
  ]);
  const client = new ApolloClient({ cache, link });

  const queueKey = `quickphotos.queue.${session.username}`;
  const queue = new MutationQueue(storage, queueKey);
  // Another tab of the same user wrote the queue: its failures show here too (offline/queue.ts).
  const onStorage = (e: StorageEvent) => {
    if (e.key === queueKey || e.key === null) queue.refresh();
  };
  window.addEventListener("storage", onStorage);
  const outbox = new Outbox(client, queue, queuedMutations);
  outbox.resume();

  // The sync step (offline/sync.ts): on start, on reconnect, when the page comes to the
  // foreground, and when the server pokes (changesAvailable), each once the queue has drained.
  const sync = new Sync({
    client,
    cursor: restored?.cursor,
    drained: () => queue.whenEmpty(),
    readScope: () => client.refetchQueries({ include: "active" }),
    saveCache: () => saver.flush(),
  });
  const syncNow = () => {
    if (!connectivity.online || ended.signal.aborted) return;
    sync.run().catch(() => {
      // Offline again, or the server failed: the next reconnect, foreground or poke runs it again.
    });
  };
  // The poke: subscribed while online; an error ends a subscription (a subscriber too slow, a
  // restarted server), so it is made again a moment later, with a catch-up for what it missed.
  let poke: Subscription | undefined;
  let pokeRetry: ReturnType<typeof setTimeout> | undefined;
  const watchPokes = (online: boolean) => {
    if (!online || ended.signal.aborted) {
      poke?.unsubscribe();
      poke = undefined;
      return;
    }
    if (poke !== undefined) return;
    poke = client.subscribe({ query: ChangesAvailableSubscription }).subscribe({
      next: () => syncNow(),
      error: () => {
        poke = undefined;
        if (pokeRetry === undefined)
          pokeRetry = setTimeout(() => {
            pokeRetry = undefined;
            watchPokes(connectivity.online);
            syncNow();
          }, 5000);
      },
    });
  };
  const stopSync = connectivity.subscribe((online) => {
    watchPokes(online);
    if (online) syncNow();
  });
  watchPokes(connectivity.online);
  syncNow();
  const onVisible = () => {
    if (document.visibilityState === "visible") syncNow();
  };
  document.addEventListener("visibilitychange", onVisible);
  const onHide = () => saver.flush();
  window.addEventListener("pagehide", onHide);

  let closed = false;
  return {
    client,
    queue,
    outbox,
    connectivity,
    credentials,
    syncNow,
    signedInAgain: (token) => {
      credentials.renew(token);
      for (const q of client.getObservableQueries("active")) {
        if (q.getCurrentResult().error !== undefined) {
          q.refetch().catch(() => {
            // Shown by the screen that asked.
          });
        }
      }
      syncNow();
    },
    close: (how = {}) => {
      if (!closed) {
        closed = true;
        // First the outbox and the hold link, so that nothing ending with the client settles the
        // queue or sends what it holds: a session started after this one sends it.
        outbox.close();
        ended.abort();
        stopSync();
        sync.close();
        poke?.unsubscribe();
        if (pokeRetry !== undefined) clearTimeout(pokeRetry);
        document.removeEventListener("visibilitychange", onVisible);
        window.removeEventListener("pagehide", onHide);
        window.removeEventListener("storage", onStorage);
        // Signing out saves nothing: what it removes below must not be written back, now or
        // by an answer arriving late.
        if (!how.forget) saver.flush();
        saver.stop();
        // A connection still being made (offline, graphql-ws retrying) fails as the socket
        // closes, and dispose, which waits for it, rejects with that close: nothing to do.
        Promise.resolve(ws.dispose()).catch(() => {});
        client.stop();
      }
      if (how.forget) forgetSession(session.username, storage);
    },
  };
}

/** Where the sync cursor was kept before it moved in with the cache: read once, to migrate. */
const oldSyncCursorKey = (username: string) => `quickphotos.syncCursor.${username}`;

/** forgetSession removes what the browser kept of a session: its cache and sync cursor (an old one too) and its queue. */
function forgetSession(username: string, storage: Storage): void {
  storage.removeItem(`quickphotos.cache.${username}`);
  storage.removeItem(oldSyncCursorKey(username));
  storage.removeItem(`quickphotos.queue.${username}`);
}
