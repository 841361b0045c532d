import type { ApolloCache, Reference } from "@apollo/client";
import { graphql } from "../../gql";
import type { DeletePhotoMutation } from "../../gql/graphql";
import type { MutationKind } from "../../offline/outbox";

export const DeletePhotoMutationDoc = graphql(`
  mutation DeletePhoto($owner: ID!, $timestamp: String!, $clientMutationId: String) {
    deletePhoto(owner: $owner, timestamp: $timestamp, clientMutationId: $clientMutationId) {
      id
      owner {
        id
      }
    }
  }
`);

type Connection = { edges?: readonly { node: Reference }[] };

/** Takes a deleted photo out of every list that holds it (feeds, its owner's photos), then out of the cache. */
export const deletePhotoKind: MutationKind = {
  document: DeletePhotoMutationDoc,
  update(cache: ApolloCache, { data }: { data?: DeletePhotoMutation | null }) {
    const p = data?.deletePhoto;
    if (!p) return;
    const ref = cache.identify({ __typename: "Photo", id: p.id });
    const without = (existing: Connection | Reference) =>
      "edges" in existing && existing.edges !== undefined ? { ...existing, edges: existing.edges.filter((e) => e.node.__ref !== ref) } : existing;
    cache.modify({ id: "ROOT_QUERY", fields: { feed: without } });
    cache.modify({ id: cache.identify({ __typename: "User", id: p.owner.id }), fields: { photos: without, feed: without } });
    cache.evict({ id: ref });
    cache.gc();
  },
};
