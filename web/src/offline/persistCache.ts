// The cache kept in the browser's storage, so that the app opens offline showing what it had.
// Only the cache's confirmed data is stored (extract() leaves the optimistic layers out): what
// a pending mutation shows comes back from the queue, which applies it again.

import type { KeyValueStorage } from "./queue";

export interface Snapshotting {
  extract(): unknown;
  restore(data: never): unknown;
}

/** restoreCache loads what saveCache stored; a store that does not parse is dropped. */
export function restoreCache(cache: Snapshotting, storage: KeyValueStorage, key: string): boolean {
  const raw = storage.getItem(key);
  if (raw === null) return false;
  try {
    cache.restore(JSON.parse(raw) as never);
    return true;
  } catch {
    storage.removeItem(key);
    return false;
  }
}

/**
 * cacheSaver writes the cache to storage at most once per delayMs after schedule() is called
 * (each answer from the server calls it), and at once on flush() (when the page is hidden, and
 * before the sync step stores a cursor), which says whether the cache was written. After stop()
 * it writes nothing more, a save already scheduled included: a session that ended, and above
 * all one signed out of, whose cache is removed, must not be written back by an answer that
 * arrives late.
 */
export function cacheSaver(cache: Snapshotting, storage: KeyValueStorage, key: string, delayMs = 300) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const flush = (): boolean => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (stopped) return false;
    try {
      storage.setItem(key, JSON.stringify(cache.extract()));
      return true;
    } catch {
      // Over the storage quota: keep the previous snapshot rather than none.
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
