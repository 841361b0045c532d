// The outbox sends every change the person makes: it keeps the mutation in the queue until the
// server answers, shows its optimistic result meanwhile (Apollo's optimistic layer, dropped
// when the server refuses: the screen rolls back), and after a reload sends what the queue
// still holds, with the same optimistic results, before the sync step catches up. A refusal
// of the change itself stays in the queue's failures, which the layout shows (in the words of
// the entry's `messages`) until dismissed, whether or not the screen that made the change is
// still open. Anything else (errors.ts, afterError: the network, a busy server, a token the
// server no longer accepts) is no answer about the change: the hold link waits it out and
// sends the change again, and should such an error still reach the outbox (the session
// ended), the entry stays pending for the next session to send.

import type { ApolloClient, MutationUpdaterFunction, OperationVariables, TypedDocumentNode } from "@apollo/client";
import { afterError, refusalOf } from "../lib/errors";
import type { QueuedContext } from "./holdLink";
import type { MutationQueue, QueuedMutation } from "./queue";

/** How one kind of queued mutation is sent and written into the cache. */
export interface MutationKind {
  // The registry holds documents of many types; each screen builds its variables from the
  // generated types before they reach here.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  document: TypedDocumentNode<any, any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  update?: MutationUpdaterFunction<any, any, any>;
}

export type MutationRegistry = Record<string, MutationKind>;

export class Outbox {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private closed = false;

  constructor(
    private readonly client: ApolloClient,
    private readonly queue: MutationQueue,
    private readonly registry: MutationRegistry,
  ) {}

  /** send queues m and sends it; the promise settles with the server's answer or refusal. */
  send(what: Omit<QueuedMutation, "createdAt">): Promise<unknown> {
    const m: QueuedMutation = { ...what, createdAt: Date.now() };
    this.queue.add(m);
    return this.run(m);
  }

  /** close leaves the queue as it is from now on: what is still pending is the next session's. */
  close(): void {
    this.closed = true;
  }

  /** resume sends what the queue held when the page loaded. */
  resume(): void {
    for (const m of this.queue.pending()) {
      this.run(m).catch(() => {
        // Refused: the queue keeps it among the failures, which the app shows; or not sent, and
        // still pending.
      });
    }
  }

  private run(m: QueuedMutation): Promise<unknown> {
    const running = this.inFlight.get(m.id);
    if (running !== undefined) return running;
    const kind = this.registry[m.operationName];
    if (kind === undefined) {
      this.queue.settle(m.id, { code: "BAD_REQUEST", message: `no mutation named ${m.operationName}`, extensions: {} });
      return Promise.reject(new Error(`no mutation named ${m.operationName}`));
    }
    const context: QueuedContext = { queued: true };
    const p = this.client
      .mutate({
        mutation: kind.document,
        variables: m.variables as OperationVariables,
        optimisticResponse: m.optimisticResponse as never,
        update: kind.update,
        context,
      })
      .then(
        (res) => {
          if (!this.closed) this.queue.settle(m.id);
          return res;
        },
        (err: unknown) => {
          const r = refusalOf(err);
          if (!this.closed && afterError(r.code) === "refused") this.queue.settle(m.id, r);
          throw err;
        },
      )
      .finally(() => this.inFlight.delete(m.id));
    this.inFlight.set(m.id, p);
    return p;
  }
}
