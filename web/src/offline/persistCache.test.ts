import { describe, expect, it } from "vitest";
import { memoryStorage } from "./memoryStorage.test-helper";
import { cacheSaver } from "./persistCache";

describe("cacheSaver", () => {
  const cache = { extract: () => ({ "User:1": { name: "Ann" } }), restore: () => undefined };

  it("saves a moment after it is asked, once", async () => {
    const storage = memoryStorage();
    const saver = cacheSaver(cache, storage, "k", 5);
    saver.schedule();
    saver.schedule();
    expect(storage.getItem("k")).toBeNull();
    await new Promise((r) => setTimeout(r, 20));
    expect(storage.getItem("k")).toContain("Ann");
  });

  it("writes nothing once stopped, not even the save already scheduled: a cache removed at sign-out stays removed", async () => {
    const storage = memoryStorage();
    const saver = cacheSaver(cache, storage, "k", 5);
    saver.schedule();
    saver.stop();
    saver.schedule();
    expect(saver.flush()).toBe(false);
    await new Promise((r) => setTimeout(r, 20));
    expect(storage.getItem("k")).toBeNull();
  });
});
