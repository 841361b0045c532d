// The sync step: the cache kept in step with the server's change log (docs/offline-sync.md).
//
// The cursor is this tab's, kept in memory: the one stored with the cache the session restored,
// then each one whose changes this tab's cache has applied; it is stored only with that cache
// (offline/persistCache.ts). Another tab's cursor says nothing of this tab's cache.
//
// With no cursor (a first sign-in, no cache restored, a cursor refused), a sync starts: the
// cursor of now is asked for and kept, *then* the screens' queries are read again, so a change
// made between the two comes again after the cursor. Otherwise the changes after the cursor are
// read a page at a time: an upserted object is normalised into the cache by its id with the
// fields the screens show, and put into the lists that show it (the feed, a profile's photos,
// the viewer's reactions and follows); a deleted one is taken out of every list and evicted.
// Once a page is applied the cursor moves to the page's, and the cache is saved with it.
//
// Each run first waits for the mutation queue to drain: the changes then include what the queue
// did, as the server applied it. Runs never overlap; a run asked for while one is going runs
// once more after it (a poke during a catch-up may name changes the catch-up already passed).

import type { ApolloCache, ApolloClient, Reference } from "@apollo/client";
import { CombinedGraphQLErrors } from "@apollo/client";
import { graphql } from "../gql";
import type { SyncChangesQuery as SyncChangesResult } from "../gql/graphql";
import { ViewerStateQuery } from "../features/layout/viewer";
import { atEnd, byTimestamp, byUserThenType, dropFromConnections, insertEdge, removeEdgesWhere } from "./connections";

/** The followed end of a follow, read from the cache when the follow is deleted (see leftFeed). */
export const FollowEndsFragment = graphql(`
  fragment SyncFollowEnds on Friendship {
    id
    followed {
      id
    }
  }
`);

export const SyncStartQuery = graphql(`
  query SyncStart {
    viewer {
      id
      changes {
        cursor
      }
    }
  }
`);

// Each type of the scope with the fragments of the screens that show it, and the fields the
// sync step needs to put an upserted object into its lists.
export const SyncChangesQuery = graphql(`
  query SyncChanges($after: String!) {
    viewer {
      id
      changes(after: $after, first: 100) {
        edges {
          node {
            objectId
            objectType
            operation
            node {
              id
              ... on User {
                ...ProfileHeader_user
                ...FollowButton_user
                ...EditProfile_user
              }
              ... on Photo {
                username
                timestamp
                owner {
                  id
                }
                ...PhotoCard_photo
                ...Thumbnail_photo
              }
              ... on Reaction {
                type
                user {
                  id
                  username
                  name
                }
                photo {
                  id
                }
              }
              ... on Friendship {
                follower {
                  id
                  username
                }
                followed {
                  id
                  username
                }
              }
            }
          }
        }
        pageInfo {
          hasNextPage
        }
        cursor
      }
    }
  }
`);

export const ChangesAvailableSubscription = graphql(`
  subscription ChangesAvailable {
    changesAvailable {
      received
    }
  }
`);

type Change = NonNullable<SyncChangesResult["viewer"]>["changes"]["edges"][number]["node"];

/** The codes of a cursor the server will not read from: start a new sync. */
const refusedCursor = new Set(["CURSOR_EXPIRED", "BAD_USER_INPUT"]);

export interface SyncDeps {
  client: ApolloClient;
  /** cursor is the one stored with the cache the session restored; undefined: none restored. */
  cursor: string | undefined;
  /** drained resolves once the mutation queue is empty. */
  drained: () => Promise<void>;
  /** readScope reads the screens' queries again (a new sync's second step). */
  readScope: () => Promise<unknown>;
  /**
   * saveCache writes the cache to storage at once, with the cursor, once a page is applied. When
   * it cannot (the storage is full), the snapshot stored before stays, with its own cursor.
   */
  saveCache: () => void;
}

export class Sync {
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;
  private at: string | undefined;

  constructor(private readonly deps: SyncDeps) {
    this.at = deps.cursor;
  }

  /** cursor is this tab's cache's: the changes up to it are applied. Undefined when a sync has to start. */
  get cursor(): string | undefined {
    return this.at;
  }

  /** close stops moving the cursor and starting runs: the session ended. */
  close(): void {
    this.closed = true;
  }

  /**
   * run waits for the queue to drain, then starts a sync or catches up. A call while a run is
   * going makes one more run after it; the promise settles when the last one asked for has.
   */
  run(): Promise<void> {
    if (this.running !== undefined) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.deps.drained();
          if (this.closed) return;
          await this.syncOnce();
        } while (this.again && !this.closed);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  private async syncOnce(): Promise<void> {
    const after = this.at;
    if (after === undefined) return this.start();
    return this.catchUp(after);
  }

  /** start keeps the cursor of now, then reads the scope with the screens' queries. */
  private async start(): Promise<void> {
    const { data } = await this.deps.client.query({ query: SyncStartQuery, fetchPolicy: "network-only" });
    // No profile yet: nothing to follow; the next run, once there is one, starts the sync.
    if (!data?.viewer || this.closed) return;
    this.at = data.viewer.changes.cursor;
    forgetPages(this.deps.client.cache, data.viewer.id);
    await this.deps.readScope();
  }

  private async catchUp(cursor: string): Promise<void> {
    let after = cursor;
    for (;;) {
      let page: SyncChangesResult["viewer"];
      try {
        ({ data: { viewer: page } = { viewer: null } } = await this.deps.client.query({
          query: SyncChangesQuery,
          variables: { after },
          fetchPolicy: "network-only",
        }));
      } catch (err) {
        if (CombinedGraphQLErrors.is(err) && err.errors.some((e) => refusedCursor.has(String(e.extensions?.code)))) {
          if (this.closed) return;
          this.at = undefined;
          return this.start();
        }
        throw err;
      }
      if (!page || this.closed) return;
      applyChanges(this.deps.client.cache, page.id, page.changes.edges.map((e) => e.node));
      after = page.changes.cursor;
      this.at = after;
      this.deps.saveCache();
      if (!page.changes.pageInfo.hasNextPage) return;
    }
  }
}

