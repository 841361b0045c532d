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

export class MutationQueue {
  private state: Stored;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly storage: KeyValueStorage,
    private readonly key: string,
  ) {
    this.state = load(storage, key);
  }

  /** pending lists the mutations not yet answered, oldest first. */
  pending(): readonly QueuedMutation[] {
    return this.state.pending;
  }

  /** failures lists the mutations the server refused, oldest first. */
  failures(): readonly FailedMutation[] {
    return this.state.failed;
  }

  /** add keeps m until it is settled; adding an id already pending does nothing. */
  add(m: QueuedMutation): void {
    if (this.state.pending.some((p) => p.id === m.id)) return;
    this.update({ ...this.state, pending: [...this.state.pending, m] });
  }

  /** settle removes the mutation id: answered, or refused (then kept as a failure). */
  settle(id: string, refusal?: Refusal): void {
    const m = this.state.pending.find((p) => p.id === id);
    if (m === undefined) return;
    const pending = this.state.pending.filter((p) => p.id !== id);
    const failed = refusal === undefined ? this.state.failed : [...this.state.failed, { ...m, refusal }];
    this.update({ pending, failed });
  }

  /** dismiss forgets a failure the person has read. */
  dismiss(id: string): void {
    this.update({ ...this.state, failed: this.state.failed.filter((f) => f.id !== id) });
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** whenEmpty resolves once no mutation is pending. */
  whenEmpty(): Promise<void> {
    if (this.state.pending.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const stop = this.subscribe(() => {
        if (this.state.pending.length === 0) {
          stop();
          resolve();
        }
      });
    });
  }

  private update(next: Stored): void {
    this.state = next;
    try {
      this.storage.setItem(this.key, JSON.stringify(next));
    } catch {
      // Storage full or refused (private browsing): the queue still works for this page's life.
    }
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
