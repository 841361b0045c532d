// Following and unfollowing: the mutations and how each answer is written into the viewer's
// list of whom they follow (the counters come with the answer, normalised by the users' ids).

import type { ApolloCache, Reference } from "@apollo/client";
import { graphql } from "../../gql";
import type { FollowUserMutation, UnfollowUserMutation } from "../../gql/graphql";
import type { MutationKind } from "../../offline/outbox";

export const FollowUserMutationDoc = graphql(`
  mutation FollowUser($input: FriendshipInput!) {
    followUser(input: $input) {
      id
      follower {
        id
        followingCount
      }
      followed {
        id
        username
        followerCount
      }
    }
  }
`);

export const UnfollowUserMutationDoc = graphql(`
  mutation UnfollowUser($input: FriendshipInput!) {
    unfollowUser(input: $input) {
      id
      follower {
        id
        followingCount
      }
      followed {
        id
        username
        followerCount
      }
    }
  }
`);

type Edges = readonly { node: Reference }[];

function editFollowing(cache: ApolloCache, userId: string, edit: (edges: Edges) => Edges) {
  cache.modify({
    id: cache.identify({ __typename: "User", id: userId }),
    fields: {
      following(existing: { edges?: Edges } | Reference) {
        if (!("edges" in existing) || existing.edges === undefined) return existing;
        return { ...existing, edges: edit(existing.edges) };
      },
    },
  });
}

export const followKind: MutationKind = {
  document: FollowUserMutationDoc,
  update(cache: ApolloCache, { data }: { data?: FollowUserMutation | null }) {
    const f = data?.followUser;
    if (!f) return;
    const ref = cache.identify({ __typename: "Friendship", id: f.id });
    if (ref === undefined) return;
    editFollowing(cache, f.follower.id, (edges) =>
      edges.some((e) => e.node.__ref === ref) ? edges : [...edges, { __typename: "FriendshipEdge", node: { __ref: ref } } as { node: Reference }],
    );
  },
};

export const unfollowKind: MutationKind = {
  document: UnfollowUserMutationDoc,
  update(cache: ApolloCache, { data }: { data?: UnfollowUserMutation | null }) {
    const f = data?.unfollowUser;
    if (!f) return;
    const ref = cache.identify({ __typename: "Friendship", id: f.id });
    editFollowing(cache, f.follower.id, (edges) => edges.filter((e) => e.node.__ref !== ref));
  },
};
