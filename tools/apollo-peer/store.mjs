// The single-table access of quickphotos (docs/design.md "The table" and "Access patterns and
// their request budgets"; dynamo/keys.go, attributes.go, items.go): the same keys, attributes
// and requests.
//
//   PK USER#u          SK #FRIEND#f … #METADATA#u … PHOTO#u#t     followers, profile, photos
//   PK REACTION#r#type SK PHOTO#o#t                               a reaction
//   InvertedIndex: SK PHOTO#o#t  PK REACTION#… … USER#o           a photo's reactions, then the photo
//   InvertedIndex: SK #FRIEND#f  PK USER#u …                      whom f follows

import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand, DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { GraphQLError } from 'graphql';
import { badInput, conflict, notFound, now } from './validate.mjs';

export const INVERTED_INDEX = 'InvertedIndex';

// The reaction types as stored: in reaction keys, in reactionType and as the photo's counters.
export const REACTION_TYPES = ['heart', 'smiley', '+1', 'sunglasses'];

// Keys.
const userPK = (u) => `USER#${u}`;
const metadataSK = (u) => `#METADATA#${u}`;
const photoSK = (p) => `PHOTO#${p.owner}#${p.timestamp}`;
const friendSK = (f) => `#FRIEND#${f}`;
const reactionPK = (u, type) => `REACTION#${u}#${type}`;
export const userKey = (u) => ({ PK: userPK(u), SK: metadataSK(u) });
export const photoKey = (p) => ({ PK: userPK(p.owner), SK: photoSK(p) });
const reactionKey = (r) => ({ PK: reactionPK(r.username, r.type), SK: photoSK(r.photo) });
const friendshipKey = (f) => ({ PK: userPK(f.followed), SK: friendSK(f.follower) });

function cut(s, prefix) {
  return typeof s === 'string' && s.startsWith(prefix) && s.length > prefix.length ? s.slice(prefix.length) : null;
}

// photoKeyFromSK reads "PHOTO#o#t": usernames never hold '#', so the first '#' ends the owner.
function photoKeyFromSK(sk) {
  const rest = cut(sk, 'PHOTO#');
  const i = rest === null ? -1 : rest.indexOf('#');
  if (i <= 0 || i === rest.length - 1) return null;
  return { owner: rest.slice(0, i), timestamp: rest.slice(i + 1) };
}

// Items to the objects the resolvers work with.

function strings(v) {
  if (Array.isArray(v)) return v.filter((s) => typeof s === 'string');
  if (v instanceof Set) return [...v];
  if (typeof v === 'string') return v.trim() === '' ? [] : [v];
  return [];
}

const count = (v) => (typeof v === 'number' ? Math.trunc(v) : 0);
const text = (v) => (typeof v === 'string' ? v : null);

export function userFromItem(item) {
  return {
    username: item.username ?? cut(item.PK, 'USER#'),
    name: text(item.name),
    email: text(item.email),
    birthdate: text(item.birthdate),
    address: text(item.address),
    status: text(item.status),
    interests: strings(item.interests),
    pinnedImage: text(item.pinnedImage),
    followerCount: count(item.followers),
    followingCount: count(item.following),
  };
}

export function photoFromItem(item) {
  const key = photoKeyFromSK(item.SK);
  const counts = {};
  for (const t of REACTION_TYPES) counts[t] = count(item.reactions?.[t]);
  return { owner: key.owner, timestamp: key.timestamp, url: text(item.location) ?? '', counts };
}

function reactionFromItem(item) {
  const rest = cut(item.PK, 'REACTION#');
  const i = rest.indexOf('#');
  return {
    username: rest.slice(0, i),
    type: rest.slice(i + 1),
    photo: photoKeyFromSK(item.SK),
    timestamp: text(item.timestamp) ?? '',
  };
}

function friendshipFromItem(item) {
  return { follower: cut(item.SK, '#FRIEND#'), followed: cut(item.PK, 'USER#'), timestamp: text(item.timestamp) ?? '' };
}

// Cursors: the key of a page's item, tagged with its list, base64url of JSON. Opaque to
// clients; a cursor of another list, or of another user's or photo's list, is BAD_USER_INPUT.

function encodeCursor(list, key) {
  return Buffer.from(JSON.stringify([list, key.PK, key.SK])).toString('base64url');
}

function decodeCursor(after, list, belongs) {
  if (!after) return undefined;
  let parsed;
  try {
    parsed = JSON.parse(Buffer.from(after, 'base64url').toString());
  } catch {
    parsed = null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || parsed[0] !== list ||
      typeof parsed[1] !== 'string' || typeof parsed[2] !== 'string' || !belongs({ PK: parsed[1], SK: parsed[2] })) {
    throw badInput('after: not a cursor of this list');
  }
  return { PK: parsed[1], SK: parsed[2] };
}

