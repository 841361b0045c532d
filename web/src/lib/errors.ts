// The app's one vocabulary of errors: every refusal the server can answer, by its
// extensions.code (api/errortable.go, docs/api.md), turned into a sentence a person
// understands. Screens pass the codes whose meaning depends on what they asked (a CONFLICT from
// reacting means "already reacted") and take the rest from here.

import { CombinedGraphQLErrors, ServerError } from "@apollo/client";
import type { GraphQLFormattedError } from "graphql";
import { OfflineError } from "./network";

/** One refusal, as the app reasons about it: a code and the server's own message. */
export interface Refusal {
  code: string;
  message: string;
  /** extensions of the first error, e.g. `current` of a stale version's CONFLICT. */
  extensions: Record<string, unknown>;
}

/** Codes the app did not get from a GraphQL answer: the network, or an answer that is not GraphQL. */
export const OFFLINE = "OFFLINE";
export const HTTP_ERROR = "HTTP_ERROR";

const messages: Record<string, string | ((r: Refusal) => string)> = {
  BAD_USER_INPUT: (r) => `That was not accepted: ${r.message}`,
  NOT_FOUND: "That no longer exists: it may have been deleted.",
  CONFLICT: "Someone changed this at the same time; the page now shows the latest.",
  UNAUTHENTICATED: "Your sign-in has expired or is not valid. Sign in again.",
  FORBIDDEN: "You are not allowed to do that.",
  CURSOR_EXPIRED: "What this device saved is too old to bring up to date: the app reads it again from the server.",
  LIMIT_EXCEEDED: (r) => {
    const after = typeof r.extensions.retryAfter === "number" ? r.extensions.retryAfter : undefined;
    return after === undefined
      ? "Too many requests for now. Try again in a moment."
      : `Too many requests for now. Try again in ${Math.ceil(after)} s.`;
  },
  QUERY_LIMIT_EXCEEDED: "The server refused a request as too large. Please report this.",
  SERVICE_UNAVAILABLE: "The server is busy. Try again in a moment.",
  INTERNAL_SERVER_ERROR: "Something went wrong on the server. Try again later.",
  GRAPHQL_PARSE_FAILED: "This app sent a request the server could not read. Reload the app.",
  GRAPHQL_VALIDATION_FAILED: "This app does not match the server's version. Reload the app.",
  PERSISTED_DOCUMENT_NOT_FOUND: "This app does not match the server's version. Reload the app.",
  PERSISTED_DOCUMENT_REQUIRED: "The server runs only its own apps' requests. Reload the app.",
  PERSISTED_QUERY_NOT_FOUND: "The server forgot a request this app sent. Try again.",
  BAD_REQUEST: "The server could not take this request. Reload the app.",
  [OFFLINE]: "You are offline. This will be sent when you are back online.",
  [HTTP_ERROR]: "The server did not answer as expected. Try again later.",
};

/**
 * What becomes of a change the server did not apply, by the code of the error (the outbox and
 * the hold link act on it):
 *  - "refused": the server refused the change itself (its input, the state it meets, who may
 *    make it, or a request this app cannot make otherwise): sent again it would be refused
 *    again, so it is kept among the failures and shown until dismissed;
 *  - "retry": the moment was wrong (no network, a page that is not GraphQL's such as a
 *    proxy's 502, a busy or failing server, a spent rate limit): sent again, unchanged, later;
 *  - "signIn": the token was not accepted (expired, or signed with a key the server no longer
 *    has, as after a development server's restart): the change waits until the person signs
 *    in again as the same user.
 * A code this app does not know (a newer server's) is not known to refuse the change: retried.
 */
export type AfterError = "refused" | "retry" | "signIn";

const afterErrors: Record<string, AfterError> = {
  BAD_USER_INPUT: "refused",
  NOT_FOUND: "refused",
  CONFLICT: "refused",
  UNAUTHENTICATED: "signIn",
  FORBIDDEN: "refused",
  CURSOR_EXPIRED: "refused",
  LIMIT_EXCEEDED: "retry",
  QUERY_LIMIT_EXCEEDED: "refused",
  SERVICE_UNAVAILABLE: "retry",
  INTERNAL_SERVER_ERROR: "retry",
  GRAPHQL_PARSE_FAILED: "refused",
  GRAPHQL_VALIDATION_FAILED: "refused",
  PERSISTED_DOCUMENT_NOT_FOUND: "refused",
  PERSISTED_DOCUMENT_REQUIRED: "refused",
  PERSISTED_QUERY_NOT_FOUND: "retry",
  BAD_REQUEST: "refused",
  [OFFLINE]: "retry",
  [HTTP_ERROR]: "retry",
};

export function afterError(code: string): AfterError {
  return afterErrors[code] ?? "retry";
}

/** refusalOf reads the code, message and extensions out of whatever an operation threw. */
export function refusalOf(error: unknown): Refusal {
  if (CombinedGraphQLErrors.is(error)) return refusalOfErrors(error.errors);
  if (error instanceof OfflineError) {
    return { code: OFFLINE, message: error.message, extensions: {} };
  }
  if (ServerError.is(error)) {
    // A proxy's or load balancer's page says when to come back in Retry-After (seconds), if at
    // all; the server's own 429 says it in extensions.retryAfter too.
    const after = Number(error.response.headers.get("Retry-After") ?? Number.NaN);
    return { code: HTTP_ERROR, message: `HTTP ${error.statusCode}`, extensions: Number.isFinite(after) ? { retryAfter: after } : {} };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: HTTP_ERROR, message, extensions: {} };
}

/**
 * refusalOfAnswer is the refusal in an answer that did not do what it asked: errors and no data
 * (a field's error nulls the field, and with it data when the field cannot be null). An answer
 * with data and errors did its work, in part: it is no refusal.
 */
export function refusalOfAnswer(answer: { data?: unknown; errors?: readonly GraphQLFormattedError[] }): Refusal | undefined {
  if (answer.errors === undefined || answer.errors.length === 0) return undefined;
  const data = answer.data as Record<string, unknown> | null | undefined;
  if (data != null && Object.values(data).some((v) => v !== null)) return undefined;
  return refusalOfErrors(answer.errors);
}

function refusalOfErrors(errors: readonly GraphQLFormattedError[]): Refusal {
  const first = errors[0];
  const extensions = (first?.extensions ?? {}) as Record<string, unknown>;
  const code = typeof extensions.code === "string" ? extensions.code : "INTERNAL_SERVER_ERROR";
  return { code, message: first?.message ?? "", extensions };
}

/**
 * messageFor is the sentence to show for error. `overrides` are the meanings a screen gives to
 * codes in its own context, e.g. {CONFLICT: "You already reacted."}.
 */
export function messageFor(error: unknown, overrides: Partial<Record<string, string>> = {}): string {
  return describe(refusalOf(error), overrides);
}

/** describe is messageFor of a refusal already read (one the mutation queue kept). */
export function describe(r: Refusal, overrides: Partial<Record<string, string>> = {}): string {
  const own = overrides[r.code];
  if (own !== undefined) return own;
  const m = messages[r.code];
  if (m === undefined) return `Something went wrong (${r.code}). Try again later.`;
  return typeof m === "string" ? m : m(r);
}
