import { type FragmentType, getFragmentData, graphql } from "../../gql";
import type { ReactionType } from "../../gql/graphql";
import { usePending, useServices } from "../../lib/services";
import { newMutationId } from "../../offline/queue";
import { useViewer } from "../layout/viewer";
import { countField, optimisticReact, optimisticUnreact, reactionEmoji, reactionTypes, whyNotReacting } from "./reactions";

export const Reactions_photo = graphql(`
  fragment Reactions_photo on Photo {
    id
    username
    timestamp
    reactionCounts {
      heart
      smiley
      thumbsUp
      sunglasses
      total
    }
  }
`);

/** Reactions shows a photo's counters as buttons that react and unreact, optimistically. */
export function Reactions(props: { photo: FragmentType<typeof Reactions_photo> }) {
  const photo = getFragmentData(Reactions_photo, props.photo);
  const { session, outbox, notify } = useServices();
  // A refusal is shown by the layout, from the queue's failures, in these words.
  const viewerQuery = useViewer();
  const viewer = viewerQuery.data?.viewer;
  const pending = usePending();
  const mine = new Map<ReactionType, string>();
  for (const e of viewer?.reactions.edges ?? []) {
    if (e.node.photo.id === photo.id) mine.set(e.node.type, e.node.id);
  }
  const waiting = pending.filter((m) => {
    const input = m.variables.input as { owner?: string; timestamp?: string } | undefined;
    return input?.owner === photo.username && input.timestamp === photo.timestamp;
  }).length;

  const toggle = (type: ReactionType) => {
    if (viewer == null) {
      notify(whyNotReacting(viewerQuery));
      return;
    }
    const id = newMutationId();
    const input = { username: session.username, owner: photo.username, timestamp: photo.timestamp, type, clientMutationId: id };
    const existing = mine.get(type);
    const name = reactionEmoji[type].name;
    const messages = {
      CONFLICT: `You had already reacted with a ${name}.`,
      NOT_FOUND: existing === undefined ? "This photo has been deleted." : "That reaction was already removed.",
    };
    const sent =
      existing === undefined
        ? outbox.send({
            id,
            operationName: "ReactToPhoto",
            variables: { input },
            optimisticResponse: optimisticReact(viewer, photo, type, `pending:${id}`),
            label: `${name} on ${photo.username}'s photo`,
            messages,
          })
        : outbox.send({
            id,
            operationName: "RemoveReaction",
            variables: { input },
            optimisticResponse: optimisticUnreact(viewer, photo, type, existing),
            label: `remove ${name} from ${photo.username}'s photo`,
            messages,
          });
    sent.catch(() => {
      // Rolled back by Apollo; shown by the layout.
    });
  };

  return (
    <div className="reactions" role="group" aria-label="Reactions">
      {reactionTypes.map((type) => {
        const count = photo.reactionCounts[countField[type]];
        const { emoji, name } = reactionEmoji[type];
        return (
          <button
            key={type}
            type="button"
            className="reaction"
            aria-pressed={mine.has(type)}
            aria-label={`${name}: ${count}`}
            data-reaction={type}
            onClick={() => toggle(type)}
          >
            <span aria-hidden="true">{emoji}</span> {count}
          </button>
        );
      })}
      {waiting > 0 && (
        <span className="pending" role="status">
          {waiting} pending
        </span>
      )}
    </div>
  );
}
