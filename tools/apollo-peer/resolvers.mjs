// The resolvers of the fields the benchmark's workload uses, and per-request DataLoaders.

import DataLoader from 'dataloader';
import { GraphQLError, Kind, getArgumentValues, getDirectiveValues, GraphQLIncludeDirective, GraphQLSkipDirective, getNamedType } from 'graphql';
import {
  DEFAULT_PAGE_SIZE, badInput, canonicalPhotoKey, notFound, validatePage, validateUsername,
} from './validate.mjs';

// BatchGetItem takes at most 100 keys.
const MAX_BATCH = 100;

const photoCacheKey = (k) => `${k.owner}#${k.timestamp}`;

// createLoaders returns the DataLoaders of one request: profiles and photos by key (one
// BatchGetItem per 100 keys, a GetItem for a key alone), and pages of lists (one Query each; the cache lets a parent and
// its list share the Query that reads both).
export function createLoaders(store) {
  const users = new DataLoader(async (usernames) => {
    const found = await store.getUsers(usernames);
    return usernames.map((u) => found.get(u) ?? null);
  }, { maxBatchSize: MAX_BATCH });
  const photos = new DataLoader(async (keys) => {
    const found = await store.getPhotos(keys);
    return keys.map((k) => found.get(`PHOTO#${k.owner}#${k.timestamp}`) ?? null);
  }, { maxBatchSize: MAX_BATCH, cacheKeyFn: photoCacheKey });

  const pages = (query, cacheKeyOf, primeFrom) => new DataLoader(
    (keys) => Promise.all(keys.map(async (k) => {
      try {
        const page = await query(k.of, k);
        primeFrom(k.of, page);
        return page;
      } catch (err) {
        return err instanceof Error ? err : new Error(String(err));
      }
    })),
    { cacheKeyFn: (k) => JSON.stringify([cacheKeyOf(k.of), k.first, k.after]) },
  );
  const primePhotos = (page) => {
    for (const e of page.edges) photos.prime(e.node, e.node);
  };
  return {
    users,
    photos,
    photoPages: pages((owner, p) => store.photos(owner, p), (o) => o, (owner, page) => {
      primePhotos(page);
      if (page.parent) users.prime(owner, page.parent);
    }),
    followerPages: pages((u, p) => store.followers(u, p), (u) => u, (u, page) => {
      if (page.parent) users.prime(u, page.parent);
    }),
    followingPages: pages((u, p) => store.following(u, p), (u) => u, () => {}),
    reactionPages: pages((k, p) => store.reactions(k, p), photoCacheKey, (k, page) => {
      if (page.parent) photos.prime(k, page.parent);
    }),
  };
}

// pageArgs checks a connection's arguments; an explicit null first means the default.
function pageArgs(first, after) {
  const p = { first: first ?? DEFAULT_PAGE_SIZE, after: after ?? '' };
  validatePage(p.first);
  return p;
}

// selectedPage looks into the selection of the field being resolved for its child field
// named child and returns that child's page arguments, when valid: it lets a profile be read
// by the Query of its followers or photos, and a photo by the Query of its reactions, as the
// single-table design intends (docs/design.md "The table").
function selectedPage(info, child, firstPageOnly) {
  const parentType = getNamedType(info.returnType);
  const def = parentType.getFields()[child];
  for (const node of collectFields(info, info.fieldNodes.flatMap((n) => n.selectionSet?.selections ?? []))) {
    if (node.name.value !== child) continue;
    let args;
    try {
      args = getArgumentValues(def, node, info.variableValues);
    } catch {
      continue; // the child field reports its own error
    }
    const p = { first: args.first ?? DEFAULT_PAGE_SIZE, after: args.after ?? '' };
    if (firstPageOnly && p.after !== '') continue;
    if (!Number.isInteger(p.first) || p.first < 1 || p.first > 100) continue;
    return p;
  }
  return null;
}

