// holdLink keeps the queued mutations (context.queued) in the order they were made and sends
// each only while the browser is online and the session's token is not refused. One the server
// did not apply for a reason of the moment (errors.ts, afterError: no network, a page that is
// not GraphQL's, a busy or failing server, a spent rate limit) is sent again, unchanged, after a
// pause: its clientMutationId makes that safe. One answered UNAUTHENTICATED marks the token
// refused and waits until the person signs in again, then goes again. Meanwhile the operation
// has not ended, so its optimistic answer stays on screen and the queue keeps it pending (the
// outbox settles an entry only when its operation ends). A refusal of the change itself, or an
// answer, goes to the caller, and the next mutation goes out.

import { ApolloLink } from "@apollo/client";
import { Observable, type Subscription } from "rxjs";
import { afterError, type Refusal, refusalOf, refusalOfAnswer } from "../lib/errors";
import type { Credentials } from "../lib/session";
import type { Connectivity } from "./connectivity";

export interface QueuedContext {
  queued?: boolean;
}

export interface HoldOptions {
  connectivity: Connectivity;
  /** The token the requests carry; refused, the held mutations wait for a new one. */
  credentials: Credentials;
  /** The pause before the first retry; it doubles with each failure, up to maxRetryDelayMs. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Once aborted (the session ended), nothing held is sent: the queue keeps it for the next session. */
  closed?: AbortSignal;
}

/**
 * retryDelay is the pause after the failures-th failure in a row (0 for the first): doubling,
 * so that a server that is down or overloaded is not hammered by every waiting browser, up to a
 * bound, so that a change goes soon after the server is back; never shorter than the wait the
 * server asked for (extensions.retryAfter of LIMIT_EXCEEDED, or an HTTP Retry-After, seconds).
 */
export function retryDelay(failures: number, r: Refusal, baseMs: number, maxMs: number): number {
  const backoff = Math.min(maxMs, baseMs * 2 ** failures);
  const asked = typeof r.extensions.retryAfter === "number" ? r.extensions.retryAfter * 1000 : 0;
  return Math.max(backoff, asked);
}

export function holdLink({ connectivity, credentials, retryDelayMs = 2000, maxRetryDelayMs = 60_000, closed }: HoldOptions): ApolloLink {
  let tail: Promise<void> = Promise.resolve();
  // What a held mutation waits for (the network, a new token) may never come once the session
  // has ended: the end ends the wait.
  const ended = new Promise<void>((resolve) => (closed?.aborted ? resolve() : closed?.addEventListener("abort", () => resolve(), { once: true })));
  return new ApolloLink((op, forward) => {
    if (!(op.getContext() as QueuedContext).queued) return forward(op);
    return new Observable<ApolloLink.Result>((observer) => {
      let cancelled = false;
      let sub: Subscription | undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let failures = 0;
      let release!: () => void;
      const previous = tail;
      tail = new Promise((r) => (release = r));
      const again = (r: Refusal, token: string) => {
        if (cancelled) return;
        if (afterError(r.code) === "signIn") {
          credentials.refuse(token);
          failures = 0;
          void attempt();
          return;
        }
        timer = setTimeout(() => void attempt(), retryDelay(failures++, r, retryDelayMs, maxRetryDelayMs));
      };
      const attempt = async (): Promise<void> => {
        await Promise.race([connectivity.whenOnline(), ended]);
        await Promise.race([credentials.whenAccepted(), ended]);
        if (cancelled) return;
        if (closed?.aborted) {
          release();
          observer.error(new Error("the session ended before the change was sent"));
          return;
        }
        // The token this request carries: the links below read it now.
        const token = credentials.token;
        let notApplied: Refusal | undefined;
        sub = forward(op).subscribe({
          next: (answer) => {
            const r = refusalOfAnswer(answer);
            if (r !== undefined && afterError(r.code) !== "refused") notApplied = r;
            else observer.next(answer);
          },
          complete: () => {
            if (notApplied !== undefined) return again(notApplied, token);
            release();
            observer.complete();
          },
          error: (err: unknown) => {
            const r = refusalOf(err);
            if (afterError(r.code) !== "refused" && !cancelled) return again(r, token);
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
