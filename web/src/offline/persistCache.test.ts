import { describe, expect, it } from "vitest";
import { memoryStorage } from "./memoryStorage.test-helper";
import { cacheSaver, restoreCache } from "./persistCache";

const cache = { extract: () => ({ "User:1": { name: "Ann" } }), restore: () => undefined };

describe("cacheSaver", () => {
  it("saves a moment after it is asked, once", async () => {
    const storage = memoryStorage();
    const saver = cacheSaver(cache, storage, "k", () => undefined, 5);
    saver.schedule();
    saver.schedule();
    expect(storage.getItem("k")).toBeNull();
    await new Promise((r) => setTimeout(r, 20));
    expect(storage.getItem("k")).toContain("Ann");
  });

  it("writes nothing once stopped, not even the save already scheduled: a cache removed at sign-out stays removed", async () => {
    const storage = memoryStorage();
    const saver = cacheSaver(cache, storage, "k", () => undefined, 5);
    saver.schedule();
    saver.stop();
    saver.schedule();
    expect(saver.flush()).toBe(false);
    await new Promise((r) => setTimeout(r, 20));
    expect(storage.getItem("k")).toBeNull();
  });
});

describe("the cache and its sync cursor", () => {
  const restored = () => {
    let data: unknown;
    return { cache: { extract: () => ({}), restore: (d: unknown) => void (data = d) }, data: () => data };
  };

  it("are stored in one item, and restored together", () => {
    const storage = memoryStorage();
    let cursor: string | undefined = undefined;
    const saver = cacheSaver(cache, storage, "k", () => cursor);
    saver.flush();
    cursor = "c1";
    saver.flush();
    expect([...storage.data.keys()]).toEqual(["k"]);
    const r = restored();
    expect(restoreCache(r.cache, storage, "k", "old")).toEqual({ cursor: "c1" });
    expect(r.data()).toEqual({ "User:1": { name: "Ann" } });
  });

  it("leave the snapshot stored before, with its cursor, when the storage is full", () => {
    const storage = memoryStorage();
    let cursor = "c1";
    const saver = cacheSaver(cache, storage, "k", () => cursor);
    saver.flush();
    const full = {
      ...storage,
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    cursor = "c2";
    expect(cacheSaver(cache, full, "k", () => cursor).flush()).toBe(false);
    expect(restoreCache(restored().cache, storage, "k", "old")).toEqual({ cursor: "c1" });
  });

  it("come from a cache saved alone and the cursor kept apart, as the app stored them before", () => {
    const storage = memoryStorage();
    storage.setItem("k", JSON.stringify({ "User:1": { name: "Ann" } }));
    storage.setItem("old", "c0");
    const r = restored();
    expect(restoreCache(r.cache, storage, "k", "old")).toEqual({ cursor: "c0" });
    expect(r.data()).toEqual({ "User:1": { name: "Ann" } });
    // Another tab may open on the same cache; once one has saved in the new form, the old cursor goes.
    expect(storage.getItem("old")).toBe("c0");
    cacheSaver(cache, storage, "k", () => "c1").flush();
    expect(restoreCache(restored().cache, storage, "k", "old")).toEqual({ cursor: "c1" });
    expect(storage.getItem("old")).toBeNull();
  });

  it("are none with no cache stored: the old cursor goes too, and a sync starts", () => {
    const storage = memoryStorage();
    storage.setItem("old", "c0");
    expect(restoreCache(restored().cache, storage, "k", "old")).toBeUndefined();
    expect(storage.getItem("old")).toBeNull();
  });
});