// collectFields flattens fragments and honours @skip and @include.
function collectFields(info, selections, out = []) {
  for (const s of selections) {
    if (!included(info, s)) continue;
    if (s.kind === Kind.FIELD) out.push(s);
    else if (s.kind === Kind.INLINE_FRAGMENT) collectFields(info, s.selectionSet.selections, out);
    else if (s.kind === Kind.FRAGMENT_SPREAD) {
      const f = info.fragments[s.name.value];
      if (f) collectFields(info, f.selectionSet.selections, out);
    }
  }
  return out;
}

function included(info, node) {
  const skip = getDirectiveValues(GraphQLSkipDirective, node, info.variableValues);
  if (skip?.if === true) return false;
  const include = getDirectiveValues(GraphQLIncludeDirective, node, info.variableValues);
  return include?.if !== false;
}

// existingUser loads a user that a photo, reaction or friendship refers to: one missing means
// inconsistent data, reported as NOT_FOUND.
async function existingUser(loaders, username) {
  const u = await loaders.users.load(username);
  if (!u) throw notFound(`user "${username}" does not exist`);
  return u;
}

// The fields of a User its username alone answers; followers and following too when their
// totalCount (the profile's counter) is not asked.
const BY_NAME = new Set(['__typename', 'id', 'username', 'photos', 'reactions']);
const COUNTED = new Set(['followers', 'following']);

// askedByName reports whether the field being resolved, a User, asks only for what its
// username answers: then the profile need not be read (docs/design.md, "Access patterns").
function askedByName(info) {
  const fields = collectFields(info, info.fieldNodes.flatMap((n) => n.selectionSet?.selections ?? []));
  return fields.every((f) => BY_NAME.has(f.name.value) || (COUNTED.has(f.name.value)
    && !collectFields(info, f.selectionSet?.selections ?? []).some((c) => c.name.value === 'totalCount')));
}

// relatedUser is the user that a photo, reaction or friendship names: not read when the field
// asks only for what the username answers, since the writes that make those check that their
// users exist, and no user is deleted.
function relatedUser(loaders, username, info) {
  return askedByName(info) ? { username } : existingUser(loaders, username);
}

function connection(page, totalCount) {
  const { edges, hasNextPage } = page;
  return {
    edges,
    pageInfo: { hasNextPage, endCursor: edges.length ? edges[edges.length - 1].cursor : null },
    totalCount,
  };
}

const total = (counts) => Object.values(counts).reduce((a, b) => a + b, 0);

function reactionKey(input) {
  validateUsername('username', input.username);
  return { username: input.username, type: input.type, photo: canonicalPhotoKey(input.owner, input.timestamp) };
}

function friendshipKey(input) {
  validateUsername('follower', input.follower);
  validateUsername('followed', input.followed);
  if (input.follower === input.followed) throw badInput(`a user cannot follow themselves ("${input.follower}")`);
  return { follower: input.follower, followed: input.followed };
}

function notImplemented(field) {
  return () => {
    throw new GraphQLError(`${field} is not implemented by the Apollo peer (see tools/apollo-peer/README.md)`, {
      extensions: { code: 'NOT_IMPLEMENTED' },
    });
  };
}

