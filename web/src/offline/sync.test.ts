import { describe, expect, it } from "vitest";
import { syncOnReconnect } from "./sync";

describe("syncOnReconnect", () => {
  it("catches up only after the queue has drained", async () => {
    const steps: string[] = [];
    let drain!: () => void;
    const running = syncOnReconnect({
      drained: () => new Promise<void>((r) => (drain = r)).then(() => void steps.push("drained")),
      catchUp: async () => void steps.push("catch up"),
    });
    await Promise.resolve();
    expect(steps).toEqual([]);
    drain();
    await running;
    expect(steps).toEqual(["drained", "catch up"]);
  });
});