// Retries of transaction conflicts and unprocessed keys: bounded exponential backoff with full
// jitter (the SDK itself retries throttling and transient network errors).
const RETRY = { attempts: 8, baseMs: 10, maxMs: 500 };
const backoff = (attempt) => sleep(Math.random() * Math.min(RETRY.maxMs, RETRY.baseMs * 2 ** (attempt - 1)));

function unavailable(message) {
  return new GraphQLError(message, { extensions: { code: 'SERVICE_UNAVAILABLE' } });
}

export class Store {
  constructor({ endpoint, table, region }) {
    const config = { region: region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1' };
    if (endpoint) {
      config.endpoint = endpoint;
      // A local endpoint (the engine, DynamoDB Local) takes any credentials.
      if (!process.env.AWS_ACCESS_KEY_ID && !process.env.AWS_PROFILE) {
        config.credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
      }
    }
    this.client = new DynamoDBClient(config);
    this.doc = DynamoDBDocumentClient.from(this.client);
    this.table = table;
  }

  destroy() {
    this.client.destroy();
  }

  // counted returns this store for one request that counts its DynamoDB requests in cost, by
  // operation: what quickphotos answers in extensions.cost when asked with the header
  // X-Quickphotos-Cost: 1.
  counted(cost) {
    const view = Object.create(this);
    view.cost = cost;
    return view;
  }

  send(operation, command) {
    if (this.cost) {
      this.cost.requests++;
      this.cost.operations[operation] = (this.cost.operations[operation] ?? 0) + 1;
    }
    return this.doc.send(command);
  }

  // batchGet returns the items with these keys that exist, in any order: one BatchGetItem
  // (at most 100 keys: the loaders' maxBatchSize), unprocessed keys retried; one key alone is
  // one GetItem, as quickphotos reads it.
  async batchGet(keys) {
    if (keys.length === 1) {
      const out = await this.send('GetItem', new GetCommand({ TableName: this.table, Key: keys[0] }));
      return out.Item ? [out.Item] : [];
    }
    let request = { [this.table]: { Keys: keys } };
    const items = [];
    for (let attempt = 1; ; attempt++) {
      const out = await this.send('BatchGetItem', new BatchGetCommand({ RequestItems: request }));
      items.push(...(out.Responses?.[this.table] ?? []));
      const unprocessed = out.UnprocessedKeys?.[this.table]?.Keys ?? [];
      if (unprocessed.length === 0) return items;
      if (attempt >= RETRY.attempts) throw unavailable(`the database is busy: ${unprocessed.length} keys stayed unprocessed; retry later`);
      request = out.UnprocessedKeys;
      await backoff(attempt);
    }
  }

  async getUsers(usernames) {
    const items = await this.batchGet(usernames.map(userKey));
    return new Map(items.map((item) => [item.username ?? cut(item.PK, 'USER#'), userFromItem(item)]));
  }

  async getPhotos(keys) {
    const items = await this.batchGet(keys.map(photoKey));
    return new Map(items.map((item) => [item.SK, photoFromItem(item)]));
  }

  // query runs input until it has want items or the key range ends (a page ends at Limit or
  // at 1 MB, so this is one request but for large items).
  async query(input, want) {
    const items = [];
    let start = input.ExclusiveStartKey;
    for (;;) {
      const out = await this.send('Query', new QueryCommand({
        ...input, TableName: this.table, Limit: want - items.length, ExclusiveStartKey: start,
      }));
      items.push(...out.Items);
      if (!out.LastEvaluatedKey || items.length >= want) return items;
      start = out.LastEvaluatedKey;
    }
  }

  // page splits the items of an item-collection Query into the parent it reached (a profile,
  // a photo; null when it did not) and a page of at most first children with their cursors.
  static page(items, isParent, parent, child, first, list) {
    let found = null;
    const edges = [];
    for (const item of items) {
      if (isParent(item)) found = parent(item);
      else edges.push({ cursor: encodeCursor(list, { PK: item.PK, SK: item.SK }), node: child(item) });
    }
    const hasNextPage = edges.length > first;
    edges.length = Math.min(edges.length, first);
    return { parent: found, edges, hasNextPage };
  }

  // photos: a page of owner's photos, newest first, and the profile when the Query reached it
  // (pattern 5: SK BETWEEN "#METADATA#owner" AND "PHOTO$", descending).
  async photos(owner, { first, after }) {
    const start = decodeCursor(after, 'photos', (k) => k.PK === userPK(owner) && k.SK.startsWith(`PHOTO#${owner}#`));
    const items = await this.query({
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :profile AND :end',
      ExpressionAttributeValues: { ':pk': userPK(owner), ':profile': metadataSK(owner), ':end': 'PHOTO$' },
      ScanIndexForward: false,
      ExclusiveStartKey: start,
    }, first + 1);
    return Store.page(items, (i) => i.SK === metadataSK(owner), userFromItem, photoFromItem, first, 'photos');
  }

  // followers: the profile (first pages) and a page of username's followers, in descending
  // order of follower (pattern 9: SK BETWEEN "#FRIEND#" AND "#METADATA#username", descending).
  async followers(username, { first, after }) {
    const start = decodeCursor(after, 'followers', (k) => k.PK === userPK(username) && cut(k.SK, '#FRIEND#') !== null);
    const items = await this.query({
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :low AND :profile',
      ExpressionAttributeValues: { ':pk': userPK(username), ':low': '#FRIEND#', ':profile': metadataSK(username) },
      ScanIndexForward: false,
      ExclusiveStartKey: start,
    }, first + (start ? 1 : 2));
    return Store.page(items, (i) => i.SK === metadataSK(username), userFromItem, friendshipFromItem, first, 'followers');
  }

  // following: a page of the friendships in which username follows someone, by followed
  // user (pattern 10: InvertedIndex, SK = "#FRIEND#username").
  async following(username, { first, after }) {
    const start = decodeCursor(after, 'following', (k) => k.SK === friendSK(username) && cut(k.PK, 'USER#') !== null);
    const items = await this.query({
      IndexName: INVERTED_INDEX,
      KeyConditionExpression: 'SK = :friend',
      ExpressionAttributeValues: { ':friend': friendSK(username) },
      ExclusiveStartKey: start,
    }, first + 1);
    return Store.page(items, () => false, null, friendshipFromItem, first, 'following');
  }

  // reactions: the photo (first pages) and a page of its reactions, in descending order of
  // reacting user (pattern 7: InvertedIndex, SK = "PHOTO#o#t", PK BETWEEN "REACTION#" AND
  // "USER$", descending).
  async reactions(photo, { first, after }) {
    const sk = photoSK(photo);
    const start = decodeCursor(after, 'reactions', (k) => k.SK === sk && cut(k.PK, 'REACTION#') !== null);
    const items = await this.query({
      IndexName: INVERTED_INDEX,
      KeyConditionExpression: 'SK = :photo AND PK BETWEEN :low AND :high',
      ExpressionAttributeValues: { ':photo': sk, ':low': 'REACTION#', ':high': 'USER$' },
      ScanIndexForward: false,
      ExclusiveStartKey: start,
    }, first + (start ? 1 : 2));
    return Store.page(items, (i) => i.PK === userPK(photo.owner), photoFromItem, reactionFromItem, first, 'reactions');
  }

  // transact runs the actions as one TransactWriteItems. A cancellation by a condition throws
  // the error of the first action whose condition failed; conflicts with other transactions
  // are retried.
  async transact(actions) {
    const TransactItems = actions.map(({ write }) => {
      const [kind, body] = Object.entries(write)[0];
      return { [kind]: { ...body, TableName: this.table } };
    });
    for (let attempt = 1; ; attempt++) {
      try {
        await this.send('TransactWriteItems', new TransactWriteCommand({ TransactItems }));
        return;
      } catch (err) {
        const reasons = err.name === 'TransactionCanceledException' ? (err.CancellationReasons ?? []).map((r) => r.Code) : null;
        if (reasons) {
          const failed = reasons.findIndex((code) => code === 'ConditionalCheckFailed');
          if (failed >= 0 && actions[failed]) throw actions[failed].ifFailed;
        }
        const retryable = err.name === 'TransactionInProgressException' ||
          (reasons && reasons.some((c) => ['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded'].includes(c)) &&
            reasons.every((c) => ['None', 'TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded', undefined, ''].includes(c)));
        if (!retryable) throw err;
        if (attempt >= RETRY.attempts) throw unavailable('the write kept conflicting with other writes; retry later');
        await backoff(attempt);
      }
    }
  }

  async getItem(key) {
    const out = await this.send('GetItem', new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true }));
    return out.Item ?? null;
  }

  // react stores a reaction and counts it on the photo (pattern 6).
  async react(k) {
    const r = { ...k, timestamp: now() };
    await this.transact([
      {
        write: { Update: counterUpdate(k.photo, k.type, 1) },
        ifFailed: notFound(`"${k.photo.owner}" has no photo at ${k.photo.timestamp}, or it is being deleted`),
      },
      {
        write: { ConditionCheck: { Key: userKey(k.username), ConditionExpression: 'attribute_exists(PK)' } },
        ifFailed: userNotFound(k.username),
      },
      {
        write: { Put: { Item: reactionItem(r), ConditionExpression: 'attribute_not_exists(PK)' } },
        ifFailed: conflict(`"${k.username}" already reacted with ${k.type} to this photo`),
      },
    ]);
    return r;
  }

  // removeReaction reads the reaction (it is the answer), then deletes it and uncounts it.
  async removeReaction(k) {
    const missing = notFound(`"${k.username}" has not reacted with ${k.type} to "${k.photo.owner}"'s photo at ${k.photo.timestamp}`);
    const item = await this.getItem(reactionKey(k));
    if (!item) throw missing;
    await this.transact([
      { write: { Delete: { Key: reactionKey(k), ConditionExpression: 'attribute_exists(PK)' } }, ifFailed: missing },
      {
        write: { Update: counterUpdate(k.photo, k.type, -1) },
        ifFailed: notFound(`"${k.photo.owner}"'s photo at ${k.photo.timestamp} does not exist or does not count this reaction; nothing was removed`),
      },
    ]);
    return reactionFromItem(item);
  }

  // follow makes follower follow followed and counts it on both profiles (pattern 8).
  async follow(k) {
    const f = { ...k, timestamp: now() };
    await this.transact([
      { write: { Update: followCounter(k.followed, 'followers', 1) }, ifFailed: userNotFound(k.followed) },
      { write: { Update: followCounter(k.follower, 'following', 1) }, ifFailed: userNotFound(k.follower) },
      {
        write: { Put: { Item: friendshipItem(f), ConditionExpression: 'attribute_not_exists(PK)' } },
        ifFailed: conflict(`"${k.follower}" already follows "${k.followed}"`),
      },
    ]);
    return f;
  }

  // unfollow reads the friendship (it is the answer), then deletes it and uncounts it.
  async unfollow(k) {
    const missing = notFound(`"${k.follower}" does not follow "${k.followed}"`);
    const item = await this.getItem(friendshipKey(k));
    if (!item) throw missing;
    const uncounted = (u) => notFound(`user "${u}" does not exist or does not count this friendship; nothing was removed`);
    await this.transact([
      { write: { Delete: { Key: friendshipKey(k), ConditionExpression: 'attribute_exists(PK)' } }, ifFailed: missing },
      { write: { Update: followCounter(k.followed, 'followers', -1) }, ifFailed: uncounted(k.followed) },
      { write: { Update: followCounter(k.follower, 'following', -1) }, ifFailed: uncounted(k.follower) },
    ]);
    return friendshipFromItem(item);
  }
}

