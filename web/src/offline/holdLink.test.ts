import { ApolloLink, ServerError } from "@apollo/client";
import { parse } from "graphql";
import { firstValueFrom, Observable } from "rxjs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { OfflineError } from "../lib/network";
import { Credentials } from "../lib/session";
import { Connectivity, type OnlineSource } from "./connectivity";
import { holdLink, retryDelay } from "./holdLink";

function switchable(initial: boolean) {
  let online = initial;
  const fns = new Set<() => void>();
  const source: OnlineSource = { isOnline: () => online, listen: (fn) => (fns.add(fn), () => fns.delete(fn)) };
  return {
    source,
    set(v: boolean) {
      online = v;
      for (const f of fns) f();
    },
  };
}

const mutation = parse("mutation M($n: Int) { m(n: $n) }");

function run(link: ApolloLink, n: number, queued = true) {
  return firstValueFrom(ApolloLink.execute(link, { query: mutation, variables: { n }, context: { queued } }, { client: {} as never }));
}

describe("holdLink", () => {
  it("holds queued mutations while offline and sends them in order, each once, when back", async () => {
    const net = switchable(false);
    const sent: number[] = [];
    const terminal = new ApolloLink((op) => {
      sent.push(op.variables.n as number);
      return new Observable((o) => {
        o.next({ data: { m: op.variables.n } });
        o.complete();
      });
    });
    const link = ApolloLink.from([holdLink({ connectivity: new Connectivity(net.source), credentials: new Credentials("t"), retryDelayMs: 1 }), terminal]);
    const a = run(link, 1);
    const b = run(link, 2);
    await new Promise((r) => setTimeout(r, 10));
    expect(sent).toEqual([]);
    net.set(true);
    expect(await a).toEqual({ data: { m: 1 } });
    expect(await b).toEqual({ data: { m: 2 } });
    expect(sent).toEqual([1, 2]);
  });

  it("sends again a mutation that did not reach the server, and passes a refusal on", async () => {
    const net = switchable(true);
    let tries = 0;
    const terminal = new ApolloLink(
      (op) =>
        new Observable((o) => {
          tries++;
          if (op.variables.n === 1 && tries === 1) {
            o.error(new OfflineError(new TypeError("fetch failed")));
            return;
          }
          o.next(op.variables.n === 2 ? { errors: [{ message: "no", extensions: { code: "FORBIDDEN" } }] } : { data: { m: 1 } });
          o.complete();
        }),
    );
    const link = ApolloLink.from([holdLink({ connectivity: new Connectivity(net.source), credentials: new Credentials("t"), retryDelayMs: 1 }), terminal]);
    expect(await run(link, 1)).toEqual({ data: { m: 1 } });
    expect(tries).toBe(2);
    expect(await run(link, 2)).toEqual({ errors: [{ message: "no", extensions: { code: "FORBIDDEN" } }] });
  });

  it("lets other operations through while offline", async () => {
    const net = switchable(false);
    const terminal = new ApolloLink(() => new Observable((o) => (o.next({ data: { m: 0 } }), o.complete())));
    const link = ApolloLink.from([holdLink({ connectivity: new Connectivity(net.source), credentials: new Credentials("t"), retryDelayMs: 1 }), terminal]);
    expect(await run(link, 0, false)).toEqual({ data: { m: 0 } });
  });
});

describe("holdLink after its session ended", () => {
  it("sends nothing it still held", async () => {
    const net = switchable(false);
    let sent = 0;
    const terminal = new ApolloLink(() => new Observable((o) => (sent++, o.next({ data: { m: 1 } }), o.complete())));
    const ended = new AbortController();
    const link = ApolloLink.from([holdLink({ connectivity: new Connectivity(net.source), credentials: new Credentials("t"), retryDelayMs: 1, closed: ended.signal }), terminal]);
    const held = run(link, 1);
    ended.abort();
    net.set(true);
    await expect(held).rejects.toThrow(/session ended/);
    expect(sent).toBe(0);
  });
});

/** answering is a terminal link that gives the i-th request answers[i] (the last one after), recording the token each carried. */
function answering(credentials: Credentials, answers: (ApolloLink.Result | Error)[]) {
  const tokens: string[] = [];
  const link = new ApolloLink(
    () =>
      new Observable((o) => {
        const answer = answers[Math.min(tokens.length, answers.length - 1)];
        tokens.push(credentials.token);
        if (answer instanceof Error) return o.error(answer);
        o.next(answer as ApolloLink.Result);
        o.complete();
      }),
  );
  return { link, tokens };
}

const refusal = (code: string, extensions: Record<string, unknown> = {}) => ({ data: null, errors: [{ message: code, extensions: { code, ...extensions } }] });
const proxyPage = (status: number, headers: Record<string, string> = {}) =>
  new ServerError(`HTTP ${status}: the answer is not JSON`, { response: new Response("<html>Bad Gateway</html>", { status, headers }), bodyText: "<html>Bad Gateway</html>" });

