// Every mutation the outbox queues, by operation name: what a queued entry is sent as after a
// reload, when only its name and variables were kept.

import { deletePhotoKind } from "./features/photo/deletePhoto";
import { reactKind, unreactKind } from "./features/photo/reactions";
import { followKind, unfollowKind } from "./features/profile/follow";
import { updateProfileKind } from "./features/settings/updateProfile";
import type { MutationRegistry } from "./offline/outbox";

export const queuedMutations: MutationRegistry = {
  ReactToPhoto: reactKind,
  RemoveReaction: unreactKind,
  FollowUser: followKind,
  UnfollowUser: unfollowKind,
  UpdateProfile: updateProfileKind,
  DeletePhoto: deletePhotoKind,
};
