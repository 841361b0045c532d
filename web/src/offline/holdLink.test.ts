import { ApolloLink } from "@apollo/client";
import { parse } from "graphql";
import { firstValueFrom, Observable } from "rxjs";
import { describe, expect, it } from "vitest";
import { OfflineError } from "../lib/network";
import { Connectivity, type OnlineSource } from "./connectivity";
import { holdLink } from "./holdLink";

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
    const link = ApolloLink.from([holdLink(new Connectivity(net.source), 1), terminal]);
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
    const link = ApolloLink.from([holdLink(new Connectivity(net.source), 1), terminal]);
    expect(await run(link, 1)).toEqual({ data: { m: 1 } });
    expect(tries).toBe(2);
    expect(await run(link, 2)).toEqual({ errors: [{ message: "no", extensions: { code: "FORBIDDEN" } }] });
  });

  it("lets other operations through while offline", async () => {
    const net = switchable(false);
    const terminal = new ApolloLink(() => new Observable((o) => (o.next({ data: { m: 0 } }), o.complete())));
    const link = ApolloLink.from([holdLink(new Connectivity(net.source), 1), terminal]);
    expect(await run(link, 0, false)).toEqual({ data: { m: 0 } });
  });
});

describe("holdLink after its session ended", () => {
  it("sends nothing it still held", async () => {
    const net = switchable(false);
    let sent = 0;
    const terminal = new ApolloLink(() => new Observable((o) => (sent++, o.next({ data: { m: 1 } }), o.complete())));
    const ended = new AbortController();
    const link = ApolloLink.from([holdLink(new Connectivity(net.source), 1, ended.signal), terminal]);
    const held = run(link, 1);
    ended.abort();
    net.set(true);
    await expect(held).rejects.toThrow(/session ended/);
    expect(sent).toBe(0);
  });
});
