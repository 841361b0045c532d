// The list editing against a real InMemoryCache, its lists written as the screens' queries
// write them.

import { InMemoryCache } from "@apollo/client";
import { parse } from "graphql";
import { describe, expect, it, vi } from "vitest";
import { FeedQuery } from "../features/feed/Feed";
import { ViewerStateQuery } from "../features/layout/viewer";
import { PhotoCard_photo } from "../features/photo/PhotoCard";
import { PhotoQuery } from "../features/photo/PhotoPage";
import { byTimestamp, byUserThenType, dropFromConnections, insertEdge, listsHolding, removeEdge, removeEdgesWhere } from "./connections";

const viewerId = "VXNlcjpi";
const ownerId = "VXNlcjph";
const counts = { __typename: "ReactionCounts", heart: 0, smiley: 0, thumbsUp: 0, sunglasses: 0, total: 0 };

function photo(id: string, timestamp: string, owner = ownerId) {
  const image = { __typename: "Image", url: `https://img/${id}`, width: 10, height: 10 };
  return {
    __typename: "Photo",
    id,
    username: "ada",
    timestamp,
    url: `https://img/${id}`,
    image,
    owner: { __typename: "User", id: owner, username: "ada", name: "Ada" },
    reactionCounts: counts,
  };
}

function reaction(id: string, userId: string, username: string, type = "HEART") {
  return { __typename: "Reaction", id, type, user: { __typename: "User", id: userId, username, name: null } };
}

function seedFeed(cache: InMemoryCache, photos: object[], opts: { after?: string; hasNextPage?: boolean } = {}) {
  cache.writeQuery({
    query: FeedQuery,
    variables: { first: 10, ...(opts.after ? { after: opts.after } : {}) },
    data: {
      __typename: "Query",
      feed: {
        __typename: "PhotoConnection",
        edges: photos.map((node) => ({ __typename: "PhotoEdge", node })),
        pageInfo: { __typename: "PageInfo", hasNextPage: opts.hasNextPage ?? false, endCursor: "e" },
      },
    } as never,
  });
}

function feedIds(cache: InMemoryCache, after?: string): string[] | undefined {
  const diff = cache.diff({ query: FeedQuery, variables: { first: 10, ...(after ? { after } : {}) }, optimistic: false });
  return diff.complete ? diff.result?.feed.edges.map((e) => e.node.id) : undefined;
}

/** seedPhotoPage writes the photo page's query: photo p1 with the given reactions and totalCount. */
function seedPhotoPage(cache: InMemoryCache, reactions: object[], totalCount = reactions.length) {
  cache.writeQuery({
    query: PhotoQuery,
    variables: { owner: "ada", timestamp: "t1" },
    data: {
      __typename: "Query",
      photo: {
        ...photo("p1", "t1"),
        reactions: { __typename: "ReactionConnection", totalCount, edges: reactions.map((node) => ({ __typename: "ReactionEdge", node })) },
      },
    } as never,
  });
}

function photoReactions(cache: InMemoryCache) {
  const r = cache.readQuery({ query: PhotoQuery, variables: { owner: "ada", timestamp: "t1" } })?.photo?.reactions;
  return r && { totalCount: r.totalCount, ids: r.edges.map((e) => e.node.id) };
}

/** seedViewer writes the viewer's state: their follows (to followed user ids) and reactions (to photo ids). */
function seedViewer(cache: InMemoryCache, follows: [string, string][], reactions: [string, string][]) {
  cache.writeQuery({
    query: ViewerStateQuery,
    data: {
      __typename: "Query",
      viewer: {
        __typename: "User",
        id: viewerId,
        username: "bo",
        name: null,
        followingCount: follows.length,
        following: {
          __typename: "FriendshipConnection",
          edges: follows.map(([id, followed]) => ({ __typename: "FriendshipEdge", node: { __typename: "Friendship", id, follower: { __typename: "User", id: viewerId }, followed: { __typename: "User", id: followed, username: followed } } })),
        },
        reactions: {
          __typename: "ReactionConnection",
          edges: reactions.map(([id, p]) => ({ __typename: "ReactionEdge", node: { __typename: "Reaction", id, type: "HEART", user: { __typename: "User", id: viewerId }, photo: { __typename: "Photo", id: p } } })),
        },
      },
    } as never,
  });
}

