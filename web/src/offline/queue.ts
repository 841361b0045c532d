// The queue of mutations not yet answered by the server, kept in the browser's storage so that a
// change made offline survives a reload. Each entry is named by its clientMutationId: the
// server answers a replay of the same id and input as it answered the first (docs/api.md,
// "Versions and replay-safe mutations"), so an entry is sent until it gets an answer, never
// "at most once" by guesswork. A refusal moves the entry to the failures, which the app shows
// until the person dismisses them: a conflict is shown, not lost.

import type { Refusal } from "../lib/errors";

export interface QueuedMutation {
  /** The clientMutationId the variables carry. */
  id: string;
  /** The operation's name in the registry of mutations (outbox.ts). */
  operationName: string;
  variables: Record<string, unknown>;
  /** What the cache shows while the mutation is pending. */
  optimisticResponse?: unknown;
  /** What the person did, in words, for the list of pending changes. */
  label: string;
  /** The meanings the screen gives to refusal codes (errors.ts describe's overrides). */
  messages?: Partial<Record<string, string>>;
  createdAt: number;
}

export interface FailedMutation extends QueuedMutation {
  refusal: Refusal;
}

/** The part of the Web Storage API the queue uses. */
export type KeyValueStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

interface Stored {
  pending: QueuedMutation[];
  failed: FailedMutation[];
}

/**
 * MutationQueue is one tab's view of the queue of a user, whose entries every tab of that user
 * shares in one item of storage. Each change re-reads the stored entries and changes only its
 * own entry in them (by id): another tab's entries, added or settled meanwhile, are kept, never
 * overwritten by this tab's view (two tabs offline, one reacting and one following, both
 * closed: both changes are there on reopening). A tab's pending list is what it sends: what it
 * found at start and what it added since; another tab's later entries are that tab's to send,
 * or the next page's to find. The failures are everyone's: refresh, on a `storage` event, shows
 * another tab's.
 */
export class MutationQueue {
  private own: QueuedMutation[];
  private failed: FailedMutation[];
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly storage: KeyValueStorage,
    private readonly key: string,
  ) {
    const stored = load(storage, key);
    this.own = stored.pending;
    this.failed = stored.failed;
  }

  /** pending lists this tab's mutations not yet answered, oldest first. */
  pending(): readonly QueuedMutation[] {
    return this.own;
  }

  /** failures lists the mutations the server refused, oldest first, this tab's and the others'. */
  failures(): readonly FailedMutation[] {
    return this.failed;
  }

  /** add keeps m until it is settled; adding an id already pending does nothing. */
  add(m: QueuedMutation): void {
    if (this.own.some((p) => p.id === m.id)) return;
    this.own = [...this.own, m];
    this.update((s) => (s.pending.some((p) => p.id === m.id) ? s : { ...s, pending: [...s.pending, m] }));
  }

  /** settle removes the mutation id: answered, or refused (then kept as a failure). */
  settle(id: string, refusal?: Refusal): void {
    const m = this.own.find((p) => p.id === id);
    if (m === undefined) return;
    this.own = this.own.filter((p) => p.id !== id);
    this.update((s) => ({
      pending: s.pending.filter((p) => p.id !== id),
      failed: refusal === undefined || s.failed.some((f) => f.id === id) ? s.failed : [...s.failed, { ...m, refusal }],
    }));
  }

  /** dismiss forgets a failure the person has read. */
  dismiss(id: string): void {
    this.update((s) => ({ ...s, failed: s.failed.filter((f) => f.id !== id) }));
  }

  /** refresh reads the failures again: another tab wrote the queue (a `storage` event). */
  refresh(): void {
    this.failed = load(this.storage, this.key).failed;
    this.emit();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** whenEmpty resolves once none of this tab's mutations is pending. */
  whenEmpty(): Promise<void> {
    if (this.own.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const stop = this.subscribe(() => {
        if (this.own.length === 0) {
          stop();
          resolve();
        }
      });
    });
  }

  /**
   * update applies change to the entries as stored now, not to this tab's view of them, and
   * writes them back. Storage full or refused (private browsing): the queue still works for this
   * page's life, with this tab's own entries.
   */
  private update(change: (stored: Stored) => Stored): void {
    const stored = load(this.storage, this.key);
    const next = change(stored);
    this.failed = next.failed;
    try {
      this.storage.setItem(this.key, JSON.stringify(next));
    } catch {
      // kept in memory only, as said above
    }
    this.emit();
  }

  private emit(): void {
    for (const l of [...this.listeners]) l();
  }
}

function load(storage: KeyValueStorage, key: string): Stored {
  const raw = storage.getItem(key);
  if (raw === null) return { pending: [], failed: [] };
  try {
    const parsed = JSON.parse(raw) as Partial<Stored>;
    return {
      pending: Array.isArray(parsed.pending) ? parsed.pending : [],
      failed: Array.isArray(parsed.failed) ? parsed.failed : [],
    };
  } catch {
    storage.removeItem(key);
    return { pending: [], failed: [] };
  }
}

/** newMutationId names a mutation for the server's replay check (1 to 64 printable characters). */
export function newMutationId(): string {
  return crypto.randomUUID();
}
