import { afterEach, describe, expect, it, vi } from "vitest";
import { OfflineError } from "../../lib/network";
import { signIn } from "./signIn";

// The sign-in flow against a fake server: who a token signs in is what GET /auth/caller says,
// never what the token's claims seem to say.

const base = "http://127.0.0.1:9";
const jwt = (claims: object) => `e30.${btoa(JSON.stringify(claims)).replace(/=+$/, "")}.sig`;

/** serve answers /auth/caller with answer, and records the requests it had. */
function serve(answer: (token: string) => Response) {
  const requests: { url: string; method: string; authorization: string | null }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const headers = new Headers(init?.headers);
      requests.push({ url, method: init?.method ?? "GET", authorization: headers.get("Authorization") });
      if (url === `${base}/auth/caller`) return answer(headers.get("Authorization")?.replace(/^Bearer /, "") ?? "");
      if (url === `${base}/auth/dev-sign-in` && init?.method === "POST") {
        const { username } = JSON.parse(String(init.body)) as { username: string };
        return Response.json({ token: `dev-${username}`, username, expiresIn: 43200 });
      }
      return new Response("not found", { status: 404 });
    }),
  );
  return requests;
}

const names = (username: string) => () => Response.json({ username });
const unauthenticated = (message: string) => () =>
  Response.json({ errors: [{ message, extensions: { code: "UNAUTHENTICATED" } }] }, { status: 401, headers: { "WWW-Authenticate": 'Bearer error="invalid_token"' } });

afterEach(() => vi.unstubAllGlobals());

describe("signing in with a token", () => {
  it("takes the username the server reads from its claim, not a claim the app guesses", async () => {
    // A Keycloak token on a server run with --username-claim preferred_username: its sub is an
    // id, and a username claim names someone else.
    const token = jwt({ sub: "f81d4fae-7dec-11d0-a765-00a0c91e6bf6", username: "bo", preferred_username: "ada" });
    const requests = serve(names("ada"));
    await expect(signIn(base, { token })).resolves.toEqual({ username: "ada", token });
    expect(requests).toEqual([{ url: `${base}/auth/caller`, method: "GET", authorization: `Bearer ${token}` }]);
  });

  it("takes a Cognito token's user as the server does, sub included", async () => {
    // A server left at --username-claim sub takes a Cognito token's sub for the username.
    const token = jwt({ sub: "c0ffee00-0000-4000-8000-000000000001", "cognito:username": "ada" });
    serve(names("c0ffee00-0000-4000-8000-000000000001"));
    expect((await signIn(base, { token })).username).toBe("c0ffee00-0000-4000-8000-000000000001");
  });

  it("refuses a token the server refuses, in the server's words", async () => {
    serve(unauthenticated('the token has no "preferred_username" claim to take the username from'));
    await expect(signIn(base, { token: jwt({ sub: "ada" }) })).rejects.toThrow(
      'The server refused this token: the token has no "preferred_username" claim to take the username from',
    );
  });

  it("says so when the server cannot be reached", async () => {
    vi.stubGlobal("fetch", vi.fn(() => Promise.reject(new TypeError("Failed to fetch"))));
    await expect(signIn(base, { token: jwt({ sub: "ada" }) })).rejects.toBeInstanceOf(OfflineError);
  });
});

describe("signing in again as the same user", () => {
  it("accepts a token the server says is that user's, whatever its claims seem to say", async () => {
    const token = jwt({ sub: "f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "cognito:username": "someone" });
    serve(names("ada"));
    await expect(signIn(base, { token }, "ada")).resolves.toEqual({ username: "ada", token });
  });

  it("refuses a token the server says is someone else's, whatever its claims seem to say", async () => {
    serve(names("bo"));
    await expect(signIn(base, { token: jwt({ sub: "ada" }) }, "ada")).rejects.toThrow("That signs in bo, not ada. To change users, sign out.");
  });

  it("signs in by name on a development server, as that name only", async () => {
    serve(names("unused"));
    await expect(signIn(base, { username: "ada" }, "ada")).resolves.toEqual({ username: "ada", token: "dev-ada" });
  });
});
