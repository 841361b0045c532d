import { ApolloClient, ApolloLink, InMemoryCache } from "@apollo/client";
import { Observable } from "rxjs";
import { describe, expect, it, vi } from "vitest";
import type { Outbox } from "../../offline/outbox";
import { failOnApolloComplaints, heldOutbox } from "../../offline/heldOutbox.test-helper";
import { PhotoQuery } from "./PhotoPage";
import { ViewerStateQuery } from "../layout/viewer";
import { countsAfter, optimisticReact, optimisticUnreact, whyNotReacting } from "./reactions";

describe("countsAfter", () => {
  const counts = { heart: 1, smiley: 0, thumbsUp: 2, sunglasses: 0, total: 3 };
  it("counts a reaction in its type and the total", () => {
    expect(countsAfter(counts, "HEART", 1)).toEqual({ ...counts, heart: 2, total: 4 });
    expect(countsAfter(counts, "THUMBS_UP", -1)).toEqual({ ...counts, thumbsUp: 1, total: 2 });
  });
  it("never counts below zero", () => {
    expect(countsAfter(counts, "SMILEY", -1).smiley).toBe(0);
  });
});

// Reacting through the outbox against a real ApolloClient and InMemoryCache, the photo page's
// query in the cache; the link holds each mutation until the test answers it.
describe("reacting", () => {
  const viewer = { id: "VXNlcjpi", username: "bo", name: "Bo" };
  const counts = { heart: 1, smiley: 0, thumbsUp: 0, sunglasses: 0, total: 1 };
  const vars = { owner: "ada", timestamp: "t1" };

  failOnApolloComplaints();

  function setup() {
    const { client, outbox, answers } = heldOutbox();
    const image = { __typename: "Image", url: "https://img/p1", width: 10, height: 10 };
    client.cache.writeQuery({
      query: PhotoQuery,
      variables: vars,
      data: {
        __typename: "Query",
        photo: {
          __typename: "Photo",
          id: "p1",
          username: "ada",
          timestamp: "t1",
          url: "https://img/p1",
          image,
          owner: { __typename: "User", id: "VXNlcjph", username: "ada", name: "Ada" },
          reactionCounts: { __typename: "ReactionCounts", ...counts },
          reactions: {
            __typename: "ReactionConnection",
            totalCount: 1,
            edges: [{ __typename: "ReactionEdge", node: { __typename: "Reaction", id: "r1", type: "HEART", user: { __typename: "User", id: "VXNlcjph", username: "ada", name: "Ada" } } }],
          },
        },
      } as never,
    });
    /** shown is the photo page's reactions as the screen shows them: total, then (id, type, user's name). */
    const shown = () => {
      const r = client.cache.readQuery({ query: PhotoQuery, variables: vars, optimistic: true })?.photo?.reactions;
      return r && [r.totalCount, ...r.edges.map((e) => `${e.node.id} ${e.node.type} ${e.node.user.name}`)];
    };
    return { outbox, answers, shown };
  }

  const send = (outbox: Outbox, operationName: string, optimisticResponse: object) =>
    outbox.send({
      id: "m1",
      operationName,
      variables: { input: { username: "bo", owner: "ada", timestamp: "t1", type: "SMILEY", clientMutationId: "m1" } },
      optimisticResponse,
      label: "smiley",
    });

  it("shows a new reaction in the photo's list at once, where the server puts it (bo before ada), then as the server answered", async () => {
    const s = setup();
    const sent = send(s.outbox, "ReactToPhoto", optimisticReact(viewer, { id: "p1", reactionCounts: counts }, "SMILEY", "pending:m1"));

    expect(s.shown()).toEqual([2, "pending:m1 SMILEY Bo", "r1 HEART Ada"]);

    await vi.waitFor(() => expect(s.answers).toHaveLength(1));
    s.answers[0]?.(optimisticReact(viewer, { id: "p1", reactionCounts: counts }, "SMILEY", "r2"));
    await sent;
    expect(s.shown()).toEqual([2, "r2 SMILEY Bo", "r1 HEART Ada"]);
  });

  it("takes a removed reaction out of the photo's list at once", async () => {
    const s = setup();
    const sent = send(s.outbox, "RemoveReaction", optimisticUnreact(viewer, { id: "p1", reactionCounts: counts }, "HEART", "r1"));
    expect(s.shown()).toEqual([0]);
    await vi.waitFor(() => expect(s.answers).toHaveLength(1));
    s.answers[0]?.(optimisticUnreact(viewer, { id: "p1", reactionCounts: counts }, "HEART", "r1"));
    await sent;
    expect(s.shown()).toEqual([0]);
  });
});

// What the viewer's query gives while it has no viewer, read from a real ApolloClient as
// useViewer reads it, and what a reaction then says.
describe("reacting with no viewer", () => {
  /** viewerQuery watches ViewerState over a server that answers with answer (or never, without one). */
  async function viewerQuery(answer?: object, fetchPolicy: "cache-first" | "cache-only" = "cache-first") {
    const link = new ApolloLink(
      () =>
        new Observable((o) => {
          if (answer === undefined) return;
          o.next(answer);
          o.complete();
        }),
    );
    const client = new ApolloClient({ cache: new InMemoryCache(), link });
    const q = client.watchQuery({ query: ViewerStateQuery, fetchPolicy });
    q.subscribe(() => {});
    await new Promise((r) => setTimeout(r, 10));
    return q.getCurrentResult();
  }

  it("asks for a profile only when the server says there is none", async () => {
    expect(whyNotReacting(await viewerQuery({ data: { __typename: "Query", viewer: null } }))).toBe("Create your profile before reacting.");
  });

  it("says the profile is loading while it is", async () => {
    expect(whyNotReacting(await viewerQuery())).toBe("Your profile is still loading. Try again in a moment.");
  });

  it("says why the server refused to say who the viewer is", async () => {
    const refused = await viewerQuery({ data: null, errors: [{ message: "token is expired", extensions: { code: "UNAUTHENTICATED" } }] });
    expect(whyNotReacting(refused)).toBe("Your sign-in has expired or is not valid. Sign in again.");
  });

  it("says the profile is not on this device when offline with nothing saved", async () => {
    expect(whyNotReacting(await viewerQuery(undefined, "cache-only"))).toBe("Your profile is not saved on this device: react once you are back online.");
  });
});