/**
 * applyChanges writes one page of changes into the cache, oldest first. The upserted objects
 * are already normalised (the page's answer wrote them by id); here they go into the lists that
 * show them. The deleted ones are taken out of every connection that holds them, then evicted:
 * the cache drops a dangling reference from a plain list by itself, but not from a
 * connection's edge, whose node would be missing and make every query reading it incomplete.
 * The page's own answer (viewer.changes) is evicted too, so that the pages do not pile up in the
 * saved cache. The screens are told once, when the whole page is in.
 */
export function applyChanges(cache: ApolloCache, viewerId: string, changes: readonly Change[]): void {
  cache.batch({ update: (c) => applyInBatch(c, viewerId, changes) });
}

/** forgetPages evicts the answers of the change log (viewer.changes), every page of them. */
function forgetPages(cache: ApolloCache, viewerId: string): void {
  cache.evict({ id: cache.identify({ __typename: "User", id: viewerId }), fieldName: "changes" });
  cache.gc();
}

function applyInBatch(cache: ApolloCache, viewerId: string, changes: readonly Change[]): void {
  const deleted = new Set<string>();
  for (const c of changes) {
    const ref = cache.identify({ __typename: c.objectType, id: c.objectId });
    if (ref === undefined) continue;
    if (c.operation === "DELETED" || c.node == null) {
      deleted.add(ref);
      continue;
    }
    deleted.delete(ref);
    placeUpsert(cache, viewerId, ref, c.node);
  }
  if (deleted.size > 0) {
    const left = leftFeed(cache, viewerId, deleted);
    dropFromConnections(cache, deleted);
    if (left.size > 0) dropFeedPhotosOf(cache, left);
    for (const ref of deleted) cache.evict({ id: ref });
  }
  forgetPages(cache, viewerId);
}

function placeUpsert(cache: ApolloCache, viewerId: string, ref: string, node: NonNullable<Change["node"]>): void {
  const user = (id: string) => cache.identify({ __typename: "User", id });
  switch (node.__typename) {
    case "Photo": {
      // Newest first, by timestamp (text order is time order), in the owner's photos and, for
      // the photos of the users the viewer follows, in the feed.
      const place = byTimestamp(node.timestamp);
      insertEdge(cache, user(node.owner.id), "photos", ref, "PhotoEdge", place);
      if (node.owner.id !== viewerId) insertEdge(cache, "ROOT_QUERY", "feed", ref, "PhotoEdge", place);
      return;
    }
    case "Reaction":
      if (node.user.id === viewerId) insertEdge(cache, user(viewerId), "reactions", ref, "ReactionEdge", atEnd);
      insertEdge(cache, cache.identify({ __typename: "Photo", id: node.photo.id }), "reactions", ref, "ReactionEdge", byUserThenType(node.user.username, node.type));
      return;
    case "Friendship":
      // The app reads no one's followers, only the viewer's following.
      if (node.follower.id === viewerId) insertEdge(cache, user(viewerId), "following", ref, "FriendshipEdge", atEnd);
      return;
    default:
      // A profile: normalised by its id, it shows wherever it is read.
      return;
  }
}

/**
 * leftFeed is the users whose photos left the viewer's feed with the deleted refs: the followed
 * user of each deleted follow of the viewer's (the protocol's one cascade: an unfollow takes
 * all their photos out of the feed, also those no change lists). A follow in the viewer's
 * changes has the viewer at one end, so one whose followed user is someone else is the
 * viewer's own. Its followed user is read from the cache before it is evicted. A follow the
 * cache does not hold is not the viewer's when the cache holds all the viewer's follows
 * (someone else unfollowed the viewer); otherwise it cannot say whose photos left, and the
 * feed is dropped from the cache (unknown stands for it) for a screen showing it to read again.
 */
function leftFeed(cache: ApolloCache, viewerId: string, deleted: ReadonlySet<string>): Set<string> {
  const users = new Set<string>();
  for (const ref of deleted) {
    if (!ref.startsWith("Friendship:")) continue;
    const follow = cache.readFragment({ id: ref, fragment: FollowEndsFragment });
    if (follow != null) {
      if (follow.followed.id !== viewerId) users.add(follow.followed.id);
    } else if (!holdsAllFollows(cache)) {
      users.add(unknown);
    }
  }
  return users;
}

/** holdsAllFollows reports whether the cache holds every follow of the viewer's. */
function holdsAllFollows(cache: ApolloCache): boolean {
  const viewer = cache.readQuery({ query: ViewerStateQuery })?.viewer;
  return viewer != null && viewer.following.edges.length >= viewer.followingCount;
}

/** unknown, among the users whose photos left the feed, is a follow the cache did not hold. */
const unknown = "";

/** dropFeedPhotosOf takes the photos of owners out of every cached page of the feed. */
function dropFeedPhotosOf(cache: ApolloCache, owners: ReadonlySet<string>): void {
  if (owners.has(unknown)) {
    cache.evict({ id: "ROOT_QUERY", fieldName: "feed" });
    return;
  }
  removeEdgesWhere(cache, "ROOT_QUERY", "feed", (node, readField) => {
    const owner = readField<Reference>("owner", node);
    return owner !== undefined && owners.has(readField<string>("id", owner) ?? "");
  });
}
