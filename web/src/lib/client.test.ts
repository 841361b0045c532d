import { InMemoryCache } from "@apollo/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ViewerStateQuery } from "../features/layout/viewer";
import { optimisticFollow } from "../features/profile/follow";
import { memoryStorage } from "../offline/memoryStorage.test-helper";
import type { QueuedMutation } from "../offline/queue";
import { type SessionServices, startSession } from "./client";

// A whole session (startSession: the cache, the links, the queue, the sync step) over a fetch
// that answers as the server would; the browser's window, document and WebSocket are stand-ins.

let online = true;
/** What the server was asked: each request's operation and token. */
let asked: { operationName: string; authorization: string }[] = [];
/** What the server's change log answers after a cursor (SyncChanges). */
let changesAfter: Record<string, { deleted: string[]; cursor: string }> = {};
/** hold, awaited before the server answers a request, keeps it back. */
let hold: (operationName: string, authorization: string) => Promise<void> = async () => {};

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
  const body = JSON.parse(String(init.body)) as { operationName: string; variables?: { after?: string } };
  const authorization = new Headers(init.headers).get("Authorization") ?? "";
  asked.push({ operationName: body.operationName + (body.variables?.after ? `(${body.variables.after})` : ""), authorization });
  await hold(body.operationName, authorization);
  const json = (status: number, answer: object) => new Response(JSON.stringify(answer), { status, headers: { "Content-Type": "application/json" } });
  if (authorization === "Bearer expired") return json(401, { errors: [{ message: "token is expired", extensions: { code: "UNAUTHENTICATED" } }] });
  switch (body.operationName) {
    case "FollowUser":
      return json(200, { data: optimisticFollow({ id: "VXNlcjpibw==", followingCount: 0 }, { id: "VXNlcjph", username: "ada", followerCount: 3 }, "f1", 1) });
    case "ViewerState":
      return json(200, { data: viewerState });
    case "SyncStart":
      return json(200, { data: { __typename: "Query", viewer: { __typename: "User", id: "VXNlcjpibw==", changes: { __typename: "SyncChangeConnection", cursor: "c1" } } } });
    case "SyncChanges": {
      const page = changesAfter[body.variables?.after ?? ""];
      if (page === undefined) throw new Error(`the test's server has no changes after ${body.variables?.after}`);
      const edges = page.deleted.map((id) => ({ __typename: "SyncChangeEdge", node: { __typename: "SyncChange", objectId: id, objectType: "Friendship", operation: "DELETED", node: null } }));
      const changes = { __typename: "SyncChangeConnection", edges, pageInfo: { __typename: "PageInfo", hasNextPage: false }, cursor: page.cursor };
      return json(200, { data: { __typename: "Query", viewer: { __typename: "User", id: "VXNlcjpibw==", changes } } });
    }
    default:
      throw new Error(`the test's server does not answer ${body.operationName}`);
  }
}

beforeEach(() => {
  asked = [];
  changesAfter = {};
  hold = async () => {};
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
  it("over the WebSocket (closed with 4403 when it expires) asks to sign in again", async () => {
    online = true;
    // A socket the server acknowledges, then closes as it does at the token's expiry.
    const sent: string[] = [];
    vi.stubGlobal(
      "WebSocket",
      class {
        static OPEN = 1;
        readyState = 0;
        protocol = "graphql-transport-ws";
        onopen: (() => void) | null = null;
        onmessage: ((e: { data: string }) => void) | null = null;
        onclose: ((e: { code: number; reason: string }) => void) | null = null;
        constructor() {
          setTimeout(() => {
            this.readyState = 1;
            this.onopen?.();
          }, 1);
        }
        send(data: string) {
          sent.push(data);
          const type = (JSON.parse(data) as { type: string }).type;
          if (type === "connection_init") setTimeout(() => this.onmessage?.({ data: JSON.stringify({ type: "connection_ack" }) }), 1);
          if (type === "subscribe") setTimeout(() => this.onclose?.({ code: 4403, reason: "Forbidden: the token has expired" }), 1);
        }
        close() {}
      },
    );
    const s = startSession({ username: "bo", token: "expiring" }, memoryStorage() as unknown as Storage);
    try {
      await vi.waitFor(() => expect(s.credentials.refused).toBe(true));
      expect(sent.some((m) => m.includes("Bearer expiring"))).toBe(true);
    } finally {
      s.close();
    }
  });

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

describe("two tabs of a user", () => {
  /** A cache as a session before this app's version saved it: bo follows cy (follow f0), synced up to c0. */
  function savedBefore(storage: ReturnType<typeof memoryStorage>) {
    const cache = new InMemoryCache();
    const f0 = { __typename: "Friendship", id: "f0", follower: { __typename: "User", id: "VXNlcjpibw==" }, followed: { __typename: "User", id: "VXNlcjpj", username: "cy" } };
    const data = { viewer: { ...viewerState.viewer, followingCount: 1, following: { __typename: "FriendshipConnection", edges: [{ __typename: "FriendshipEdge", node: f0 }] } } };
    cache.writeQuery({ query: ViewerStateQuery, data: { __typename: "Query", ...data } as never });
    storage.setItem("quickphotos.cache.bo", JSON.stringify(cache.extract()));
    storage.setItem("quickphotos.syncCursor.bo", "c0");
  }
  const follows = (s: SessionServices) => Object.keys(s.client.cache.extract() as object).filter((k) => k.startsWith("Friendship:"));

  it("each catch up from the cursor of their own cache, and a cursor is stored only with the cache that applied it", async () => {
    online = true;
    const storage = memoryStorage();
    savedBefore(storage);
    // Between c0 and c1 bo unfollowed cy elsewhere.
    changesAfter = { c0: { deleted: ["f0"], cursor: "c1" }, c1: { deleted: [], cursor: "c1" } };
    // Tab 2's change is kept back by the network until tab 1 has caught up.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    hold = (name, authorization) => (name === "FollowUser" && authorization === "Bearer t2" ? released : Promise.resolve());

    const tab1 = startSession({ username: "bo", token: "t1" }, storage as unknown as Storage);
    storage.setItem("quickphotos.queue.bo", JSON.stringify({ pending: [followAda], failed: [] }));
    const tab2 = startSession({ username: "bo", token: "t2" }, storage as unknown as Storage);

    await vi.waitFor(() => expect(follows(tab1)).toEqual([]));
    await new Promise((r) => setTimeout(r, 400)); // tab 1's cache saved
    release();
    await vi.waitFor(() => expect(tab2.queue.pending()).toEqual([]));
    await vi.waitFor(() => expect(asked.filter((a) => a.authorization === "Bearer t2" && a.operationName.startsWith("SyncChanges"))).not.toEqual([]));
    await new Promise((r) => setTimeout(r, 50));

    // Tab 2 asked for the changes after its own cache's cursor, and applied the unfollow.
    expect(asked.filter((a) => a.operationName.startsWith("SyncChanges")).map((a) => `${a.authorization}: ${a.operationName}`)).toEqual([
      "Bearer t1: SyncChanges(c0)",
      "Bearer t2: SyncChanges(c0)",
    ]);
    expect(follows(tab2)).toEqual(["Friendship:f1"]);
    tab1.close();
    tab2.close();

    // Whichever tab saved last, the next session opens on a cache with the unfollow in it.
    online = false;
    const tab3 = startSession({ username: "bo", token: "t3" }, storage as unknown as Storage);
    expect(follows(tab3)).toEqual(["Friendship:f1"]);
    tab3.close();
  });
});
