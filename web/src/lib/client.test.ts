import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ViewerStateQuery } from "../features/layout/viewer";
import { optimisticFollow } from "../features/profile/follow";
import { memoryStorage } from "../offline/memoryStorage.test-helper";
import type { QueuedMutation } from "../offline/queue";
import { startSession } from "./client";

// A whole session (startSession: the cache, the links, the queue, the sync step) over a fetch
// that answers as the server would; the browser's window, document and WebSocket are stand-ins.

let online = true;
/** What the server was asked: each request's operation and token. */
let asked: { operationName: string; authorization: string }[] = [];

const viewerState = {
  __typename: "Query",
  viewer: {
    __typename: "User",
    id: "VXNlcjpibw==",
    username: "bo",
    name: "Bo",
    followingCount: 0,
    following: { __typename: "FriendshipConnection", edges: [] },
    reactions: { __typename: "ReactionConnection", edges: [] },
  },
};

/** The server: a token it no longer accepts ("expired") is refused with 401 before GraphQL runs, as api/identify.go does. */
async function server(_url: string, init: RequestInit): Promise<Response> {
  const body = JSON.parse(String(init.body)) as { operationName: string };
  const authorization = new Headers(init.headers).get("Authorization") ?? "";
  asked.push({ operationName: body.operationName, authorization });
  const json = (status: number, answer: object) => new Response(JSON.stringify(answer), { status, headers: { "Content-Type": "application/json" } });
  if (authorization === "Bearer expired") return json(401, { errors: [{ message: "token is expired", extensions: { code: "UNAUTHENTICATED" } }] });
  switch (body.operationName) {
    case "FollowUser":
      return json(200, { data: optimisticFollow({ id: "VXNlcjpibw==", followingCount: 0 }, { id: "VXNlcjph", username: "ada", followerCount: 3 }, "f1", 1) });
    case "ViewerState":
      return json(200, { data: viewerState });
    case "SyncStart":
      return json(200, { data: { __typename: "Query", viewer: { __typename: "User", id: "VXNlcjpibw==", changes: { __typename: "SyncChangeConnection", cursor: "c1" } } } });
    default:
      throw new Error(`the test's server does not answer ${body.operationName}`);
  }
}

beforeEach(() => {
  asked = [];
  const listeners = { addEventListener() {}, removeEventListener() {} };
  vi.stubGlobal("window", { ...listeners, navigator: { get onLine() { return online; } }, location: { origin: "http://127.0.0.1:9" } });
  vi.stubGlobal("document", { ...listeners, visibilityState: "visible" });
  // graphql-ws connects lazily, when the poke subscribes; this socket never opens.
  vi.stubGlobal(
    "WebSocket",
    class {
      close() {}
    },
  );
  vi.stubGlobal("fetch", vi.fn(server));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const followAda: QueuedMutation = {
  id: "m1",
  operationName: "FollowUser",
  variables: { input: { follower: "bo", followed: "ada", clientMutationId: "m1" } },
  label: "follow ada",
  createdAt: 1,
};

describe("signing out", () => {
  it("leaves nothing of the user in storage, not even a save scheduled by a late answer", async () => {
    online = false;
    const storage = memoryStorage();
    storage.setItem("quickphotos.queue.bo", JSON.stringify({ pending: [followAda], failed: [] }));
    const s = startSession({ username: "bo", token: "t" }, storage as unknown as Storage);
    // A query answered: the cache is saved a moment later (the save link).
    await s.client.query({ query: ViewerStateQuery, fetchPolicy: "network-only" });
    expect(s.client.cache.extract()).not.toEqual({});

    // Layout's sign out: the session closed, told to forget; then the effect's cleanup closes it again.
    s.close({ forget: true });
    s.close();
    await new Promise((r) => setTimeout(r, 400));
    expect([...storage.data.keys()].filter((k) => k.endsWith(".bo"))).toEqual([]);
  });

  it("keeps the cache of a session merely closed (a reload), for the next one", async () => {
    online = false;
    const storage = memoryStorage();
    const s = startSession({ username: "bo", token: "t" }, storage as unknown as Storage);
    await s.client.query({ query: ViewerStateQuery, fetchPolicy: "network-only" });
    s.close();
    expect(storage.getItem("quickphotos.cache.bo")).toContain("Bo");
  });
});

describe("closing a session", () => {
  it("while its WebSocket is still connecting leaves no rejection unhandled", async () => {
    online = true;
    // A socket that fails a moment after it is made, as one does offline.
    vi.stubGlobal(
      "WebSocket",
      class {
        onclose: ((e: { code: number; reason: string }) => void) | null = null;
        constructor() {
          setTimeout(() => this.onclose?.({ code: 1006, reason: "" }), 20);
        }
        close() {}
      },
    );
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", record);
    try {
      const s = startSession({ username: "bo", token: "t" }, memoryStorage() as unknown as Storage);
      await new Promise((r) => setTimeout(r, 5));
      s.close();
      await new Promise((r) => setTimeout(r, 60));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", record);
    }
  });
});

describe("a token the server no longer accepts", () => {
  it("holds the queue, forgetting nothing, until the same user signs in again; then the change goes once", async () => {
    online = true;
    const storage = memoryStorage();
    storage.setItem("quickphotos.queue.bo", JSON.stringify({ pending: [followAda], failed: [] }));
    storage.setItem("quickphotos.cache.bo", JSON.stringify({ ROOT_QUERY: { __typename: "Query" } }));
    const s = startSession({ username: "bo", token: "expired" }, storage as unknown as Storage);

    await vi.waitFor(() => expect(s.credentials.refused).toBe(true));
    await new Promise((r) => setTimeout(r, 50));
    expect(s.queue.pending().map((m) => m.id)).toEqual(["m1"]);
    expect(s.queue.failures()).toEqual([]);
    expect(storage.getItem("quickphotos.queue.bo")).toContain('"m1"');
    expect(storage.getItem("quickphotos.cache.bo")).not.toBeNull();
    expect(asked.filter((a) => a.operationName === "FollowUser")).toHaveLength(1);

    s.signedInAgain("renewed");
    await vi.waitFor(() => expect(s.queue.pending()).toEqual([]));
    expect(s.queue.failures()).toEqual([]);
    expect(asked.filter((a) => a.operationName === "FollowUser").map((a) => a.authorization)).toEqual(["Bearer expired", "Bearer renewed"]);
    s.close();
  });

  it("has the screens whose reads it refused read again once the person signed in again", async () => {
    online = true;
    const s = startSession({ username: "bo", token: "expired" }, memoryStorage() as unknown as Storage);
    const watched = s.client.watchQuery({ query: ViewerStateQuery });
    const seen = watched.subscribe(() => {});
    await vi.waitFor(() => expect(watched.getCurrentResult().error).toBeDefined());
    expect(s.credentials.refused).toBe(true);

    s.signedInAgain("renewed");
    await vi.waitFor(() => expect(watched.getCurrentResult().data?.viewer?.name).toBe("Bo"));
    expect(s.credentials.refused).toBe(false);
    seen.unsubscribe();
    s.close();
  });
});