// Fragments to write single objects with, as the app's answers would (parsed here, not
// documents of the app's: codegen does not take them).
const reactionFragment = parse(`
  fragment TestReaction on Reaction {
    id
    type
    user {
      id
      username
      name
    }
  }
`);
const reactionPhotoFragment = parse(`
  fragment TestReactionPhoto on Reaction {
    id
    photo {
      id
    }
  }
`);
const followerFragment = parse(`
  fragment TestFollower on Friendship {
    id
    follower {
      id
    }
  }
`);

describe("insertEdge", () => {
  it("puts a node at the end of a list once, counting it", () => {
    const cache = new InMemoryCache();
    seedPhotoPage(cache, [reaction("r1", ownerId, "ada")], 7);
    cache.writeFragment({ fragment: reactionFragment, data: reaction("r2", viewerId, "bo") });
    insertEdge(cache, "Photo:p1", "reactions", "Reaction:r2", "ReactionEdge");
    insertEdge(cache, "Photo:p1", "reactions", "Reaction:r2", "ReactionEdge");
    expect(photoReactions(cache)).toEqual({ totalCount: 8, ids: ["r1", "r2"] });
  });

  it("places a photo by its timestamp", () => {
    const cache = new InMemoryCache();
    seedFeed(cache, [photo("p3", "2026-11-28"), photo("p1", "2026-11-26")], { hasNextPage: true });
    cache.writeFragment({ fragment: PhotoCard_photo, fragmentName: "PhotoCard_photo", data: photo("p2", "2026-11-27") as never });
    insertEdge(cache, "ROOT_QUERY", "feed", "Photo:p2", "PhotoEdge", byTimestamp("2026-11-27"));
    expect(feedIds(cache)).toEqual(["p3", "p2", "p1"]);
  });

  it("does not put a photo older than every loaded one into a list with more pages, but does into a complete one", () => {
    const more = new InMemoryCache();
    seedFeed(more, [photo("p3", "2026-11-28")], { hasNextPage: true });
    insertEdge(more, "ROOT_QUERY", "feed", "Photo:p0", "PhotoEdge", byTimestamp("2026-11-01"));
    expect(feedIds(more)).toEqual(["p3"]);

    const complete = new InMemoryCache();
    seedFeed(complete, [photo("p3", "2026-11-28")]);
    complete.writeFragment({ fragment: PhotoCard_photo, fragmentName: "PhotoCard_photo", data: photo("p0", "2026-11-01") as never });
    insertEdge(complete, "ROOT_QUERY", "feed", "Photo:p0", "PhotoEdge", byTimestamp("2026-11-01"));
    expect(feedIds(complete)).toEqual(["p3", "p0"]);
  });

  it("places a reaction in a photo's list as the server orders it: by user, descending, then type", () => {
    const cache = new InMemoryCache();
    // The server's order: "user#type" descending, types by their stored spelling (+1, heart, smiley, sunglasses).
    seedPhotoPage(cache, [reaction("r1", "U-zoe", "zoe"), reaction("r2", "U-mia", "mia", "SMILEY"), reaction("r3", "U-mia", "mia", "THUMBS_UP"), reaction("r4", "U-ada", "ada")]);
    const put = (id: string, username: string, type: string) => {
      cache.writeFragment({ fragment: reactionFragment, data: reaction(id, `U-${username}`, username, type) });
      insertEdge(cache, "Photo:p1", "reactions", `Reaction:${id}`, "ReactionEdge", byUserThenType(username, type));
    };
    put("n1", "mia", "HEART"); // between mia's smiley and thumbs up
    put("n2", "mia", "SUNGLASSES"); // before mia's smiley
    put("n3", "mi", "SMILEY"); // "mia#…" > "mi#…": after every mia's
    put("n4", "zz", "THUMBS_UP"); // first
    put("n5", "a", "HEART"); // last: the list is complete (totalCount was its length)
    expect(photoReactions(cache)).toEqual({ totalCount: 9, ids: ["n4", "r1", "n2", "r2", "n1", "r3", "n3", "r4", "n5"] });
  });

  it("does not put a reaction that sorts after every loaded one into a photo's list with more", () => {
    const cache = new InMemoryCache();
    seedPhotoPage(cache, [reaction("r1", "U-zoe", "zoe")], 5);
    cache.writeFragment({ fragment: reactionFragment, data: reaction("n1", "U-ada", "ada", "HEART") });
    insertEdge(cache, "Photo:p1", "reactions", "Reaction:n1", "ReactionEdge", byUserThenType("ada", "HEART"));
    expect(photoReactions(cache)).toEqual({ totalCount: 5, ids: ["r1"] });
    cache.writeFragment({ fragment: reactionFragment, data: reaction("n2", "U-zz", "zz", "HEART") });
    insertEdge(cache, "Photo:p1", "reactions", "Reaction:n2", "ReactionEdge", byUserThenType("zz", "HEART"));
    expect(photoReactions(cache)).toEqual({ totalCount: 6, ids: ["n2", "r1"] });
  });

  it("leaves a list the cache does not hold alone", () => {
    const cache = new InMemoryCache();
    seedViewer(cache, [], []);
    insertEdge(cache, `User:${viewerId}`, "followers", "Friendship:f1", "FriendshipEdge");
    expect(cache.extract()[`User:${viewerId}`]).not.toHaveProperty("followers");
  });
});