function userNotFound(username) {
  return notFound(`user "${username}" does not exist`);
}

// counterUpdate adds delta to the photo's counter of type t: an increment needs the photo to
// exist and not be under deletion, a decrement needs the counter to stay at zero or above.
function counterUpdate(photo, type, delta) {
  const condition = delta > 0
    ? 'attribute_exists(PK) AND attribute_not_exists(#deletion)'
    : 'attribute_exists(PK) AND #reactions.#type >= :least';
  return {
    Key: photoKey(photo),
    UpdateExpression: 'SET #reactions.#type = if_not_exists(#reactions.#type, :zero) + :delta',
    ConditionExpression: condition,
    ExpressionAttributeNames: {
      '#reactions': 'reactions', '#type': type, ...(delta > 0 ? { '#deletion': 'deletion' } : {}),
    },
    ExpressionAttributeValues: { ':zero': 0, ':delta': delta, ...(delta > 0 ? {} : { ':least': -delta }) },
  };
}

// followCounter adds delta to a profile's followers or following counter, if the profile
// exists; a decrement also needs the counter to stay at zero or above.
function followCounter(username, counter, delta) {
  return {
    Key: userKey(username),
    UpdateExpression: 'ADD #counter :delta',
    ConditionExpression: delta > 0 ? 'attribute_exists(PK)' : 'attribute_exists(PK) AND #counter >= :least',
    ExpressionAttributeNames: { '#counter': counter },
    ExpressionAttributeValues: { ':delta': delta, ...(delta > 0 ? {} : { ':least': -delta }) },
  };
}

function reactionItem(r) {
  const key = reactionKey(r);
  return { ...key, reactingUser: r.username, reactionType: r.type, photo: key.SK, timestamp: r.timestamp };
}

function friendshipItem(f) {
  return { ...friendshipKey(f), followedUser: f.followed, followingUser: f.follower, timestamp: f.timestamp };
}
