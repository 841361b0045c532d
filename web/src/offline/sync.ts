// The sync step, run each time the browser comes back online: first every queued mutation is
// sent (and answered), then the screens catch up with what others changed meanwhile.
//
// Catching up is, for now, refetching the queries on screen. When the server offers the changes
// since a cursor (issue 34), this module is the one place that changes: it asks for the changes
// since the cursor it stored and writes them into the cache, and stores the new cursor.

export interface SyncDeps {
  /** drained resolves once the mutation queue is empty. */
  drained: () => Promise<void>;
  /** catchUp brings the cache up to date with the server (today: refetch the active queries). */
  catchUp: () => Promise<unknown>;
}

export async function syncOnReconnect(deps: SyncDeps): Promise<void> {
  await deps.drained();
  await deps.catchUp();
}