describe("removeEdge", () => {
  it("takes a node out of every page of a list, counting it", () => {
    const cache = new InMemoryCache();
    seedFeed(cache, [photo("p3", "2026-11-28"), photo("p2", "2026-11-27")], { hasNextPage: true });
    seedFeed(cache, [photo("p2", "2026-11-27"), photo("p1", "2026-11-26")], { after: "e" });
    removeEdge(cache, "ROOT_QUERY", "feed", "Photo:p2");
    expect(feedIds(cache)).toEqual(["p3"]);
    expect(feedIds(cache, "e")).toEqual(["p1"]);

    seedPhotoPage(cache, [reaction("r1", ownerId, "ada"), reaction("r2", viewerId, "bo")], 9);
    removeEdge(cache, "Photo:p1", "reactions", new Set(["Reaction:r1", "Reaction:r9"]));
    expect(photoReactions(cache)).toEqual({ totalCount: 8, ids: ["r2"] });
  });

  it("removeEdgesWhere takes out the nodes the test names, reading their fields", () => {
    const cache = new InMemoryCache();
    seedFeed(cache, [photo("p3", "2026-11-28", "VXNlcjpj"), photo("p2", "2026-11-27")]);
    removeEdgesWhere(cache, "ROOT_QUERY", "feed", (node, readField) => readField<string>("timestamp", node) === "2026-11-28");
    expect(feedIds(cache)).toEqual(["p2"]);
  });
});

describe("listsHolding", () => {
  it("names the lists a held object can be in, from its own fields", () => {
    const cache = new InMemoryCache();
    seedFeed(cache, [photo("p2", "2026-11-27")]);
    seedPhotoPage(cache, [reaction("r1", ownerId, "ada")]);
    expect(listsHolding(cache, "Photo:p2")).toEqual([
      { id: "ROOT_QUERY", fieldName: "feed" },
      { id: `User:${ownerId}`, fieldName: "photos" },
    ]);
    cache.writeFragment({ fragment: reactionPhotoFragment, data: { __typename: "Reaction", id: "r1", photo: { __typename: "Photo", id: "p1" } } });
    expect(listsHolding(cache, "Reaction:r1")).toEqual([
      { id: `User:${ownerId}`, fieldName: "reactions" },
      { id: "Photo:p1", fieldName: "reactions" },
    ]);
  });

  it("names none for an object the cache does not hold, and cannot say when a field that places it is unread", () => {
    const cache = new InMemoryCache();
    cache.writeFragment({ fragment: reactionPhotoFragment, data: { __typename: "Reaction", id: "r1", photo: { __typename: "Photo", id: "p1" } } });
    cache.writeFragment({ fragment: parse(`fragment TestFriendship on Friendship { id }`), data: { __typename: "Friendship", id: "f1" } });
    expect(listsHolding(cache, "Photo:p9")).toEqual([]);
    expect(listsHolding(cache, "Friendship:f9")).toEqual([]);
    // r1 is held without its user, f1 without its follower.
    expect(listsHolding(cache, "Reaction:r1")).toBeUndefined();
    expect(listsHolding(cache, "Friendship:f1")).toBeUndefined();
    expect(listsHolding(cache, `User:${viewerId}`)).toBeUndefined();
  });

  it("places the viewer's reactions from what the viewer's query reads", () => {
    const cache = new InMemoryCache();
    seedViewer(cache, [], [["r1", "p1"]]);
    expect(listsHolding(cache, "Reaction:r1")).toEqual([
      { id: `User:${viewerId}`, fieldName: "reactions" },
      { id: "Photo:p1", fieldName: "reactions" },
    ]);
  });
});

