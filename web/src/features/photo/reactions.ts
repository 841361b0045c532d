// Reacting and unreacting: the mutations, their optimistic answers, and how each answer is
// written into the viewer's list of reactions (the photo's counters come with the answer and
// normalise by the photo's id).

import type { ApolloCache, Reference } from "@apollo/client";
import { graphql } from "../../gql";
import type { ReactionType, ReactToPhotoMutation, RemoveReactionMutation } from "../../gql/graphql";
import type { MutationKind } from "../../offline/outbox";

export const ReactToPhotoMutationDoc = graphql(`
  mutation ReactToPhoto($input: ReactionInput!) {
    reactToPhoto(input: $input) {
      id
      type
      user {
        id
      }
      photo {
        id
        reactionCounts {
          heart
          smiley
          thumbsUp
          sunglasses
          total
        }
      }
    }
  }
`);

export const RemoveReactionMutationDoc = graphql(`
  mutation RemoveReaction($input: ReactionInput!) {
    removeReaction(input: $input) {
      id
      type
      user {
        id
      }
      photo {
        id
        reactionCounts {
          heart
          smiley
          thumbsUp
          sunglasses
          total
        }
      }
    }
  }
`);

export interface Counts {
  heart: number;
  smiley: number;
  thumbsUp: number;
  sunglasses: number;
  total: number;
}

const field: Record<ReactionType, keyof Omit<Counts, "total">> = {
  HEART: "heart",
  SMILEY: "smiley",
  THUMBS_UP: "thumbsUp",
  SUNGLASSES: "sunglasses",
};

/** countsAfter is counts with one reaction of type added (by +1) or removed (by -1). */
export function countsAfter(counts: Counts, type: ReactionType, by: 1 | -1): Counts {
  const f = field[type];
  return { ...counts, [f]: Math.max(0, counts[f] + by), total: Math.max(0, counts.total + by) };
}

export const reactionEmoji: Record<ReactionType, { emoji: string; name: string }> = {
  HEART: { emoji: "❤️", name: "heart" },
  THUMBS_UP: { emoji: "👍", name: "thumbs up" },
  SMILEY: { emoji: "😊", name: "smiley" },
  SUNGLASSES: { emoji: "😎", name: "sunglasses" },
};

export const reactionTypes: ReactionType[] = ["HEART", "THUMBS_UP", "SMILEY", "SUNGLASSES"];

function editViewerReactions(cache: ApolloCache, userId: string, edit: (edges: readonly { node: Reference }[]) => readonly { node: Reference }[]) {
  cache.modify({
    id: cache.identify({ __typename: "User", id: userId }),
    fields: {
      reactions(existing: { edges?: readonly { node: Reference }[] } | Reference) {
        if (!("edges" in existing) || existing.edges === undefined) return existing;
        return { ...existing, edges: edit(existing.edges) };
      },
    },
  });
}

export const reactKind: MutationKind = {
  document: ReactToPhotoMutationDoc,
  update(cache: ApolloCache, { data }: { data?: ReactToPhotoMutation | null }) {
    const r = data?.reactToPhoto;
    if (!r) return;
    const ref = cache.identify({ __typename: "Reaction", id: r.id });
    if (ref === undefined) return;
    editViewerReactions(cache, r.user.id, (edges) =>
      edges.some((e) => e.node.__ref === ref) ? edges : [...edges, { __typename: "ReactionEdge", node: { __ref: ref } } as { node: Reference }],
    );
  },
};

export const unreactKind: MutationKind = {
  document: RemoveReactionMutationDoc,
  update(cache: ApolloCache, { data }: { data?: RemoveReactionMutation | null }) {
    const r = data?.removeReaction;
    if (!r) return;
    const ref = cache.identify({ __typename: "Reaction", id: r.id });
    editViewerReactions(cache, r.user.id, (edges) => edges.filter((e) => e.node.__ref !== ref));
  },
};
