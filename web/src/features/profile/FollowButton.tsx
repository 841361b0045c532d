import { type FragmentType, getFragmentData, graphql } from "../../gql";
import { useServices } from "../../lib/services";
import { newMutationId } from "../../offline/queue";
import { useViewer } from "../layout/viewer";

export const FollowButton_user = graphql(`
  fragment FollowButton_user on User {
    id
    username
    followerCount
  }
`);

export function FollowButton(props: { user: FragmentType<typeof FollowButton_user> }) {
  const user = getFragmentData(FollowButton_user, props.user);
  const { session, outbox } = useServices();
  const viewer = useViewer().data?.viewer;
  if (user.username === session.username || viewer == null) return null;
  const edge = viewer.following.edges.find((e) => e.node.followed.username === user.username);
  const following = edge !== undefined;

  const toggle = () => {
    const id = newMutationId();
    const by = following ? -1 : 1;
    const friendship = {
      __typename: "Friendship" as const,
      id: edge?.node.id ?? `pending:${id}`,
      follower: { __typename: "User" as const, id: viewer.id, followingCount: Math.max(0, viewer.followingCount + by) },
      followed: { __typename: "User" as const, id: user.id, username: user.username, followerCount: Math.max(0, user.followerCount + by) },
    };
    const input = { follower: session.username, followed: user.username, clientMutationId: id };
    outbox
      .send({
        id,
        operationName: following ? "UnfollowUser" : "FollowUser",
        variables: { input },
        optimisticResponse: following ? { unfollowUser: friendship } : { followUser: friendship },
        label: `${following ? "unfollow" : "follow"} ${user.username}`,
        messages: { CONFLICT: `You already follow ${user.username}.`, NOT_FOUND: following ? `You no longer follow ${user.username}.` : `${user.username} no longer exists.` },
      })
      .catch(() => {
        // Rolled back by Apollo; shown by the layout.
      });
  };

  return (
    <button type="button" className="follow" aria-pressed={following} onClick={toggle}>
      {following ? "Unfollow" : "Follow"}
    </button>
  );
}