describe("dropFromConnections", () => {
  it("takes deleted objects out of the lists they are in without looking through the whole cache", () => {
    const cache = new InMemoryCache();
    seedFeed(cache, [photo("p2", "2026-11-27"), photo("p1", "2026-11-26")]);
    seedViewer(cache, [["f1", ownerId]], []);
    cache.writeFragment({ fragment: followerFragment, data: { __typename: "Friendship", id: "f1", follower: { __typename: "User", id: viewerId } } });
    seedPhotoPage(cache, [reaction("r1", ownerId, "ada"), reaction("r2", viewerId, "bo")]);
    cache.writeFragment({ fragment: reactionPhotoFragment, data: { __typename: "Reaction", id: "r1", photo: { __typename: "Photo", id: "p1" } } });
    const extract = vi.spyOn(cache, "extract");

    dropFromConnections(cache, new Set(["Photo:p2", "Friendship:f1", "Reaction:r1", "Photo:p9"]));

    expect(extract).not.toHaveBeenCalled();
    expect(feedIds(cache)).toEqual(["p1"]);
    expect(cache.readQuery({ query: ViewerStateQuery })?.viewer?.following.edges).toEqual([]);
    expect(photoReactions(cache)).toEqual({ totalCount: 1, ids: ["r2"] });
  });

  it("takes a reaction the sync finds deleted out of the viewer's reactions without looking through the whole cache", () => {
    const cache = new InMemoryCache();
    seedViewer(cache, [], [["r1", "p1"], ["r2", "p1"]]);
    const extract = vi.spyOn(cache, "extract");
    dropFromConnections(cache, new Set(["Reaction:r1"]));
    expect(extract).not.toHaveBeenCalled();
    expect(cache.readQuery({ query: ViewerStateQuery })?.viewer?.reactions.edges.map((e) => e.node.id)).toEqual(["r2"]);
  });

  it("takes a follow the sync finds deleted out of the viewer's follows without looking through the whole cache", () => {
    const cache = new InMemoryCache();
    seedViewer(cache, [["f1", ownerId], ["f2", "VXNlcjpj"]], []);
    const extract = vi.spyOn(cache, "extract");
    dropFromConnections(cache, new Set(["Friendship:f1"]));
    expect(extract).not.toHaveBeenCalled();
    expect(cache.readQuery({ query: ViewerStateQuery })?.viewer?.following.edges.map((e) => e.node.id)).toEqual(["f2"]);
  });

  it("looks through every list for an object it cannot place", () => {
    const cache = new InMemoryCache();
    // Follows read without their follower (as a query of an earlier build of the app did):
    // f1 cannot say where it is.
    const follows = parse(`
      query TestFollows {
        viewer {
          id
          following(first: 100) {
            edges {
              node {
                id
              }
            }
          }
        }
      }
    `);
    const edge = (id: string) => ({ __typename: "FriendshipEdge", node: { __typename: "Friendship", id } });
    cache.writeQuery({
      query: follows,
      data: { viewer: { __typename: "User", id: viewerId, following: { __typename: "FriendshipConnection", edges: [edge("f1"), edge("f2")] } } },
    });
    const extract = vi.spyOn(cache, "extract");
    dropFromConnections(cache, new Set(["Friendship:f1"]));
    expect(extract).toHaveBeenCalled();
    const left = cache.readQuery<{ viewer: { following: { edges: { node: { id: string } }[] } } }>({ query: follows });
    expect(left?.viewer.following.edges.map((e) => e.node.id)).toEqual(["f2"]);
  });
});
