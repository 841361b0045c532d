import { describe, expect, it } from "vitest";
import { Credentials } from "./session";

describe("Credentials", () => {
  it("waits, once its token is refused, until a new one is given", async () => {
    const c = new Credentials("t1");
    c.refuse("t1");
    let accepted = false;
    const waiting = c.whenAccepted().then(() => (accepted = true));
    await Promise.resolve();
    expect([c.refused, accepted]).toEqual([true, false]);
    c.renew("t2");
    await waiting;
    expect([c.refused, c.token]).toEqual([false, "t2"]);
  });

  it("ignores the refusal of a token it no longer carries", () => {
    const c = new Credentials("t1");
    c.renew("t2");
    c.refuse("t1");
    expect(c.refused).toBe(false);
  });
});
