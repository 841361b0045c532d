import { ApolloLink } from "@apollo/client";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { firstValueFrom } from "rxjs";
import { afterEach, describe, expect, it } from "vitest";
import { FeedQuery } from "../features/feed/Feed";
import manifest from "../gql/persisted-documents.json";
import { documentIdOf, httpLink } from "./documentIdLink";
import { OfflineError } from "./network";

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let s = "";
    req.on("data", (c: Buffer) => (s += c.toString()));
    req.on("end", () => resolve(s));
  });
}

/** serve answers every request with status and answer, recording what it received. */
async function serve(status: number, answer: unknown) {
  const got: { headers: IncomingMessage["headers"]; body: unknown }[] = [];
  const srv = createServer((req, res) => {
    void body(req).then((b) => {
      got.push({ headers: req.headers, body: JSON.parse(b) });
      res.writeHead(status, { "Content-Type": "application/graphql-response+json" });
      res.end(JSON.stringify(answer));
    });
  });
  server = srv;
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/graphql`, got, srv };
}

const run = (link: ApolloLink) =>
  firstValueFrom(ApolloLink.execute(link, { query: FeedQuery, variables: { first: 10 } }, { client: {} as never }));

describe("documentIdLink", () => {
  it("names each generated document by the hash its manifest entry has", () => {
    const id = documentIdOf(FeedQuery);
    expect(id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(Object.keys(manifest)).toContain(id);
  });

  it("sends the documentId, never the query, with the caller's token", async () => {
    const s = await serve(200, { data: { feed: null } });
    const res = await run(httpLink({ url: s.url, token: () => "t0k" }));
    expect(res).toEqual({ data: { feed: null } });
    expect(s.got[0]?.body).toEqual({ documentId: documentIdOf(FeedQuery), operationName: "Feed", variables: { first: 10 } });
    expect(s.got[0]?.headers.authorization).toBe("Bearer t0k");
  });

  it("passes on a refusal the server answered with a 4xx in GraphQL's shape", async () => {
    const refusal = { errors: [{ message: "only trusted documents", extensions: { code: "PERSISTED_DOCUMENT_REQUIRED" } }] };
    const s = await serve(403, refusal);
    expect(await run(httpLink({ url: s.url, token: () => undefined }))).toEqual(refusal);
    expect(s.got[0]?.headers.authorization).toBeUndefined();
  });

  it("errors with OfflineError when nothing answers", async () => {
    const s = await serve(200, {});
    await new Promise<void>((r) => s.srv.close(() => r()));
    server = undefined;
    await expect(run(httpLink({ url: s.url, token: () => undefined }))).rejects.toBeInstanceOf(OfflineError);
  });
});
