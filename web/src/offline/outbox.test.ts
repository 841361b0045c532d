import { ApolloClient, ApolloLink, InMemoryCache, ServerError } from "@apollo/client";
import { Observable } from "rxjs";
import { describe, expect, it, vi } from "vitest";
import { ViewerStateQuery } from "../features/layout/viewer";
import { optimisticFollow } from "../features/profile/follow";
import { OfflineError } from "../lib/network";
import { Credentials } from "../lib/session";
import { queuedMutations } from "../mutations";
import { Connectivity } from "./connectivity";
import { failOnApolloComplaints, writeNewViewer } from "./heldOutbox.test-helper";
import { holdLink } from "./holdLink";
import { memoryStorage } from "./memoryStorage.test-helper";
import { Outbox } from "./outbox";
import { MutationQueue, type QueuedMutation } from "./queue";

const viewer = { id: "VXNlcjpi", followingCount: 0 };
const ada = { id: "VXNlcjph", username: "ada", followerCount: 3 };

const follow = (id: string): QueuedMutation => ({
  id,
  operationName: "FollowUser",
  variables: { input: { follower: "bo", followed: "ada", clientMutationId: id } },
  optimisticResponse: optimisticFollow(viewer, ada, `pending:${id}`, 1),
  label: "follow ada",
  createdAt: 1,
});

const refusal = (code: string) => ({ data: null, errors: [{ message: code, extensions: { code } }] });

/** A client over link, the viewer's state in its cache, as the screens have it. */
function clientOver(link: ApolloLink) {
  const client = new ApolloClient({ cache: new InMemoryCache(), link });
  writeNewViewer(client.cache, viewer.id);
  /** following is whom the viewer follows as the screens see it. */
  const following = () => client.cache.readQuery({ query: ViewerStateQuery, optimistic: true })?.viewer?.following.edges.map((e) => e.node.id);
  return { client, following };
}

// A queued change replayed (after a reload) against a link that gives one answer, with no hold
// link: what the outbox itself makes of each kind of error.
describe("the outbox and an error", () => {
  const answeredOnce = (answer: ApolloLink.Result | Error) =>
    new ApolloLink(
      () =>
        new Observable((o) => {
          if (answer instanceof Error) return o.error(answer);
          o.next(answer);
          o.complete();
        }),
    );

  const notAboutTheChange: [string, ApolloLink.Result | Error][] = [
    ["UNAUTHENTICATED", refusal("UNAUTHENTICATED")],
    ["LIMIT_EXCEEDED", refusal("LIMIT_EXCEEDED")],
    ["SERVICE_UNAVAILABLE", refusal("SERVICE_UNAVAILABLE")],
    ["INTERNAL_SERVER_ERROR", refusal("INTERNAL_SERVER_ERROR")],
    ["HTTP_ERROR", new ServerError("HTTP 502: the answer is not JSON", { response: new Response("", { status: 502 }), bodyText: "" })],
    ["OFFLINE", new OfflineError(new TypeError("fetch failed"))],
  ];
  for (const [code, answer] of notAboutTheChange) {
    it(`keeps a change answered ${code} pending: it says nothing of the change`, async () => {
      const queue = new MutationQueue(memoryStorage(), "q");
      queue.add(follow("offline-follow"));
      new Outbox(clientOver(answeredOnce(answer)).client, queue, queuedMutations).resume();
      await new Promise((r) => setTimeout(r, 20));
      expect({ pending: queue.pending().map((p) => p.id), failed: queue.failures() }).toEqual({ pending: ["offline-follow"], failed: [] });
    });
  }

  for (const code of ["CONFLICT", "NOT_FOUND", "BAD_USER_INPUT", "FORBIDDEN"]) {
    it(`keeps a change answered ${code} among the failures: the change itself was refused`, async () => {
      const queue = new MutationQueue(memoryStorage(), "q");
      queue.add(follow("offline-follow"));
      new Outbox(clientOver(answeredOnce(refusal(code))).client, queue, queuedMutations).resume();
      await vi.waitFor(() => expect(queue.failures().map((f) => f.refusal.code)).toEqual([code]));
      expect(queue.pending()).toEqual([]);
    });
  }
});

// The app's own chain: the hold link before the network, a real ApolloClient and InMemoryCache.
describe("the outbox behind the hold link", () => {
  failOnApolloComplaints();

  it("shows the optimistic answer, and keeps the change pending, while a busy server is waited out", async () => {
    const answers: ApolloLink.Result[] = [refusal("SERVICE_UNAVAILABLE"), refusal("SERVICE_UNAVAILABLE"), { data: optimisticFollow(viewer, ada, "f1", 1) }];
    let requests = 0;
    let answer!: () => void;
    const network = new ApolloLink(
      () =>
        new Observable((o) => {
          const a = answers[requests++] as ApolloLink.Result;
          answer = () => (o.next(a), o.complete());
        }),
    );
    const online = { isOnline: () => true, listen: () => () => {} };
    const { client, following } = clientOver(ApolloLink.from([holdLink({ connectivity: new Connectivity(online), credentials: new Credentials("t"), retryDelayMs: 1 }), network]));
    const queue = new MutationQueue(memoryStorage(), "q");
    const sent = new Outbox(client, queue, queuedMutations).send(follow("m1"));

    for (const n of [1, 2]) {
      await vi.waitFor(() => expect(requests).toBe(n));
      answer(); // busy
      await new Promise((r) => setTimeout(r, 5));
      expect({ pending: queue.pending().map((p) => p.id), shown: following() }).toEqual({ pending: ["m1"], shown: ["pending:m1"] });
    }
    await vi.waitFor(() => expect(requests).toBe(3));
    answer();
    await sent;
    expect({ pending: queue.pending(), failed: queue.failures(), shown: following() }).toEqual({ pending: [], failed: [], shown: ["f1"] });
  });
});
