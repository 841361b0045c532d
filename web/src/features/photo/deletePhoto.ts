import type { ApolloCache } from "@apollo/client";
import { graphql } from "../../gql";
import type { DeletePhotoMutation } from "../../gql/graphql";
import { removeEdge } from "../../offline/connections";
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

/** Takes a deleted photo out of every list that holds it (the feed, its owner's photos), then out of the cache. */
export const deletePhotoKind: MutationKind = {
  document: DeletePhotoMutationDoc,
  update(cache: ApolloCache, { data }: { data?: DeletePhotoMutation | null }) {
    const p = data?.deletePhoto;
    if (!p) return;
    const ref = cache.identify({ __typename: "Photo", id: p.id });
    if (ref === undefined) return;
    removeEdge(cache, "ROOT_QUERY", "feed", ref);
    removeEdge(cache, cache.identify({ __typename: "User", id: p.owner.id }), "photos", ref);
    cache.evict({ id: ref });
    cache.gc();
  },
};
