// The argument checks of quickphotos's domain package (validate.go, timestamp.go) that the
// implemented fields need, so that both servers refuse the same input with BAD_USER_INPUT.

import { GraphQLError } from 'graphql';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
const MAX_USERNAME_LENGTH = 64;
const USERNAME = /^[A-Za-z0-9_.-]+$/;

export function badInput(message) {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

export function notFound(message) {
  return new GraphQLError(message, { extensions: { code: 'NOT_FOUND' } });
}

export function conflict(message) {
  return new GraphQLError(message, { extensions: { code: 'CONFLICT' } });
}

// validateUsername: 1 to 64 letters, digits, '_', '-' or '.' (usernames are part of keys).
export function validateUsername(field, username) {
  if (username === '') throw badInput(`${field}: a username is required`);
  if (username.length > MAX_USERNAME_LENGTH) {
    throw badInput(`${field}: a username is at most ${MAX_USERNAME_LENGTH} characters, got ${username.length}`);
  }
  if (!USERNAME.test(username)) {
    throw badInput(`${field}: ${JSON.stringify(username)} is not a valid username: use only letters, digits, '_', '-' and '.'`);
  }
}

// validatePage: first between 1 and 100.
export function validatePage(first) {
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) {
    throw badInput(`first: must be between 1 and ${MAX_PAGE_SIZE}, got ${first}`);
  }
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})?$/;
const FORM = 'UTC as 2019-03-03T18:20:10, or RFC 3339 with a zone (Z or ±hh:mm) like 2019-03-03T20:20:10+02:00';
const MIN_TIMESTAMP = '1900-01-01T00:00:00';
const MAX_TIMESTAMP = '2100-12-31T23:59:59';

// canonicalTimestamp returns ts as UTC to the whole second without a zone (19 characters, so
// that text order is time order: the tutorial's form), the form photos are stored under; a
// timestamp without a zone is read as UTC. BAD_USER_INPUT for a timestamp with a non-zero
// fraction, not a real date and time, or out of range.
export function canonicalTimestamp(field, ts) {
  const m = TIMESTAMP.exec(ts);
  const quoted = JSON.stringify(ts);
  if (!m) throw badInput(`${field}: ${quoted} is not a timestamp: send ${FORM}`);
  const [, year, month, day, hour, minute, second, fraction, zone] = m;
  if (fraction !== undefined && /[1-9]/.test(fraction)) {
    throw badInput(`${field}: ${quoted} has a fraction of a second: timestamps are whole seconds, ${FORM}`);
  }
  let offsetMinutes = 0;
  if (zone !== undefined && zone !== 'Z') {
    const hh = Number(zone.slice(1, 3));
    const mm = Number(zone.slice(4, 6));
    if (hh > 23 || mm > 59) throw badInput(`${field}: ${quoted} has a zone offset out of range: send ${FORM}`);
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (hh * 60 + mm);
  }
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number);
  const local = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  local.setUTCFullYear(y); // Date.UTC maps years 0-99 to 1900-1999
  const real = mo >= 1 && mo <= 12 && h <= 23 && mi <= 59 && s <= 59 &&
    local.getUTCFullYear() === y && local.getUTCMonth() === mo - 1 && local.getUTCDate() === d;
  if (!real) throw badInput(`${field}: ${quoted} is not a real date and time: send ${FORM}`);
  const utc = new Date(local.getTime() - offsetMinutes * 60_000).toISOString();
  const canonical = utc.length === 24 ? utc.slice(0, 19) : null; // years outside 0000-9999 are out of range anyway
  if (canonical === null || canonical < MIN_TIMESTAMP || canonical > MAX_TIMESTAMP) {
    throw badInput(`${field}: ${quoted} is outside ${MIN_TIMESTAMP} through ${MAX_TIMESTAMP} (UTC)`);
  }
  return canonical;
}

// now is the server's clock in the canonical form.
export function now() {
  return new Date().toISOString().slice(0, 19);
}

// canonicalPhotoKey checks the owner and returns the photo's key with the canonical timestamp.
export function canonicalPhotoKey(owner, timestamp) {
  validateUsername('owner', owner);
  return { owner, timestamp: canonicalTimestamp('timestamp', timestamp) };
}
