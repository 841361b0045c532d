// Following and unfollowing: the mutations and how each answer is written into the viewer's
// list of whom they follow (the counters come with the answer, normalised by the users' ids).

import type { ApolloCache } from "@apollo/client";
import { getFragmentData, graphql } from "../../gql";
import type { FollowUserMutation, UnfollowUserMutation } from "../../gql/graphql";
import { insertEdge, removeEdge } from "../../offline/connections";
import type { MutationKind } from "../../offline/outbox";

// What either mutation answers, and an optimistic answer has to give: both ends' counters and
// the followed user's username, which the follow buttons match on.
export const FriendshipResultFragment = graphql(`
  fragment FriendshipResult on Friendship {
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
`);

export const FollowUserMutationDoc = graphql(`
  mutation FollowUser($input: FriendshipInput!) {
    followUser(input: $input) {
      ...FriendshipResult
    }
  }
`);

export const UnfollowUserMutationDoc = graphql(`
  mutation UnfollowUser($input: FriendshipInput!) {
    unfollowUser(input: $input) {
      ...FriendshipResult
    }
  }
`);

export const followKind: MutationKind = {
  document: FollowUserMutationDoc,
  update(cache: ApolloCache, { data }: { data?: FollowUserMutation | null }) {
    if (!data?.followUser) return;
    const f = getFragmentData(FriendshipResultFragment, data.followUser);
    const ref = cache.identify({ __typename: "Friendship", id: f.id });
    if (ref === undefined) return;
    insertEdge(cache, cache.identify({ __typename: "User", id: f.follower.id }), "following", ref, "FriendshipEdge");
  },
};

export const unfollowKind: MutationKind = {
  document: UnfollowUserMutationDoc,
  update(cache: ApolloCache, { data }: { data?: UnfollowUserMutation | null }) {
    if (!data?.unfollowUser) return;
    const f = getFragmentData(FriendshipResultFragment, data.unfollowUser);
    const ref = cache.identify({ __typename: "Friendship", id: f.id });
    if (ref === undefined) return;
    removeEdge(cache, cache.identify({ __typename: "User", id: f.follower.id }), "following", ref);
  },
};

/**
 * optimisticFollow is what following user (by +1), or unfollowing them (by -1, id the follow
 * being removed), is expected to answer: the follow id with both ends' counters after it. The
 * answer is whole, __typename at its top too: Apollo warns of one missing there as anywhere.
 */
export function optimisticFollow(
  viewer: { id: string; followingCount: number },
  user: { id: string; username: string; followerCount: number },
  id: string,
  by: 1 | -1,
) {
  const friendship = {
    __typename: "Friendship" as const,
    id,
    follower: { __typename: "User" as const, id: viewer.id, followingCount: Math.max(0, viewer.followingCount + by) },
    followed: { __typename: "User" as const, id: user.id, username: user.username, followerCount: Math.max(0, user.followerCount + by) },
  };
  return by === 1 ? { __typename: "Mutation" as const, followUser: friendship } : { __typename: "Mutation" as const, unfollowUser: friendship };
}