describe("holdLink and the server's answers of the moment", () => {
  afterEach(() => vi.useRealTimers());

  const cases: [string, ApolloLink.Result | Error][] = [
    ["SERVICE_UNAVAILABLE", refusal("SERVICE_UNAVAILABLE")],
    ["INTERNAL_SERVER_ERROR", refusal("INTERNAL_SERVER_ERROR")],
    ["LIMIT_EXCEEDED", refusal("LIMIT_EXCEEDED", { retryAfter: 0 })],
    ["an HTTP 502 page (HTTP_ERROR)", proxyPage(502)],
    ["no network (OFFLINE)", new OfflineError(new TypeError("fetch failed"))],
  ];
  for (const [what, first] of cases) {
    it(`sends the change again, unchanged, after ${what}, and passes on only the answer`, async () => {
      const credentials = new Credentials("t");
      const net = switchable(true);
      const t = answering(credentials, [first, first, { data: { m: 1 } }]);
      const link = ApolloLink.from([holdLink({ connectivity: new Connectivity(net.source), credentials, retryDelayMs: 1 }), t.link]);
      expect(await run(link, 1)).toEqual({ data: { m: 1 } });
      expect(t.tokens).toHaveLength(3);
    });
  }

  it("passes on a refusal of the change itself at once", async () => {
    for (const code of ["CONFLICT", "NOT_FOUND", "BAD_USER_INPUT", "FORBIDDEN", "QUERY_LIMIT_EXCEEDED", "PERSISTED_DOCUMENT_NOT_FOUND"]) {
      const credentials = new Credentials("t");
      const t = answering(credentials, [refusal(code)]);
      const link = ApolloLink.from([holdLink({ connectivity: new Connectivity(switchable(true).source), credentials, retryDelayMs: 1 }), t.link]);
      expect(await run(link, 1)).toEqual(refusal(code));
      expect(t.tokens).toHaveLength(1);
    }
  });

  it("passes on an answer that did its work with errors beside it: sent again, it would be done twice", async () => {
    const credentials = new Credentials("t");
    const partly = { data: { m: 1 }, errors: [{ message: "busy", path: ["m", "x"], extensions: { code: "SERVICE_UNAVAILABLE" } }] };
    const t = answering(credentials, [partly]);
    const link = ApolloLink.from([holdLink({ connectivity: new Connectivity(switchable(true).source), credentials, retryDelayMs: 1 }), t.link]);
    expect(await run(link, 1)).toEqual(partly);
    expect(t.tokens).toHaveLength(1);
  });

  it("waits as long as the server's retryAfter asked, at the least", async () => {
    vi.useFakeTimers();
    const credentials = new Credentials("t");
    const t = answering(credentials, [refusal("LIMIT_EXCEEDED", { retryAfter: 3 }), { data: { m: 1 } }]);
    const link = ApolloLink.from([holdLink({ connectivity: new Connectivity(switchable(true).source), credentials, retryDelayMs: 1 }), t.link]);
    const answered = run(link, 1);
    await vi.advanceTimersByTimeAsync(2999);
    expect(t.tokens).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.tokens).toHaveLength(2);
    expect(await answered).toEqual({ data: { m: 1 } });
  });

  it("doubles its pause with each failure, up to a bound, and never pauses less than the server asked", () => {
    const busy = { code: "SERVICE_UNAVAILABLE", message: "", extensions: {} };
    expect([0, 1, 2, 3, 4, 5, 10].map((n) => retryDelay(n, busy, 2000, 30_000))).toEqual([2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(retryDelay(0, { code: "LIMIT_EXCEEDED", message: "", extensions: { retryAfter: 45 } }, 2000, 30_000)).toBe(45_000);
    expect(retryDelay(0, { code: "HTTP_ERROR", message: "", extensions: { retryAfter: 5 } }, 2000, 30_000)).toBe(5000);
  });
});

describe("holdLink and a token the server refused", () => {
  it("holds the change, and those after it, until the same user signs in again, then sends them with the new token", async () => {
    const credentials = new Credentials("expired");
    const sent: [number, string][] = [];
    const terminal = new ApolloLink(
      (op) =>
        new Observable((o) => {
          sent.push([op.variables.n as number, credentials.token]);
          o.next(credentials.token === "expired" ? refusal("UNAUTHENTICATED") : { data: { m: op.variables.n } });
          o.complete();
        }),
    );
    const link = ApolloLink.from([holdLink({ connectivity: new Connectivity(switchable(true).source), credentials, retryDelayMs: 1 }), terminal]);
    let settled = 0;
    const a = run(link, 1).finally(() => settled++);
    const b = run(link, 2).finally(() => settled++);
    await vi.waitFor(() => expect(credentials.refused).toBe(true));
    await new Promise((r) => setTimeout(r, 20));
    expect({ sent, settled }).toEqual({ sent: [[1, "expired"]], settled: 0 });

    credentials.renew("renewed");
    expect(await a).toEqual({ data: { m: 1 } });
    expect(await b).toEqual({ data: { m: 2 } });
    expect(sent).toEqual([
      [1, "expired"],
      [1, "renewed"],
      [2, "renewed"],
    ]);
  });

  it("does not refuse a token renewed while the request that carried the old one was out", async () => {
    const credentials = new Credentials("old");
    const t = answering(credentials, [refusal("UNAUTHENTICATED"), { data: { m: 1 } }]);
    const renewing = new ApolloLink((op, forward) => {
      credentials.renew("new"); // the person signed in again in another way meanwhile
      return forward(op);
    });
    const link = ApolloLink.from([holdLink({ connectivity: new Connectivity(switchable(true).source), credentials, retryDelayMs: 1 }), renewing, t.link]);
    expect(await run(link, 1)).toEqual({ data: { m: 1 } });
    expect(credentials.refused).toBe(false);
  });

  it("stops waiting for a new token when the session ends, and sends nothing", async () => {
    const credentials = new Credentials("expired");
    credentials.refuse("expired");
    const ended = new AbortController();
    const t = answering(credentials, [{ data: { m: 1 } }]);
    const link = ApolloLink.from([holdLink({ connectivity: new Connectivity(switchable(true).source), credentials, retryDelayMs: 1, closed: ended.signal }), t.link]);
    const held = run(link, 1);
    ended.abort();
    await expect(held).rejects.toThrow(/session ended/);
    expect(t.tokens).toEqual([]);
  });
});
