import { CombinedGraphQLErrors } from "@apollo/client";
import { describe, expect, it } from "vitest";
import { messageFor, refusalOf } from "./errors";
import { OfflineError } from "./network";

const refused = (code: string, message = "m", extensions: Record<string, unknown> = {}) =>
  new CombinedGraphQLErrors({ errors: [{ message, extensions: { code, ...extensions } }] });

describe("error vocabulary", () => {
  it("reads the code, message and extensions of a GraphQL refusal", () => {
    const r = refusalOf(refused("CONFLICT", "stale", { current: { version: 4 } }));
    expect(r).toEqual({ code: "CONFLICT", message: "stale", extensions: { code: "CONFLICT", current: { version: 4 } } });
  });

  it("has a sentence for every code the server answers", () => {
    const codes = [
      "BAD_USER_INPUT",
      "NOT_FOUND",
      "CONFLICT",
      "UNAUTHENTICATED",
      "FORBIDDEN",
      "LIMIT_EXCEEDED",
      "QUERY_LIMIT_EXCEEDED",
      "SERVICE_UNAVAILABLE",
      "INTERNAL_SERVER_ERROR",
      "GRAPHQL_PARSE_FAILED",
      "GRAPHQL_VALIDATION_FAILED",
      "PERSISTED_QUERY_NOT_FOUND",
      "PERSISTED_DOCUMENT_NOT_FOUND",
      "PERSISTED_DOCUMENT_REQUIRED",
      "BAD_REQUEST",
    ];
    for (const code of codes) {
      expect(messageFor(refused(code)), code).not.toMatch(/Something went wrong \(/);
    }
    expect(messageFor(refused("SOMETHING_NEW"))).toBe("Something went wrong (SOMETHING_NEW). Try again later.");
  });

  it("lets a screen give a code its own meaning", () => {
    expect(messageFor(refused("CONFLICT"), { CONFLICT: "You already reacted." })).toBe("You already reacted.");
    expect(messageFor(refused("NOT_FOUND"), { CONFLICT: "You already reacted." })).toMatch(/no longer exists/);
  });

  it("shows the server's words for bad input and the wait of a rate limit", () => {
    expect(messageFor(refused("BAD_USER_INPUT", "name: control character at 3"))).toBe("That was not accepted: name: control character at 3");
    expect(messageFor(refused("LIMIT_EXCEEDED", "m", { retryAfter: 2.2 }))).toBe("Too many requests for now. Try again in 3 s.");
  });

  it("tells being offline apart from a refusal", () => {
    expect(refusalOf(new OfflineError(new TypeError("Failed to fetch"))).code).toBe("OFFLINE");
    expect(messageFor(new OfflineError(null))).toMatch(/offline/);
  });
});
