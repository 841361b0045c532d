// Lists in the cache: a Relay connection as Apollo's InMemoryCache holds it, a field whose
// value is { edges: [{ node: Reference }], totalCount?, pageInfo? }, one per set of arguments.
// The mutations' updates and the sync step put edges into these lists and take them out here,
// by the same rules: a node is in a list at most once, and a count the list carries follows
// its edges. A field the cache does not hold (no screen read it) is left alone: a screen that
// reads it later asks the server.

import type { ApolloCache, Reference } from "@apollo/client";
import { graphql } from "../gql";

type Edge = { __typename?: string; node?: Reference };
type Connection = { edges?: readonly Edge[]; totalCount?: number | null; pageInfo?: { hasNextPage?: boolean } };
export type ReadField = <T>(fieldName: string, from: Reference | undefined) => T | undefined;

/** Where a new edge goes in a list: an index, or undefined for not in this list's pages. */
export type Placement = (edges: readonly Edge[], conn: Connection, readField: ReadField) => number | undefined;

/** The lists used as sets (the viewer's first 100 reactions and follows): at the end. */
export const atEnd: Placement = (edges) => edges.length;

/**
 * byTimestamp places a photo before the first older one. One older than every photo loaded
 * goes at the end only when the list has no further page (it would come with that page).
 */
export function byTimestamp(timestamp: string): Placement {
  return (edges, conn, readField) => {
    const i = edges.findIndex((e) => (readField<string>("timestamp", e.node) ?? "") < timestamp);
    if (i >= 0) return i;
    return conn.pageInfo?.hasNextPage === false ? edges.length : undefined;
  };
}

/**
 * The server's order of a photo's reactions (dynamo/keys.go, reactionPK, read descending on
 * InvertedIndex): by the text "user#type", the type in its stored spelling, descending. So by
 * user, descending, and a user's reactions sunglasses, smiley, heart, then thumbs up.
 */
const storedReactionType: Record<string, string> = { THUMBS_UP: "+1", HEART: "heart", SMILEY: "smiley", SUNGLASSES: "sunglasses" };
const reactionOrderKey = (username: string, type: string) => `${username}#${storedReactionType[type] ?? type}`;

/**
 * byUserThenType places a reaction of username's of type in a photo's reactions as the server
 * orders them: before the first one that sorts after it. One sorting after every reaction
 * loaded goes at the end only when the list is known to be complete (no further page, or as
 * many edges as its totalCount): otherwise it would come with a later page.
 */
export function byUserThenType(username: string, type: string): Placement {
  const key = reactionOrderKey(username, type);
  return (edges, conn, readField) => {
    const i = edges.findIndex((e) => {
      const user = readField<Reference>("user", e.node);
      return reactionOrderKey(readField<string>("username", user) ?? "", readField<string>("type", e.node) ?? "") < key;
    });
    if (i >= 0) return i;
    const complete = conn.pageInfo?.hasNextPage === false || (conn.pageInfo === undefined && typeof conn.totalCount === "number" && edges.length >= conn.totalCount);
    return complete ? edges.length : undefined;
  };
}

function isConnection(v: unknown): v is Connection & { edges: readonly Edge[] } {
  return v !== null && typeof v === "object" && Array.isArray((v as Connection).edges);
}

/** withEdges is conn with edges, its totalCount (when it has one) moved by the change in length. */
function withEdges(conn: Connection & { edges: readonly Edge[] }, edges: readonly Edge[]): Connection {
  if (typeof conn.totalCount !== "number") return { ...conn, edges };
  return { ...conn, edges, totalCount: Math.max(0, conn.totalCount + edges.length - conn.edges.length) };
}

/**
 * insertEdge puts ref, in an edge of edgeType, into every cached page of the connection
 * fieldName of the object id that lacks it, where place says (at the end unless told).
 */
export function insertEdge(cache: ApolloCache, id: string | undefined, fieldName: string, ref: string, edgeType: string, place: Placement = atEnd): void {
  if (id === undefined) return;
  cache.modify({
    id,
    fields: {
      [fieldName](existing: unknown, { readField }) {
        if (!isConnection(existing) || existing.edges.some((e) => e.node?.__ref === ref)) return existing;
        const at = place(existing.edges, existing, readField as ReadField);
        if (at === undefined) return existing;
        return withEdges(existing, [...existing.edges.slice(0, at), { __typename: edgeType, node: { __ref: ref } }, ...existing.edges.slice(at)]);
      },
    },
  });
}

/** without is the connection existing with the edges whose node is gone taken out, or existing itself when none is. */
function without(existing: unknown, gone: (node: Reference) => boolean): unknown {
  if (!isConnection(existing)) return existing;
  const edges = existing.edges.filter((e) => e.node === undefined || !gone(e.node));
  return edges.length === existing.edges.length ? existing : withEdges(existing, edges);
}

/**
 * removeEdgesWhere takes the edges whose node is gone out of every cached page of the
 * connection fieldName of the object id; gone may read the node's fields with readField.
 */
