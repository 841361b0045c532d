// The app's services, built once per signed-in session and reached through React context.

import { createContext, useContext, useSyncExternalStore } from "react";
import type { Connectivity } from "../offline/connectivity";
import type { Outbox } from "../offline/outbox";
import type { MutationQueue } from "../offline/queue";
import type { Credentials, Session } from "./session";

export interface Services {
  session: Session;
  queue: MutationQueue;
  outbox: Outbox;
  connectivity: Connectivity;
  credentials: Credentials;
  /** syncNow runs the sync step: a profile just made starts its sync at once. */
  syncNow: () => void;
  /** signedInAgain takes the same user's new session after the server refused the token. */
  signedInAgain: (s: Session) => void;
  /** signOut ends the session and removes what the browser kept of it, pending changes included. */
  signOut: () => void;
  /** notify shows a message to the person (a refusal, a rollback). */
  notify: (message: string) => void;
}

export const ServicesContext = createContext<Services | undefined>(undefined);

export function useServices(): Services {
  const s = useContext(ServicesContext);
  if (s === undefined) throw new Error("useServices outside ServicesContext");
  return s;
}

export function useOnline(): boolean {
  const { connectivity } = useServices();
  return useSyncExternalStore(
    (fn) => connectivity.subscribe(fn),
    () => connectivity.online,
  );
}

/** useTokenRefused: whether the server refused the session's token (sign in again). */
export function useTokenRefused(): boolean {
  const { credentials } = useServices();
  return useSyncExternalStore(
    (fn) => credentials.subscribe(fn),
    () => credentials.refused,
  );
}

/** usePending is the queue's pending mutations, re-rendered as they change. */
export function usePending() {
  const { queue } = useServices();
  return useSyncExternalStore(
    (fn) => queue.subscribe(fn),
    () => queue.pending(),
  );
}

export function useFailures() {
  const { queue } = useServices();
  return useSyncExternalStore(
    (fn) => queue.subscribe(fn),
    () => queue.failures(),
  );
}

/** The fetch policy of the screens' queries: from the cache alone while offline. */
export function useReadPolicy(): "cache-only" | "cache-and-network" {
  return useOnline() ? "cache-and-network" : "cache-only";
}
