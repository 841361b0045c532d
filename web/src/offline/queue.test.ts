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

// Two tabs of the same user: two queues over one storage, each with its own view.
describe("MutationQueue in two tabs", () => {
  const ids = (q: MutationQueue) => q.pending().map((p) => p.id);

  it("loses neither tab's change: both offline, one reacts, the other follows, both closed, reopened", () => {
    const storage = memoryStorage();
    const tab1 = new MutationQueue(storage, "k");
    const tab2 = new MutationQueue(storage, "k");
    tab1.add(m("react"));
    tab2.add(m("follow"));
    expect(ids(new MutationQueue(storage, "k"))).toEqual(["react", "follow"]);
  });

  it("keeps the other tab's entries when one settles its own", () => {
    const storage = memoryStorage();
    const tab1 = new MutationQueue(storage, "k");
    const tab2 = new MutationQueue(storage, "k");
    tab1.add(m("a"));
    tab2.add(m("b"));
    tab1.settle("a");
    tab1.add(m("c"));
    tab2.settle("b", { code: "CONFLICT", message: "stale", extensions: {} });
    const reopened = new MutationQueue(storage, "k");
    expect(ids(reopened)).toEqual(["c"]);
    expect(reopened.failures().map((f) => f.id)).toEqual(["b"]);
  });

  it("sends only its own: another tab's later entry does not hold its queue", async () => {
    const storage = memoryStorage();
    const tab1 = new MutationQueue(storage, "k");
    const tab2 = new MutationQueue(storage, "k");
    tab1.add(m("a"));
    expect(ids(tab2)).toEqual([]);
    await tab2.whenEmpty();
  });

  it("shows the other tab's failures once told storage changed, and a dismissal in one is one in both", () => {
    const storage = memoryStorage();
    const tab1 = new MutationQueue(storage, "k");
    const tab2 = new MutationQueue(storage, "k");
    tab1.add(m("a"));
    tab1.settle("a", { code: "NOT_FOUND", message: "gone", extensions: {} });
    tab2.refresh();
    expect(tab2.failures().map((f) => f.id)).toEqual(["a"]);
    tab2.dismiss("a");
    tab1.refresh();
    expect(tab1.failures()).toEqual([]);
    expect(new MutationQueue(storage, "k").failures()).toEqual([]);
  });
});
