import { CombinedGraphQLErrors, ServerError } from "@apollo/client";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type AfterError, afterError, HTTP_ERROR, messageFor, OFFLINE, refusalOf, refusalOfAnswer } from "./errors";
import { OfflineError } from "./network";

const refused = (code: string, message = "m", extensions: Record<string, unknown> = {}) =>
  new CombinedGraphQLErrors({ errors: [{ message, extensions: { code, ...extensions } }] });

describe("error vocabulary", () => {
  it("reads the code, message and extensions of a GraphQL refusal", () => {
    const r = refusalOf(refused("CONFLICT", "stale", { current: { version: 4 } }));
    expect(r).toEqual({ code: "CONFLICT", message: "stale", extensions: { code: "CONFLICT", current: { version: 4 } } });
  });

  // The server's codes, as schema.graphqls's description lists them: api/errortable_doc_test.go
  // checks that list against the server's one table of codes (api/errortable.go) and the
  // codes of refused requests and documents, so a code added there fails here until the app
  // has words for it and knows what becomes of a change it refuses.
  const schema = readFileSync(new URL("../../../schema.graphqls", import.meta.url), "utf8");
  const listed = schema.split("Errors carry `extensions.code`:")[1]?.split("A mutation that fails writes nothing.")[0] ?? "";
  const serverCodes = [...new Set(listed.match(/\b[A-Z][A-Z_]+[A-Z]\b/g))];

  it("reads the server's codes from the schema", () => {
    expect(serverCodes).toContain("CURSOR_EXPIRED");
    expect(serverCodes.length).toBeGreaterThanOrEqual(16);
  });

  it("has a sentence for every code the server answers", () => {
    for (const code of serverCodes) {
      expect(messageFor(refused(code)), code).not.toMatch(/Something went wrong \(/);
    }
    expect(messageFor(refused("SOMETHING_NEW"))).toBe("Something went wrong (SOMETHING_NEW). Try again later.");
  });

  it("knows, for every code, whether a change it answers was refused, is sent again later, or waits for a new sign-in", () => {
    const expected: Record<string, AfterError> = {
      BAD_USER_INPUT: "refused",
      NOT_FOUND: "refused",
      CONFLICT: "refused",
      FORBIDDEN: "refused",
      CURSOR_EXPIRED: "refused",
      QUERY_LIMIT_EXCEEDED: "refused",
      GRAPHQL_PARSE_FAILED: "refused",
      GRAPHQL_VALIDATION_FAILED: "refused",
      PERSISTED_DOCUMENT_NOT_FOUND: "refused",
      PERSISTED_DOCUMENT_REQUIRED: "refused",
      BAD_REQUEST: "refused",
      UNAUTHENTICATED: "signIn",
      LIMIT_EXCEEDED: "retry",
      SERVICE_UNAVAILABLE: "retry",
      INTERNAL_SERVER_ERROR: "retry",
      PERSISTED_QUERY_NOT_FOUND: "retry",
    };
    expect(Object.keys(expected).sort()).toEqual([...serverCodes].sort());
    expect(Object.fromEntries(serverCodes.map((c) => [c, afterError(c)]))).toEqual(expected);
    // Not from the server's GraphQL: no answer, or an answer that is not GraphQL's (a proxy's page).
    expect([afterError(OFFLINE), afterError(HTTP_ERROR)]).toEqual(["retry", "retry"]);
    // A newer server's code says nothing known of the change: it is kept and sent again.
    expect(afterError("SOMETHING_NEW")).toBe("retry");
  });

  it("reads an answer that is not GraphQL's as HTTP_ERROR, with the wait its Retry-After asks", () => {
    const page = new ServerError("HTTP 503: the answer is not JSON", { response: new Response("busy", { status: 503, headers: { "Retry-After": "7" } }), bodyText: "busy" });
    expect(refusalOf(page)).toEqual({ code: HTTP_ERROR, message: "HTTP 503", extensions: { retryAfter: 7 } });
  });

  it("reads the refusal in an answer that did nothing, and none in one that did its work", () => {
    const errors = [{ message: "busy", extensions: { code: "SERVICE_UNAVAILABLE" } }];
    expect(refusalOfAnswer({ data: null, errors })?.code).toBe("SERVICE_UNAVAILABLE");
    expect(refusalOfAnswer({ data: { followUser: null }, errors })?.code).toBe("SERVICE_UNAVAILABLE");
    expect(refusalOfAnswer({ data: { followUser: { id: "f1" } }, errors })).toBeUndefined();
    expect(refusalOfAnswer({ data: { followUser: { id: "f1" } } })).toBeUndefined();
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
