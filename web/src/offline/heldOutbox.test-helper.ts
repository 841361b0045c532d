import { type ApolloCache, ApolloClient, ApolloLink, InMemoryCache } from "@apollo/client";
import { Observable } from "rxjs";
import { afterEach, beforeEach, expect, type MockInstance, vi } from "vitest";
import { ViewerStateQuery } from "../features/layout/viewer";
import { queuedMutations } from "../mutations";
import { memoryStorage } from "./memoryStorage.test-helper";
import { Outbox } from "./outbox";
import { MutationQueue } from "./queue";

/**
 * An Outbox over a real ApolloClient and InMemoryCache whose link holds each operation until
 * the test answers it (answers[i] answers the i-th), so a test sees the cache while a mutation
 * is in flight, as the screens do.
 */
export function heldOutbox() {
  const answers: ((data: object) => void)[] = [];
  const link = new ApolloLink(
    () =>
      new Observable((o) => {
        answers.push((data) => {
          o.next({ data } as ApolloLink.Result);
          o.complete();
        });
      }),
  );
  const client = new ApolloClient({ cache: new InMemoryCache(), link });
  const outbox = new Outbox(client, new MutationQueue(memoryStorage(), "queue"), queuedMutations);
  return { client, outbox, answers };
}

/**
 * Fails each test of the suite in which Apollo complained on the console of what it could not
 * write as asked, such as an answer without its __typename ("Missing field", console.error):
 * the app's answers write cleanly.
 */
export function failOnApolloComplaints() {
  let complaints: MockInstance[];
  beforeEach(() => {
    complaints = [vi.spyOn(console, "error"), vi.spyOn(console, "warn")];
  });
  afterEach(() => {
    for (const c of complaints) {
      expect(c).not.toHaveBeenCalled();
      c.mockRestore();
    }
  });
}

/** writeNewViewer writes the viewer's state as the screens have it for bo (viewerId), who follows no one and reacted to nothing. */
export function writeNewViewer(cache: ApolloCache, viewerId: string) {
  cache.writeQuery({
    query: ViewerStateQuery,
    data: {
      __typename: "Query",
      viewer: {
        __typename: "User",
        id: viewerId,
        username: "bo",
        name: null,
        followingCount: 0,
        following: { __typename: "FriendshipConnection", edges: [] },
        reactions: { __typename: "ReactionConnection", edges: [] },
      },
    },
  });
}
