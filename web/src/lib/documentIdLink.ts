// The links that send operations to quickphotos as trusted documents: the request names the
// document by its id ("sha256:" and the hash GraphQL Codegen wrote into the document's
// __meta__ and into persisted-documents.json), never by its text. The server runs only the
// documents of its manifest (`serve --trusted-documents … --trusted-documents-mode enforce`);
// docs/api.md#trusted-documents.

import { ApolloLink, ServerError } from "@apollo/client";
import type { DocumentNode } from "graphql";
import type { Client, SubscribePayload } from "graphql-ws";
import { Observable } from "rxjs";
import { OfflineError } from "./network";

/** documentIdOf is the trusted document id of a document Codegen generated. */
export function documentIdOf(query: DocumentNode): string {
  const hash = (query as DocumentNode & { __meta__?: { hash?: unknown } }).__meta__?.hash;
  if (typeof hash !== "string" || hash === "") {
    throw new Error("the document has no hash: only documents GraphQL Codegen generated can be sent");
  }
  // The client preset writes the hash with its algorithm ("sha256:<hex>"), as the manifest's keys.
  return hash.startsWith("sha256:") ? hash : `sha256:${hash}`;
}

/** The JSON body of a request in GraphQL over HTTP's persisted-document form. */
export interface DocumentRequest {
  documentId: string;
  operationName?: string;
  variables?: Record<string, unknown>;
}

export function documentRequest(op: ApolloLink.Operation): DocumentRequest {
  const body: DocumentRequest = { documentId: documentIdOf(op.query) };
  if (op.operationName) body.operationName = op.operationName;
  if (Object.keys(op.variables).length > 0) body.variables = op.variables;
  return body;
}

/** Where the links find the endpoint and the caller's token, read at each request. */
export interface Endpoint {
  url: string;
  token: () => string | undefined;
}

/**
 * httpLink POSTs each query and mutation. An answer in GraphQL's shape is passed on whatever its
 * status (the server refuses with 4xx and a GraphQL error body before running anything); a
 * request that never got an answer errors with OfflineError, and one answered with something
 * else with ServerError: the mutation queue waits both out.
 */
export function httpLink(endpoint: Endpoint, fetchImpl: typeof fetch = (...a) => fetch(...a)): ApolloLink {
  return new ApolloLink(
    (op) =>
      new Observable<ApolloLink.Result>((observer) => {
        const abort = new AbortController();
        const headers: Record<string, string> = {
          "Content-Type": "application/json",
          Accept: "application/graphql-response+json, application/json",
        };
        const token = endpoint.token();
        if (token) headers.Authorization = `Bearer ${token}`;
        let body: string;
        try {
          body = JSON.stringify(documentRequest(op));
        } catch (e) {
          observer.error(e);
          return;
        }
        fetchImpl(endpoint.url, { method: "POST", headers, body, signal: abort.signal })
          .then(
            async (res) => {
              const text = await res.text();
              let parsed: unknown;
              // An answer that is not GraphQL's (a proxy's 502 page) is Apollo's ServerError,
              // with its status and headers: errors.ts reads it as HTTP_ERROR, which the
              // mutation queue waits out.
              try {
                parsed = JSON.parse(text);
              } catch {
                throw new ServerError(`HTTP ${res.status}: the answer is not JSON`, { response: res, bodyText: text });
              }
              if (typeof parsed !== "object" || parsed === null || !("data" in parsed || "errors" in parsed)) {
                throw new ServerError(`HTTP ${res.status}: the answer is not a GraphQL response`, { response: res, bodyText: text });
              }
              observer.next(parsed as ApolloLink.Result);
              observer.complete();
            },
            (err: unknown) => {
              if (abort.signal.aborted) return;
              throw new OfflineError(err);
            },
          )
          .catch((err: unknown) => observer.error(err));
        return () => abort.abort();
      }),
  );
}

/**
 * subscribePayload is a subscription's graphql-ws payload: the documentId stands in for the
 * query, which graphql-ws's client insists on as a string and the server ignores when empty.
 */
export function subscribePayload(op: ApolloLink.Operation): SubscribePayload & { documentId: string } {
  const req = documentRequest(op);
  return { query: "", ...req, operationName: req.operationName ?? null, variables: req.variables ?? null };
}

/** wsLink runs subscriptions over graphql-ws (the client authenticates in connection_init). */
export function wsLink(client: Client): ApolloLink {
  return new ApolloLink(
    (op) =>
      new Observable<ApolloLink.Result>((observer) =>
        client.subscribe(subscribePayload(op), {
          next: (value) => observer.next(value as ApolloLink.Result),
          error: (err: unknown) => observer.error(err instanceof Error ? err : new OfflineError(err)),
          complete: () => observer.complete(),
        }),
      ),
  );
}
