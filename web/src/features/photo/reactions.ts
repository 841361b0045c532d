// Reacting and unreacting: the mutations, their optimistic answers, and how each answer is
// written into the lists of reactions the screens show, the viewer's and the photo's (the
// photo's counters come with the answer and normalise by the photo's id).

import type { ApolloCache } from "@apollo/client";
import { type FragmentType, getFragmentData, graphql } from "../../gql";
import type { ReactionType, ReactToPhotoMutation, RemoveReactionMutation } from "../../gql/graphql";
import { messageFor } from "../../lib/errors";
import { byUserThenType, insertEdge, removeEdge } from "../../offline/connections";
import type { MutationKind } from "../../offline/outbox";

// What either mutation answers, and an optimistic answer has to give: the reaction as the
// photo page's list shows it (its user's name) and the photo's counters after it.
export const ReactionResultFragment = graphql(`
  fragment ReactionResult on Reaction {
    id
    type
    user {
      id
      username
      name
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
`);

export const ReactToPhotoMutationDoc = graphql(`
  mutation ReactToPhoto($input: ReactionInput!) {
    reactToPhoto(input: $input) {
      ...ReactionResult
    }
  }
`);

export const RemoveReactionMutationDoc = graphql(`
  mutation RemoveReaction($input: ReactionInput!) {
    removeReaction(input: $input) {
      ...ReactionResult
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

/** countField is the field of ReactionCounts that counts each type of reaction. */
export const countField: Record<ReactionType, keyof Omit<Counts, "total">> = {
  HEART: "heart",
  SMILEY: "smiley",
  THUMBS_UP: "thumbsUp",
  SUNGLASSES: "sunglasses",
};

/** countsAfter is counts with one reaction of type added (by +1) or removed (by -1). */
export function countsAfter(counts: Counts, type: ReactionType, by: 1 | -1): Counts {
  const f = countField[type];
  return { ...counts, [f]: Math.max(0, counts[f] + by), total: Math.max(0, counts.total + by) };
}

/**
 * optimisticReaction is the answer a reaction's mutation is expected to give: the reaction id
 * (a pending one for a new reaction) of type by viewer, with the photo's counters after it is
 * added (by +1) or removed (by -1).
 */
export function optimisticReaction(
  viewer: { id: string; username: string; name?: string | null },
  photo: { id: string; reactionCounts: Counts },
  type: ReactionType,
  id: string,
  by: 1 | -1,
) {
  return {
    __typename: "Reaction" as const,
    id,
    type,
    user: { __typename: "User" as const, id: viewer.id, username: viewer.username, name: viewer.name ?? null },
    photo: { __typename: "Photo" as const, id: photo.id, reactionCounts: { __typename: "ReactionCounts" as const, ...countsAfter(photo.reactionCounts, type, by) } },
  };
}

// The optimistic answers of the two mutations, whole: Apollo writes an answer as the result of
// its operation, and warns of a missing __typename at its top as at any object's.

/** optimisticReact is what reacting with type to photo is expected to answer: the new reaction, pending as id. */
export function optimisticReact(viewer: Parameters<typeof optimisticReaction>[0], photo: Parameters<typeof optimisticReaction>[1], type: ReactionType, id: string) {
  return { __typename: "Mutation" as const, reactToPhoto: optimisticReaction(viewer, photo, type, id, 1) };
}

/** optimisticUnreact is what removing the viewer's reaction id of type is expected to answer. */
export function optimisticUnreact(viewer: Parameters<typeof optimisticReaction>[0], photo: Parameters<typeof optimisticReaction>[1], type: ReactionType, id: string) {
  return { __typename: "Mutation" as const, removeReaction: optimisticReaction(viewer, photo, type, id, -1) };
}

export const reactionEmoji: Record<ReactionType, { emoji: string; name: string }> = {
  HEART: { emoji: "❤️", name: "heart" },
  THUMBS_UP: { emoji: "👍", name: "thumbs up" },
  SMILEY: { emoji: "😊", name: "smiley" },
  SUNGLASSES: { emoji: "😎", name: "sunglasses" },
};

export const reactionTypes: ReactionType[] = ["HEART", "THUMBS_UP", "SMILEY", "SUNGLASSES"];

/**
 * whyNotReacting says why the viewer cannot react while the viewer's query (layout/viewer.ts)
 * gives no viewer, from where that query stands: a reaction is sent as the viewer, whose
 * reactions the optimistic answer is written into.
 */
export function whyNotReacting(viewer: { data?: { viewer?: object | null }; error?: unknown; loading: boolean }): string {
  if (viewer.data?.viewer === null) return "Create your profile before reacting.";
  // Refused: in the words of the error (an UNAUTHENTICATED asks to sign in again).
  if (viewer.error !== undefined) return messageFor(viewer.error);
  if (viewer.loading) return "Your profile is still loading. Try again in a moment.";
  // Read from the cache alone (offline), which does not hold it.
  return "Your profile is not saved on this device: react once you are back online.";
}

/** The lists that show a reaction, its user's (the viewer's, on screen) and its photo's, and what places it in the photo's. */
function listsOf(cache: ApolloCache, result: FragmentType<typeof ReactionResultFragment>) {
  const r = getFragmentData(ReactionResultFragment, result);
  return {
    ref: cache.identify({ __typename: "Reaction", id: r.id }),
    user: cache.identify({ __typename: "User", id: r.user.id }),
    photo: cache.identify({ __typename: "Photo", id: r.photo.id }),
    username: r.user.username,
    type: r.type,
  };
}

export const reactKind: MutationKind = {
  document: ReactToPhotoMutationDoc,
  update(cache: ApolloCache, { data }: { data?: ReactToPhotoMutation | null }) {
    if (!data?.reactToPhoto) return;
    const { ref, user, photo, ...r } = listsOf(cache, data.reactToPhoto);
    if (ref === undefined) return;
    insertEdge(cache, user, "reactions", ref, "ReactionEdge");
    insertEdge(cache, photo, "reactions", ref, "ReactionEdge", byUserThenType(r.username, r.type));
  },
};

export const unreactKind: MutationKind = {
  document: RemoveReactionMutationDoc,
  update(cache: ApolloCache, { data }: { data?: RemoveReactionMutation | null }) {
    if (!data?.removeReaction) return;
    const { ref, user, photo } = listsOf(cache, data.removeReaction);
    if (ref === undefined) return;
    removeEdge(cache, user, "reactions", ref);
    removeEdge(cache, photo, "reactions", ref);
  },
};
