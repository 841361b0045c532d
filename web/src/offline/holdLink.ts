// holdLink keeps the queued mutations (context.queued) in the order they were made and sends
// each only while the browser is online. A request that never reached the server (OfflineError)
// is sent again, unchanged, after a pause: its clientMutationId makes that safe. Anything
// else, an answer or a refusal, goes to the caller, and the next mutation goes out.

import { ApolloLink } from "@apollo/client";
import { Observable, type Subscription } from "rxjs";
import { OfflineError } from "../lib/network";
import type { Connectivity } from "./connectivity";

export interface QueuedContext {
  queued?: boolean;
}

// Once closed is aborted (the session ended), nothing held is sent: the queue keeps it for the
// next session to send.
export function holdLink(conn: Connectivity, retryDelayMs = 2000, closed?: AbortSignal): ApolloLink {
  let tail: Promise<void> = Promise.resolve();
  return new ApolloLink((op, forward) => {
    if (!(op.getContext() as QueuedContext).queued) return forward(op);
    return new Observable<ApolloLink.Result>((observer) => {
      let cancelled = false;
      let sub: Subscription | undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let release!: () => void;
      const previous = tail;
      tail = new Promise((r) => (release = r));
      const attempt = async (): Promise<void> => {
        await conn.whenOnline();
        if (cancelled) return;
        if (closed?.aborted) {
          release();
          observer.error(new Error("the session ended before the change was sent"));
          return;
        }
        sub = forward(op).subscribe({
          next: (v) => observer.next(v),
          complete: () => {
            release();
            observer.complete();
          },
          error: (err: unknown) => {
            if (err instanceof OfflineError && !cancelled) {
              timer = setTimeout(() => void attempt(), retryDelayMs);
              return;
            }
            release();
            observer.error(err);
          },
        });
      };
      void previous.then(attempt);
      return () => {
        cancelled = true;
        if (timer !== undefined) clearTimeout(timer);
        sub?.unsubscribe();
        release();
      };
    });
  });
}
