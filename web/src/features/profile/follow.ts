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