export function removeEdgesWhere(cache: ApolloCache, id: string | undefined, fieldName: string, gone: (node: Reference, readField: ReadField) => boolean): void {
  if (id === undefined) return;
  cache.modify({ id, fields: { [fieldName]: (existing: unknown, { readField }) => without(existing, (node) => gone(node, readField as ReadField)) } });
}

/** removeEdge takes the edges whose node is one of refs out of every cached page of the connection fieldName of the object id. */
export function removeEdge(cache: ApolloCache, id: string | undefined, fieldName: string, refs: string | ReadonlySet<string>): void {
  const set = typeof refs === "string" ? new Set([refs]) : refs;
  removeEdgesWhere(cache, id, fieldName, (node) => set.has(node.__ref));
}

/** removeFromEveryConnection takes the edges whose node is one of refs out of every connection of every object in the cache. */
function removeFromEveryConnection(cache: ApolloCache, refs: ReadonlySet<string>): void {
  for (const id of Object.keys(cache.extract(false) as Record<string, unknown>)) {
    cache.modify({ id, fields: (existing: unknown) => without(existing, (node) => refs.has(node.__ref)) });
  }
}

// What the cache holds of a deleted object that says which lists it can be in.
const PhotoListsFragment = graphql(`
  fragment ConnectionsPhotoLists on Photo {
    id
    owner {
      id
    }
  }
`);
const ReactionListsFragment = graphql(`
  fragment ConnectionsReactionLists on Reaction {
    id
    user {
      id
    }
    photo {
      id
    }
  }
`);
const FriendshipListsFragment = graphql(`
  fragment ConnectionsFriendshipLists on Friendship {
    id
    follower {
      id
    }
  }
`);

/** A list an object can be in: the connection fieldName of the object id. */
export interface ListOf {
  id: string | undefined;
  fieldName: string;
}

/**
 * listsHolding names the lists of the app's queries that can hold ref: a photo its owner's
 * photos and the feed, a reaction its photo's and its user's reactions, a follow its
 * follower's following. It is [] when the cache does not hold ref (its edges are written with
 * their nodes, and an object leaves the lists before it leaves the cache, so no list holds
 * it), and undefined when it cannot say (another type, or a field that says where the cache
 * has not read): look in every list then.
 */
export function listsHolding(cache: ApolloCache, ref: string): ListOf[] | undefined {
  const [typename, ...rest] = ref.split(":");
  const id = rest.join(":");
  const read = <T,>(fragment: Parameters<ApolloCache["readFragment"]>[0]["fragment"]) =>
    cache.readFragment({ id: ref, fragment, returnPartialData: true, optimistic: false }) as (T & { id?: string }) | null;
  const user = (u: { id?: string } | undefined) => (u?.id === undefined ? undefined : cache.identify({ __typename: "User", id: u.id }));
  switch (typename) {
    case "Photo": {
      const p = read<{ owner?: { id?: string } }>(PhotoListsFragment);
      if (p?.id !== id) return [];
      const owner = user(p.owner);
      if (owner === undefined) return undefined;
      return [
        { id: "ROOT_QUERY", fieldName: "feed" },
        { id: owner, fieldName: "photos" },
      ];
    }
    case "Reaction": {
      const r = read<{ user?: { id?: string }; photo?: { id?: string } }>(ReactionListsFragment);
      if (r?.id !== id) return [];
      const by = user(r.user);
      if (by === undefined || r.photo?.id === undefined) return undefined;
      return [
        { id: by, fieldName: "reactions" },
        { id: cache.identify({ __typename: "Photo", id: r.photo.id }), fieldName: "reactions" },
      ];
    }
    case "Friendship": {
      const f = read<{ follower?: { id?: string } }>(FriendshipListsFragment);
      if (f?.id !== id) return [];
      const follower = user(f.follower);
      return follower === undefined ? undefined : [{ id: follower, fieldName: "following" }];
    }
    default:
      return undefined;
  }
}

/**
 * dropFromConnections takes the edges whose node is one of refs out of every connection in the
 * cache: out of the lists each can be in (listsHolding), and only for those it cannot say, out of
 * every list of every object.
 */
export function dropFromConnections(cache: ApolloCache, refs: ReadonlySet<string>): void {
  const unplaced = new Set<string>();
  const byList = new Map<string, { list: ListOf; refs: Set<string> }>();
  for (const ref of refs) {
    const lists = listsHolding(cache, ref);
    if (lists === undefined) {
      unplaced.add(ref);
      continue;
    }
    for (const list of lists) {
      if (list.id === undefined) continue;
      const key = `${list.id}.${list.fieldName}`;
      const entry = byList.get(key) ?? { list, refs: new Set<string>() };
      entry.refs.add(ref);
      byList.set(key, entry);
    }
  }
  for (const { list, refs: inList } of byList.values()) removeEdge(cache, list.id, list.fieldName, inList);
  if (unplaced.size > 0) removeFromEveryConnection(cache, unplaced);
}