export const resolvers = {
  // The stored spellings are the enum's internal values.
  ReactionType: { HEART: 'heart', SMILEY: 'smiley', THUMBS_UP: '+1', SUNGLASSES: 'sunglasses' },

  Query: {
    async user(_, { username }, { loaders }, info) {
      validateUsername('username', username);
      // A first page of followers is read by the same Query as the profile.
      const followers = selectedPage(info, 'followers', true);
      if (followers) {
        return (await loaders.followerPages.load({ of: username, ...followers })).parent;
      }
      // So is the last page of photos (the profile sorts just before the oldest photo).
      const photos = selectedPage(info, 'photos', false);
      if (photos) {
        const page = await loaders.photoPages.load({ of: username, ...photos });
        if (page.parent) return page.parent;
        // A user's photos prove the user exists: asked only by name, it need not be read.
        if (page.edges.length > 0 && askedByName(info)) return { username };
      }
      // So do the users they follow; the page is the one the field will ask for (cached).
      const following = selectedPage(info, 'following', false);
      if (following && askedByName(info)) {
        const page = await loaders.followingPages.load({ of: username, ...following });
        if (page.edges.length > 0) return { username };
      }
      return loaders.users.load(username);
    },
    async users(_, { usernames }, { loaders }) {
      if (usernames.length > 100) throw badInput(`usernames: at most 100 usernames, got ${usernames.length}`);
      for (const u of usernames) validateUsername('usernames', u);
      return loaders.users.loadMany(usernames).then((users) => {
        const failed = users.find((u) => u instanceof Error);
        if (failed) throw failed;
        return users;
      });
    },
    async photo(_, { owner, timestamp }, { loaders }, info) {
      const key = canonicalPhotoKey(owner, timestamp);
      // A first page of reactions is read by the same Query on InvertedIndex as the photo.
      const reactions = selectedPage(info, 'reactions', true);
      if (reactions) {
        return (await loaders.reactionPages.load({ of: key, ...reactions })).parent;
      }
      return loaders.photos.load(key);
    },
    viewer: notImplemented('viewer'),
    feed: notImplemented('feed'),
  },

  User: {
    async photos(user, { first, after }, { loaders }) {
      const page = await loaders.photoPages.load({ of: user.username, ...pageArgs(first, after) });
      return connection(page);
    },
    async followers(user, { first, after }, { loaders }) {
      const page = await loaders.followerPages.load({ of: user.username, ...pageArgs(first, after) });
      return connection(page, user.followerCount);
    },
    async following(user, { first, after }, { loaders }) {
      const page = await loaders.followingPages.load({ of: user.username, ...pageArgs(first, after) });
      return connection(page, user.followingCount);
    },
    feed: notImplemented('User.feed'),
    reactions: notImplemented('User.reactions'),
  },

  Photo: {
    owner: (photo, _, { loaders }, info) => relatedUser(loaders, photo.owner, info),
    username: (photo) => photo.owner,
    reactionCounts: ({ counts }) => ({
      heart: counts.heart, smiley: counts.smiley, thumbsUp: counts['+1'], sunglasses: counts.sunglasses, total: total(counts),
    }),
    async reactions(photo, { first, after }, { loaders }) {
      const key = { owner: photo.owner, timestamp: photo.timestamp };
      const page = await loaders.reactionPages.load({ of: key, ...pageArgs(first, after) });
      return connection(page, total(photo.counts));
    },
  },

  Reaction: {
    user: (r, _, { loaders }, info) => relatedUser(loaders, r.username, info),
    async photo(r, _, { loaders }) {
      const p = await loaders.photos.load(r.photo);
      if (!p) throw notFound(`"${r.photo.owner}" has no photo at ${r.photo.timestamp}`);
      return p;
    },
  },

  Friendship: {
    follower: (f, _, { loaders }, info) => relatedUser(loaders, f.follower, info),
    followed: (f, _, { loaders }, info) => relatedUser(loaders, f.followed, info),
  },

  // Each write is one TransactWriteItems; the loaders then forget what it changed, so the
  // fields selected on its result read the new state.
  Mutation: {
    async reactToPhoto(_, { input }, { store, loaders }) {
      const k = reactionKey(input);
      const r = await store.react(k);
      loaders.photos.clear(k.photo);
      return r;
    },
    async removeReaction(_, { input }, { store, loaders }) {
      const k = reactionKey(input);
      const r = await store.removeReaction(k);
      loaders.photos.clear(k.photo);
      return r;
    },
    async followUser(_, { input }, { store, loaders }) {
      const k = friendshipKey(input);
      const f = await store.follow(k);
      loaders.users.clear(k.follower).clear(k.followed);
      return f;
    },
    async unfollowUser(_, { input }, { store, loaders }) {
      const k = friendshipKey(input);
      const f = await store.unfollow(k);
      loaders.users.clear(k.follower).clear(k.followed);
      return f;
    },
    createUser: notImplemented('createUser'),
    updateUser: notImplemented('updateUser'),
    uploadPhoto: notImplemented('uploadPhoto'),
    deletePhoto: notImplemented('deletePhoto'),
  },
};
