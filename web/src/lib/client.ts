// Builds the Apollo Client of one signed-in session: a plain InMemoryCache (every object the
// app reads has a Node id, which is all the cache needs to normalise it), restored from and
// saved to the browser's storage; links that send document ids, over HTTP for queries and
// mutations and over graphql-ws for subscriptions; the mutation queue and its sync step.

import { ApolloClient, ApolloLink, InMemoryCache } from "@apollo/client";
import { OperationTypeNode } from "graphql";
import { createClient } from "graphql-ws";
import { tap } from "rxjs";
import { queuedMutations } from "../mutations";
import { browserOnline, Connectivity } from "../offline/connectivity";
import { holdLink } from "../offline/holdLink";
import { Outbox } from "../offline/outbox";
import { cacheSaver, restoreCache } from "../offline/persistCache";
import { MutationQueue } from "../offline/queue";
import { syncOnReconnect } from "../offline/sync";
import { httpLink, wsLink } from "./documentIdLink";
import { apiBase, websocketURL } from "./network";
import type { Session } from "./session";

export interface SessionServices {
  client: ApolloClient;
  queue: MutationQueue;
  outbox: Outbox;
  connectivity: Connectivity;
  /** close stops the WebSocket, the sync and the saving of the cache. */
  close: () => void;
}

export function startSession(session: Session, storage: Storage = window.localStorage): SessionServices {
  const endpoint = { url: `${apiBase()}/graphql`, token: () => session.token };
  const cacheKey = `quickphotos.cache.${session.username}`;
  const cache = new InMemoryCache();
  restoreCache(cache, storage, cacheKey);
  const saver = cacheSaver(cache, storage, cacheKey);

  const connectivity = new Connectivity(browserOnline());
  const ended = new AbortController();
  const ws = createClient({
    url: websocketURL(endpoint.url),
    connectionParams: () => ({ Authorization: `Bearer ${session.token}` }),
    lazy: true,
    retryAttempts: Number.POSITIVE_INFINITY,
    shouldRetry: () => true,
  });
  // Each answer from the server is saved, a moment later, with the cache.
  const save = new ApolloLink((op, forward) => forward(op).pipe(tap(() => saver.schedule())));
  const link = ApolloLink.from([
    save,
    ApolloLink.split((op) => op.operationType === OperationTypeNode.SUBSCRIPTION, wsLink(ws), ApolloLink.from([holdLink(connectivity, 2000, ended.signal), httpLink(endpoint)])),
  ]);
  const client = new ApolloClient({ cache, link });

  const queue = new MutationQueue(storage, `quickphotos.queue.${session.username}`);
  const outbox = new Outbox(client, queue, queuedMutations);
  outbox.resume();

  const stopSync = connectivity.subscribe((online) => {
    if (!online) return;
    void syncOnReconnect({
      drained: () => queue.whenEmpty(),
      catchUp: () => client.refetchQueries({ include: "active" }),
    });
  });
  const onHide = () => saver.flush();
  window.addEventListener("pagehide", onHide);

  return {
    client,
    queue,
    outbox,
    connectivity,
    close: () => {
      // First the outbox and the hold link, so that nothing ending with the client settles the
      // queue or sends what it holds: a session started after this one sends it.
      outbox.close();
      ended.abort();
      stopSync();
      window.removeEventListener("pagehide", onHide);
      saver.flush();
      void ws.dispose();
      client.stop();
    },
  };
}

/** forgetSession removes what the browser kept of a session: its cache and its queue. */
export function forgetSession(username: string, storage: Storage = window.localStorage): void {
  storage.removeItem(`quickphotos.cache.${username}`);
  storage.removeItem(`quickphotos.queue.${username}`);
}
