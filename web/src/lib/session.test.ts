import { describe, expect, it } from "vitest";
import { Credentials, sessionOfToken } from "./session";

const jwt = (claims: object) => `e30.${btoa(JSON.stringify(claims)).replace(/=+$/, "")}.sig`;

describe("sessionOfToken", () => {
  it("names the user as Cognito's tokens do, or by sub as quickphotos's own", () => {
    expect(sessionOfToken(jwt({ sub: "uuid", "cognito:username": "ada" }))?.username).toBe("ada");
    expect(sessionOfToken(jwt({ sub: "uuid", username: "bo" }))?.username).toBe("bo");
    expect(sessionOfToken(jwt({ sub: "cy" }))).toEqual({ username: "cy", token: jwt({ sub: "cy" }) });
    expect(sessionOfToken("not a token")).toBeUndefined();
  });
});

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
