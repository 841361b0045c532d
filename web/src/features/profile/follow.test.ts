import { describe, expect, it, vi } from "vitest";
import type { Outbox } from "../../offline/outbox";
import { failOnApolloComplaints, heldOutbox, writeNewViewer } from "../../offline/heldOutbox.test-helper";
import { ViewerStateQuery } from "../layout/viewer";
import { optimisticFollow } from "./follow";

// Following through the outbox against a real ApolloClient and InMemoryCache, the viewer's
// state in the cache; the link holds each mutation until the test answers it.
describe("following", () => {
  const viewer = { id: "VXNlcjpi", followingCount: 0 };
  const ada = { id: "VXNlcjph", username: "ada", followerCount: 3 };

  failOnApolloComplaints();

  function setup() {
    const { client, outbox, answers } = heldOutbox();
    writeNewViewer(client.cache, viewer.id);
    /** shown is whom the viewer follows as the screens see it: their count, then the follows (id, username). */
    const shown = () => {
      const v = client.cache.readQuery({ query: ViewerStateQuery, optimistic: true })?.viewer;
      return v && [v.followingCount, ...v.following.edges.map((e) => `${e.node.id} ${e.node.followed.username}`)];
    };
    return { outbox, answers, shown };
  }

  const send = (outbox: Outbox, operationName: string, optimisticResponse: object) =>
    outbox.send({
      id: "m1",
      operationName,
      variables: { input: { follower: "bo", followed: "ada", clientMutationId: "m1" } },
      optimisticResponse,
      label: "follow ada",
    });

  it("shows a new follow in the viewer's following at once, then as the server answered", async () => {
    const s = setup();
    const sent = send(s.outbox, "FollowUser", optimisticFollow(viewer, ada, "pending:m1", 1));
    expect(s.shown()).toEqual([1, "pending:m1 ada"]);

    await vi.waitFor(() => expect(s.answers).toHaveLength(1));
    s.answers[0]?.(optimisticFollow(viewer, ada, "f1", 1));
    await sent;
    expect(s.shown()).toEqual([1, "f1 ada"]);
  });

  it("takes an unfollowed user out of the viewer's following at once", async () => {
    const s = setup();
    const followed = send(s.outbox, "FollowUser", optimisticFollow(viewer, ada, "pending:m1", 1));
    await vi.waitFor(() => expect(s.answers).toHaveLength(1));
    s.answers[0]?.(optimisticFollow(viewer, ada, "f1", 1));
    await followed;

    const sent = send(s.outbox, "UnfollowUser", optimisticFollow({ ...viewer, followingCount: 1 }, { ...ada, followerCount: 4 }, "f1", -1));
    expect(s.shown()).toEqual([0]);
    await vi.waitFor(() => expect(s.answers).toHaveLength(2));
    s.answers[1]?.(optimisticFollow({ ...viewer, followingCount: 1 }, { ...ada, followerCount: 4 }, "f1", -1));
    await sent;
    expect(s.shown()).toEqual([0]);
  });
});
