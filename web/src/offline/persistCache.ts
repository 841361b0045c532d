// The cache kept in the browser's storage, so that the app opens offline showing what it had.
// Only the cache's confirmed data is stored (extract() leaves the optimistic layers out): what
// a pending mutation shows comes back from the queue, which applies it again.
//
// The sync cursor is stored in the same item, { cursor, cache }, written in one setItem: a
// cursor says the changes up to it are in the cache, which holds only for the cache that
// applied them. Every tab of a user has a cache of its own in memory and writes this one item;
// a cursor kept apart, shared by the tabs, was taken by a tab whose cache had not applied the
// changes before it (another tab's sync had stored it), which then skipped them and saved its
// cache under that cursor.

import type { KeyValueStorage } from "./queue";

export interface Snapshotting {
  extract(): unknown;
  restore(data: never): unknown;
}

/** What is stored under the key: the cache, and the cursor of the changes it has applied (null: none). */
interface Snapshot {
  cursor: string | null;
  cache: unknown;
}

/** What restoreCache found: the cursor stored with the cache, undefined when a sync has to start. */
export interface Restored {
  cursor: string | undefined;
}

/**
 * restoreCache loads what cacheSaver stored, and answers the cursor stored with it; undefined
 * when there was nothing, or nothing that parses (dropped). A cache saved by the app before the
 * cursor moved in (the cache alone, its cursor under oldCursorKey) is read with that cursor; the
 * old key is removed once a snapshot of this form is found (a tab has saved since), or none.
 */
export function restoreCache(cache: Snapshotting, storage: KeyValueStorage, key: string, oldCursorKey: string): Restored | undefined {
  const raw = storage.getItem(key);
  let found: Restored | undefined;
  if (raw !== null) {
    try {
      const stored = JSON.parse(raw) as Snapshot | object;
      if (isSnapshot(stored)) {
        cache.restore(stored.cache as never);
        found = { cursor: stored.cursor ?? undefined };
      } else {
        cache.restore(stored as never);
        return { cursor: storage.getItem(oldCursorKey) ?? undefined };
      }
    } catch {
      storage.removeItem(key);
    }
  }
  storage.removeItem(oldCursorKey);
  return found;
}

/** isSnapshot tells this form from a cache saved alone, whose keys are cache ids (ROOT_QUERY, User:…). */
function isSnapshot(stored: object): stored is Snapshot {
  return "cache" in stored && "cursor" in stored && typeof stored.cache === "object" && stored.cache !== null;
}

/**
 * cacheSaver writes the cache to storage, with cursor() (the cursor of the changes the cache
 * has applied: the sync step's, kept in memory), at most once per delayMs after schedule() is
 * called (each answer from the server calls it), and at once on flush() (when the page is
 * hidden, and once the sync step has applied a page), which says whether it was written. After stop()
 * it writes nothing more, a save already scheduled included: a session that ended, and above
 * all one signed out of, whose cache is removed, must not be written back by an answer that
 * arrives late.
 */
export function cacheSaver(cache: Snapshotting, storage: KeyValueStorage, key: string, cursor: () => string | undefined, delayMs = 300) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const flush = (): boolean => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (stopped) return false;
    try {
      const snapshot: Snapshot = { cursor: cursor() ?? null, cache: cache.extract() };
      storage.setItem(key, JSON.stringify(snapshot));
      return true;
    } catch {
      // Over the storage quota: keep the previous snapshot, and its cursor, rather than none.
      return false;
    }
  };
  return {
    schedule() {
      if (timer === undefined && !stopped) timer = setTimeout(flush, delayMs);
    },
    flush,
    stop() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      stopped = true;
    },
  };
}
