import { describe, expect, it } from "vitest";
import { memoryStorage } from "./memoryStorage.test-helper";
import { MutationQueue, type QueuedMutation } from "./queue";

const m = (id: string): QueuedMutation => ({ id, operationName: "ReactToPhoto", variables: { input: { clientMutationId: id } }, label: `m ${id}`, createdAt: 1 });

describe("MutationQueue", () => {
  it("keeps pending mutations across instances on the same storage (a reload)", () => {
    const storage = memoryStorage();
    const q = new MutationQueue(storage, "k");
    q.add(m("a"));
    q.add(m("b"));
    const reloaded = new MutationQueue(storage, "k");
    expect(reloaded.pending().map((p) => p.id)).toEqual(["a", "b"]);
  });

  it("adds an id once", () => {
    const q = new MutationQueue(memoryStorage(), "k");
    q.add(m("a"));
    q.add(m("a"));
    expect(q.pending()).toHaveLength(1);
  });

  it("settles an answered mutation away and keeps a refused one as a failure", () => {
    const storage = memoryStorage();
    const q = new MutationQueue(storage, "k");
    q.add(m("a"));
    q.add(m("b"));
    q.settle("a");
    q.settle("b", { code: "CONFLICT", message: "stale", extensions: { current: { version: 3 } } });
    expect(q.pending()).toEqual([]);
    const reloaded = new MutationQueue(storage, "k");
    expect(reloaded.failures().map((f) => [f.id, f.refusal.code])).toEqual([["b", "CONFLICT"]]);
    reloaded.dismiss("b");
    expect(new MutationQueue(storage, "k").failures()).toEqual([]);
  });

  it("resolves whenEmpty once the last pending mutation settles", async () => {
    const q = new MutationQueue(memoryStorage(), "k");
    q.add(m("a"));
    let done = false;
    const empty = q.whenEmpty().then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    q.settle("a");
    await empty;
    expect(done).toBe(true);
  });

  it("starts empty from a store that does not parse, and drops it", () => {
    const storage = memoryStorage();
    storage.setItem("k", "{not json");
    const q = new MutationQueue(storage, "k");
    expect(q.pending()).toEqual([]);
    expect(storage.getItem("k")).toBeNull();
  });
});
