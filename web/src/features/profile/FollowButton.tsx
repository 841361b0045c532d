import { type FragmentType, getFragmentData, graphql } from "../../gql";
import { useServices } from "../../lib/services";
import { newMutationId } from "../../offline/queue";
import { useViewer } from "../layout/viewer";
import { optimisticFollow } from "./follow";

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
    const input = { follower: session.username, followed: user.username, clientMutationId: id };
    outbox
      .send({
        id,
        operationName: following ? "UnfollowUser" : "FollowUser",
        variables: { input },
        optimisticResponse: optimisticFollow(viewer, user, edge?.node.id ?? `pending:${id}`, following ? -1 : 1),
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
