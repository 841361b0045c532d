/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** A file to upload (see `createPhotoUpload`). */
export type CreatePhotoUploadInput = {
  /** The file's size in bytes, at most the server's limit: the file may not be larger. */
  byteSize: number;
  /** Names this mutation so that sending it again is safe (Relay's clientMutationId): 1 to 64 printable characters, e.g. a UUID, unique among the caller's mutations for the server's retention (7 days by default). Sent again by the same caller with the same input within it, the mutation writes nothing and answers as it first did (the object as it is now, or the same error); with a different input it is BAD_USER_INPUT. Another user's id of the same spelling is theirs alone. See `Mutation`. */
  clientMutationId?: string | null | undefined;
  /** The file's type: image/jpeg, image/png or image/webp. The file must be sent with this type, and must really be of it. */
  contentType: string;
  /** The username of the uploader: the caller. */
  owner: string;
  /**
   * An absolute http or https URL the store redirects the browser to (303 See Other) once the file
   * is stored, with `bucket`, `key` and `etag` added to its query: the page a plain HTML form shows
   * next. Takes precedence over `successActionStatus`. The form carries it as the signed field
   * `success_action_redirect`.
   */
  successActionRedirect?: string | null | undefined;
  /**
   * How the store answers the POST once the file is stored, for a plain HTML form (a page without
   * JavaScript, which a 204 leaves where it was): 200 with no body, or 201 with S3's XML
   * `PostResponse` (`Location`, `Bucket`, `Key`, `ETag`). Left out, 204 with no body. The form
   * carries it as the signed field `success_action_status`.
   */
  successActionStatus?: number | null | undefined;
};

/** A new profile. `username` is permanent; the other fields can be changed with updateUser. */
export type CreateUserInput = {
  /** Postal address: up to 1000 characters, lines separated by line feeds (U+000A) alone; otherwise the same characters as `name`. */
  address?: string | null | undefined;
  /** Date of birth, ISO-8601 date (`YYYY-MM-DD`). */
  birthdate?: string | null | undefined;
  /** Names this mutation so that sending it again is safe (Relay's clientMutationId): 1 to 64 printable characters, e.g. a UUID, unique among the caller's mutations for the server's retention (7 days by default). Sent again by the same caller with the same input within it, the mutation writes nothing and answers as it first did (the object as it is now, or the same error); with a different input it is BAD_USER_INPUT. Another user's id of the same spelling is theirs alone. See `Mutation`. */
  clientMutationId?: string | null | undefined;
  /** Contact e-mail address. */
  email?: string | null | undefined;
  /** What the user is interested in: at most 50, each 1 to 100 characters on one line, the same characters as `name`. */
  interests?: Array<string> | null | undefined;
  /** Display name: up to 1000 characters on one line; no control characters (U+0000–U+001F, U+007F–U+009F), bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) or U+2028/U+2029. */
  name?: string | null | undefined;
  /** URL (http or https) of the photo pinned to the profile. */
  pinnedImage?: string | null | undefined;
  /** A short status line: up to 1000 characters on one line, the same characters as `name`. */
  status?: string | null | undefined;
  /** 1 to 64 letters, digits, `_`, `-` or `.`. */
  username: string;
};

/** Names one friendship: who follows whom. */
export type FriendshipInput = {
  /** Names this mutation so that sending it again is safe (Relay's clientMutationId): 1 to 64 printable characters, e.g. a UUID, unique among the caller's mutations for the server's retention (7 days by default). Sent again by the same caller with the same input within it, the mutation writes nothing and answers as it first did (the object as it is now, or the same error); with a different input it is BAD_USER_INPUT. Another user's id of the same spelling is theirs alone. See `Mutation`. */
  clientMutationId?: string | null | undefined;
  /** The user to be followed. */
  followed: string;
  /** The user who follows. */
  follower: string;
};

/** What a change did to a photo. */
export type PhotoChangeKind =
  /** The photo was deleted: `photo` is null. No event follows. */
  | 'DELETED'
  /** A reaction was added: `reaction` is it, `photo` is the photo as it was then. */
  | 'REACTION_ADDED'
  /** A reaction was removed: `reaction` is it. */
  | 'REACTION_REMOVED'
  /** The photo itself changed (its reaction counters): `photo` is it after the change. */
  | 'UPDATED';

/** Names one reaction: who reacts, to which photo, with which type. */
export type ReactionInput = {
  /** Names this mutation so that sending it again is safe (Relay's clientMutationId): 1 to 64 printable characters, e.g. a UUID, unique among the caller's mutations for the server's retention (7 days by default). Sent again by the same caller with the same input within it, the mutation writes nothing and answers as it first did (the object as it is now, or the same error); with a different input it is BAD_USER_INPUT. Another user's id of the same spelling is theirs alone. See `Mutation`. */
  clientMutationId?: string | null | undefined;
  /** The photo's owner. */
  owner: string;
  /** The photo's timestamp, in any spelling uploadPhoto accepts: the canonical form `2019-03-03T18:20:10` (UTC), or RFC 3339 with a zone, e.g. `2019-03-03T18:20:10Z` or `2019-03-03T20:20:10+02:00`. */
  timestamp: string;
  /** The kind of reaction. */
  type: ReactionType;
  /** The reacting user. */
  username: string;
};

/** The four ways to react to a photo. */
export type ReactionType =
  /** A heart (stored as `heart`). */
  | 'HEART'
  /** A smiley face (stored as `smiley`). */
  | 'SMILEY'
  /** A pair of sunglasses (stored as `sunglasses`). */
  | 'SUNGLASSES'
  /** A thumbs up (stored as `+1`). */
  | 'THUMBS_UP';

/** Changes to a profile: a field left out keeps its value, a field set to null is removed. */
export type UpdateUserInput = {
  /** Postal address: up to 1000 characters, lines separated by line feeds (U+000A) alone; otherwise the same characters as `name`. */
  address?: string | null | undefined;
  /** Date of birth, ISO-8601 date (`YYYY-MM-DD`). */
  birthdate?: string | null | undefined;
  /** Names this mutation so that sending it again is safe (Relay's clientMutationId): 1 to 64 printable characters, e.g. a UUID, unique among the caller's mutations for the server's retention (7 days by default). Sent again by the same caller with the same input within it, the mutation writes nothing and answers as it first did (the object as it is now, or the same error); with a different input it is BAD_USER_INPUT. Another user's id of the same spelling is theirs alone. See `Mutation`. */
  clientMutationId?: string | null | undefined;
  /** Contact e-mail address. */
  email?: string | null | undefined;
  /** The `version` of the profile the changes were made to. Given, the changes apply only while the profile is still at it; otherwise CONFLICT, with the profile as it is now in `extensions.current` (its fields as User names them, `version` included) to merge with and send again. 0 to 1000000000 (BAD_USER_INPUT otherwise); NOT_FOUND when there is no such user. Left out, the changes apply whatever the version. */
  expectedVersion?: number | null | undefined;
  /** What the user is interested in: at most 50, each 1 to 100 characters on one line, the same characters as `name`. */
  interests?: Array<string> | null | undefined;
  /** Display name: up to 1000 characters on one line; no control characters (U+0000–U+001F, U+007F–U+009F), bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) or U+2028/U+2029. */
  name?: string | null | undefined;
  /** URL (http or https) of the photo pinned to the profile. */
  pinnedImage?: string | null | undefined;
  /** A short status line: up to 1000 characters on one line, the same characters as `name`. */
  status?: string | null | undefined;
};

/** A photo to upload: give `url` or `upload`, not both. */
export type UploadPhotoInput = {
  /** Names this mutation so that sending it again is safe (Relay's clientMutationId): 1 to 64 printable characters, e.g. a UUID, unique among the caller's mutations for the server's retention (7 days by default). Sent again by the same caller with the same input within it, the mutation writes nothing and answers as it first did (the object as it is now, or the same error); with a different input it is BAD_USER_INPUT. Another user's id of the same spelling is theirs alone. See `Mutation`. */
  clientMutationId?: string | null | undefined;
  /** The username of the uploader. */
  owner: string;
  /** When it was taken or uploaded: the canonical form, UTC to the whole second with no zone (`2019-03-03T18:20:10`), or RFC 3339 with a zone, `Z` or `±hh:mm` (`2019-03-03T20:20:10+02:00`), each with no fraction of a second or a zero one, from 1900-01-01T00:00:00 through 2100-12-31T23:59:59 (UTC); kept and returned in the canonical form. The server's clock when left out. */
  timestamp?: string | null | undefined;
  /** The `uploadId` of a `createPhotoUpload` whose file was sent: the server makes and stores the photo's images. An upload makes one photo. */
  upload?: string | null | undefined;
  /** Where the image is served from, for a photo hosted elsewhere: an http or https URL of at most 2048 bytes, with no control or bidirectional control characters. */
  url?: string | null | undefined;
};

export type FeedQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
}>;


export type FeedQuery = { feed: { edges: Array<{ node: (
        { id: string }
        & { ' $fragmentRefs'?: { 'PhotoCard_PhotoFragment': PhotoCard_PhotoFragment } }
      ) }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type FeedPhotoAddedSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type FeedPhotoAddedSubscription = { feedPhotoAdded: (
    { id: string }
    & { ' $fragmentRefs'?: { 'PhotoCard_PhotoFragment': PhotoCard_PhotoFragment } }
  ) };

export type ViewerStateQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerStateQuery = { viewer: { id: string, username: string, name: string | null, followingCount: number, following: { edges: Array<{ node: { id: string, followed: { id: string, username: string } } }> }, reactions: { edges: Array<{ node: { id: string, type: ReactionType, photo: { id: string } } }> } } | null };

export type PhotoCard_PhotoFragment = (
  { id: string, username: string, timestamp: string, url: string, image: { url: string, width: number, height: number } | null, owner: { id: string, username: string, name: string | null } }
  & { ' $fragmentRefs'?: { 'Reactions_PhotoFragment': Reactions_PhotoFragment } }
) & { ' $fragmentName'?: 'PhotoCard_PhotoFragment' };

export type PhotoQueryVariables = Exact<{
  owner: string;
  timestamp: string;
}>;


export type PhotoQuery = { photo: (
    { id: string, username: string, timestamp: string, reactions: { totalCount: number | null, edges: Array<{ node: { id: string, type: ReactionType, user: { id: string, username: string, name: string | null } } }> } }
    & { ' $fragmentRefs'?: { 'PhotoCard_PhotoFragment': PhotoCard_PhotoFragment } }
  ) | null };

export type PhotoChangedSubscriptionVariables = Exact<{
  owner: string;
  timestamp: string;
}>;


export type PhotoChangedSubscription = { photoChanged: { kind: PhotoChangeKind, photo: { id: string, reactionCounts: { heart: number, smiley: number, thumbsUp: number, sunglasses: number, total: number } } | null } };

export type Reactions_PhotoFragment = { id: string, username: string, timestamp: string, reactionCounts: { heart: number, smiley: number, thumbsUp: number, sunglasses: number, total: number } } & { ' $fragmentName'?: 'Reactions_PhotoFragment' };

export type DeletePhotoMutationVariables = Exact<{
  owner: string;
  timestamp: string;
  clientMutationId?: string | null | undefined;
}>;


export type DeletePhotoMutation = { deletePhoto: { id: string, owner: { id: string } } };

export type ReactToPhotoMutationVariables = Exact<{
  input: ReactionInput;
}>;


export type ReactToPhotoMutation = { reactToPhoto: { id: string, type: ReactionType, user: { id: string }, photo: { id: string, reactionCounts: { heart: number, smiley: number, thumbsUp: number, sunglasses: number, total: number } } } };

export type RemoveReactionMutationVariables = Exact<{
  input: ReactionInput;
}>;


export type RemoveReactionMutation = { removeReaction: { id: string, type: ReactionType, user: { id: string }, photo: { id: string, reactionCounts: { heart: number, smiley: number, thumbsUp: number, sunglasses: number, total: number } } } };

export type FollowButton_UserFragment = { id: string, username: string, followerCount: number } & { ' $fragmentName'?: 'FollowButton_UserFragment' };

export type ProfileQueryVariables = Exact<{
  username: string;
}>;


export type ProfileQuery = { user: (
    { id: string, photos: { edges: Array<{ node: (
          { id: string }
          & { ' $fragmentRefs'?: { 'Thumbnail_PhotoFragment': Thumbnail_PhotoFragment } }
        ) }> } }
    & { ' $fragmentRefs'?: { 'ProfileHeader_UserFragment': ProfileHeader_UserFragment;'FollowButton_UserFragment': FollowButton_UserFragment } }
  ) | null };

export type ProfileHeader_UserFragment = { id: string, username: string, name: string | null, status: string | null, followerCount: number, followingCount: number } & { ' $fragmentName'?: 'ProfileHeader_UserFragment' };

export type Thumbnail_PhotoFragment = { id: string, username: string, timestamp: string, url: string, image: { url: string, width: number, height: number } | null } & { ' $fragmentName'?: 'Thumbnail_PhotoFragment' };

export type FollowUserMutationVariables = Exact<{
  input: FriendshipInput;
}>;


export type FollowUserMutation = { followUser: { id: string, follower: { id: string, followingCount: number }, followed: { id: string, username: string, followerCount: number } } };

export type UnfollowUserMutationVariables = Exact<{
  input: FriendshipInput;
}>;


export type UnfollowUserMutation = { unfollowUser: { id: string, follower: { id: string, followingCount: number }, followed: { id: string, username: string, followerCount: number } } };

export type EditProfile_UserFragment = { id: string, username: string, name: string | null, status: string | null, version: number } & { ' $fragmentName'?: 'EditProfile_UserFragment' };

export type EditProfileQueryVariables = Exact<{ [key: string]: never; }>;


export type EditProfileQuery = { viewer: (
    { id: string }
    & { ' $fragmentRefs'?: { 'EditProfile_UserFragment': EditProfile_UserFragment } }
  ) | null };

export type UpdateProfileMutationVariables = Exact<{
  username: string;
  input: UpdateUserInput;
}>;


export type UpdateProfileMutation = { updateUser: (
    { id: string }
    & { ' $fragmentRefs'?: { 'EditProfile_UserFragment': EditProfile_UserFragment } }
  ) };

export type CreateProfileMutationVariables = Exact<{
  input: CreateUserInput;
}>;


export type CreateProfileMutation = { createUser: { id: string, username: string, name: string | null } };

export type CreatePhotoUploadMutationVariables = Exact<{
  input: CreatePhotoUploadInput;
}>;


export type CreatePhotoUploadMutation = { createPhotoUpload: { uploadId: string, url: string, expires: string, maxBytes: number, fields: Array<{ name: string, value: string }> } };

export type FinishPhotoUploadMutationVariables = Exact<{
  input: UploadPhotoInput;
}>;


export type FinishPhotoUploadMutation = { uploadPhoto: (
    { id: string, username: string, timestamp: string }
    & { ' $fragmentRefs'?: { 'PhotoCard_PhotoFragment': PhotoCard_PhotoFragment } }
  ) };

export const Reactions_PhotoFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Reactions_photo"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Photo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"Field","name":{"kind":"Name","value":"reactionCounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"heart"}},{"kind":"Field","name":{"kind":"Name","value":"smiley"}},{"kind":"Field","name":{"kind":"Name","value":"thumbsUp"}},{"kind":"Field","name":{"kind":"Name","value":"sunglasses"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}}]}}]} as unknown as DocumentNode<Reactions_PhotoFragment, unknown>;
export const PhotoCard_PhotoFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PhotoCard_photo"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Photo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"image"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"size"},"value":{"kind":"EnumValue","value":"DISPLAY"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"width"}},{"kind":"Field","name":{"kind":"Name","value":"height"}}]}},{"kind":"Field","name":{"kind":"Name","value":"owner"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"Reactions_photo"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Reactions_photo"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Photo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"Field","name":{"kind":"Name","value":"reactionCounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"heart"}},{"kind":"Field","name":{"kind":"Name","value":"smiley"}},{"kind":"Field","name":{"kind":"Name","value":"thumbsUp"}},{"kind":"Field","name":{"kind":"Name","value":"sunglasses"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}}]}}]} as unknown as DocumentNode<PhotoCard_PhotoFragment, unknown>;
export const FollowButton_UserFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FollowButton_user"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"User"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"followerCount"}}]}}]} as unknown as DocumentNode<FollowButton_UserFragment, unknown>;
export const ProfileHeader_UserFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProfileHeader_user"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"User"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"followerCount"}},{"kind":"Field","name":{"kind":"Name","value":"followingCount"}}]}}]} as unknown as DocumentNode<ProfileHeader_UserFragment, unknown>;
export const Thumbnail_PhotoFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Thumbnail_photo"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Photo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"image"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"size"},"value":{"kind":"EnumValue","value":"THUMBNAIL"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"width"}},{"kind":"Field","name":{"kind":"Name","value":"height"}}]}}]}}]} as unknown as DocumentNode<Thumbnail_PhotoFragment, unknown>;
export const EditProfile_UserFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EditProfile_user"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"User"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}}]} as unknown as DocumentNode<EditProfile_UserFragment, unknown>;
export const FeedDocument = {"__meta__":{"hash":"sha256:3f0f3e8b01bfabddbe82149e3c1db4930214b991a15d0b9e108f4878034ba11d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Feed"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"feed"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"PhotoCard_photo"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Reactions_photo"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Photo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"Field","name":{"kind":"Name","value":"reactionCounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"heart"}},{"kind":"Field","name":{"kind":"Name","value":"smiley"}},{"kind":"Field","name":{"kind":"Name","value":"thumbsUp"}},{"kind":"Field","name":{"kind":"Name","value":"sunglasses"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PhotoCard_photo"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Photo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"image"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"size"},"value":{"kind":"EnumValue","value":"DISPLAY"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"width"}},{"kind":"Field","name":{"kind":"Name","value":"height"}}]}},{"kind":"Field","name":{"kind":"Name","value":"owner"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"Reactions_photo"}}]}}]} as unknown as DocumentNode<FeedQuery, FeedQueryVariables>;
export const FeedPhotoAddedDocument = {"__meta__":{"hash":"sha256:7b7a0c32ef58544e410fb6832f8fa6405fce12bbbcfbb36947c2f1b750cce31f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"FeedPhotoAdded"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"feedPhotoAdded"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"PhotoCard_photo"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Reactions_photo"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Photo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"Field","name":{"kind":"Name","value":"reactionCounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"heart"}},{"kind":"Field","name":{"kind":"Name","value":"smiley"}},{"kind":"Field","name":{"kind":"Name","value":"thumbsUp"}},{"kind":"Field","name":{"kind":"Name","value":"sunglasses"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PhotoCard_photo"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Photo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"image"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"size"},"value":{"kind":"EnumValue","value":"DISPLAY"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"width"}},{"kind":"Field","name":{"kind":"Name","value":"height"}}]}},{"kind":"Field","name":{"kind":"Name","value":"owner"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"Reactions_photo"}}]}}]} as unknown as DocumentNode<FeedPhotoAddedSubscription, FeedPhotoAddedSubscriptionVariables>;
export const ViewerStateDocument = {"__meta__":{"hash":"sha256:d8774291dbc386b2315ee0342763395f0c3da2c2a2ae8b4683b2f3962e83f4b5"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ViewerState"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"followingCount"}},{"kind":"Field","name":{"kind":"Name","value":"following"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"followed"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}}]}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"reactions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"photo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<ViewerStateQuery, ViewerStateQueryVariables>;
export const PhotoDocument = {"__meta__":{"hash":"sha256:e27786a825c88ba6617812a2d2cd525cc83cef00aac641b273765b5d6ef7a9fd"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Photo"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"owner"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"timestamp"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"photo"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"owner"},"value":{"kind":"Variable","name":{"kind":"Name","value":"owner"}}},{"kind":"Argument","name":{"kind":"Name","value":"timestamp"},"value":{"kind":"Variable","name":{"kind":"Name","value":"timestamp"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"PhotoCard_photo"}},{"kind":"Field","name":{"kind":"Name","value":"reactions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Reactions_photo"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Photo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"Field","name":{"kind":"Name","value":"reactionCounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"heart"}},{"kind":"Field","name":{"kind":"Name","value":"smiley"}},{"kind":"Field","name":{"kind":"Name","value":"thumbsUp"}},{"kind":"Field","name":{"kind":"Name","value":"sunglasses"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PhotoCard_photo"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Photo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"image"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"size"},"value":{"kind":"EnumValue","value":"DISPLAY"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"width"}},{"kind":"Field","name":{"kind":"Name","value":"height"}}]}},{"kind":"Field","name":{"kind":"Name","value":"owner"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"Reactions_photo"}}]}}]} as unknown as DocumentNode<PhotoQuery, PhotoQueryVariables>;
export const PhotoChangedDocument = {"__meta__":{"hash":"sha256:29e8cdefd74bacc4204010bcaf45ab43bcd5bfe74f514d280d3b1542dcbe13a6"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"PhotoChanged"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"owner"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"timestamp"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"photoChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"owner"},"value":{"kind":"Variable","name":{"kind":"Name","value":"owner"}}},{"kind":"Argument","name":{"kind":"Name","value":"timestamp"},"value":{"kind":"Variable","name":{"kind":"Name","value":"timestamp"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"photo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"reactionCounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"heart"}},{"kind":"Field","name":{"kind":"Name","value":"smiley"}},{"kind":"Field","name":{"kind":"Name","value":"thumbsUp"}},{"kind":"Field","name":{"kind":"Name","value":"sunglasses"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}}]}}]}}]}}]} as unknown as DocumentNode<PhotoChangedSubscription, PhotoChangedSubscriptionVariables>;
export const DeletePhotoDocument = {"__meta__":{"hash":"sha256:d18138f80df5b000f8cfe2aec0c15e0a6474fb74def2e96787541d8423b1b44e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeletePhoto"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"owner"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"timestamp"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"clientMutationId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deletePhoto"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"owner"},"value":{"kind":"Variable","name":{"kind":"Name","value":"owner"}}},{"kind":"Argument","name":{"kind":"Name","value":"timestamp"},"value":{"kind":"Variable","name":{"kind":"Name","value":"timestamp"}}},{"kind":"Argument","name":{"kind":"Name","value":"clientMutationId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"clientMutationId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"owner"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<DeletePhotoMutation, DeletePhotoMutationVariables>;
export const ReactToPhotoDocument = {"__meta__":{"hash":"sha256:b6f62c264ba4c971ee8fa561cfb48c66e746c52f6c7f7e1dfc62163463b8b653"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ReactToPhoto"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ReactionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reactToPhoto"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"photo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"reactionCounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"heart"}},{"kind":"Field","name":{"kind":"Name","value":"smiley"}},{"kind":"Field","name":{"kind":"Name","value":"thumbsUp"}},{"kind":"Field","name":{"kind":"Name","value":"sunglasses"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ReactToPhotoMutation, ReactToPhotoMutationVariables>;
export const RemoveReactionDocument = {"__meta__":{"hash":"sha256:f1dd62bd62a10ba649915937710e5d0545305bea610aebacc59fa692498b65ce"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RemoveReaction"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ReactionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"removeReaction"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"photo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"reactionCounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"heart"}},{"kind":"Field","name":{"kind":"Name","value":"smiley"}},{"kind":"Field","name":{"kind":"Name","value":"thumbsUp"}},{"kind":"Field","name":{"kind":"Name","value":"sunglasses"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}}]}}]}}]}}]} as unknown as DocumentNode<RemoveReactionMutation, RemoveReactionMutationVariables>;
export const ProfileDocument = {"__meta__":{"hash":"sha256:9295b80f745f1812f17262ebcc3cee9b56e90f3ab4924073807bd796efab7fdb"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Profile"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"username"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"user"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"username"},"value":{"kind":"Variable","name":{"kind":"Name","value":"username"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ProfileHeader_user"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"FollowButton_user"}},{"kind":"Field","name":{"kind":"Name","value":"photos"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"30"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"Thumbnail_photo"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProfileHeader_user"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"User"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"followerCount"}},{"kind":"Field","name":{"kind":"Name","value":"followingCount"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FollowButton_user"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"User"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"followerCount"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Thumbnail_photo"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Photo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"image"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"size"},"value":{"kind":"EnumValue","value":"THUMBNAIL"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"width"}},{"kind":"Field","name":{"kind":"Name","value":"height"}}]}}]}}]} as unknown as DocumentNode<ProfileQuery, ProfileQueryVariables>;
export const FollowUserDocument = {"__meta__":{"hash":"sha256:424da3ffaa32ba1357b3a78cd4645e06a41326b82163d32444c73982f24c679f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"FollowUser"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"FriendshipInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"followUser"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"follower"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"followingCount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"followed"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"followerCount"}}]}}]}}]}}]} as unknown as DocumentNode<FollowUserMutation, FollowUserMutationVariables>;
export const UnfollowUserDocument = {"__meta__":{"hash":"sha256:644a3d57cfbcc4d9f7cc8d406c610fe4aabc3fce453dd3dfe8f2a7ccb845666c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UnfollowUser"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"FriendshipInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"unfollowUser"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"follower"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"followingCount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"followed"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"followerCount"}}]}}]}}]}}]} as unknown as DocumentNode<UnfollowUserMutation, UnfollowUserMutationVariables>;
export const EditProfileDocument = {"__meta__":{"hash":"sha256:1ebe60473e6248169177d863b537258c3aed36ea45a69d214fd5000bf88f7494"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EditProfile"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"EditProfile_user"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EditProfile_user"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"User"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}}]} as unknown as DocumentNode<EditProfileQuery, EditProfileQueryVariables>;
export const UpdateProfileDocument = {"__meta__":{"hash":"sha256:17190a789560b89df303364f618465c96341b40e555506f251da09bf72429ec5"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateProfile"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"username"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateUserInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateUser"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"username"},"value":{"kind":"Variable","name":{"kind":"Name","value":"username"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"EditProfile_user"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EditProfile_user"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"User"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}}]} as unknown as DocumentNode<UpdateProfileMutation, UpdateProfileMutationVariables>;
export const CreateProfileDocument = {"__meta__":{"hash":"sha256:62874ba7e730ea9f08a7bb70df99aba0dbd90bf48300e0ec5ae02e2d28bccecf"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateProfile"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateUserInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createUser"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<CreateProfileMutation, CreateProfileMutationVariables>;
export const CreatePhotoUploadDocument = {"__meta__":{"hash":"sha256:c881cafb52a6a85082641b803f5dd959238a9a587aa42daeb1a5fc32b0ba2864"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreatePhotoUpload"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreatePhotoUploadInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createPhotoUpload"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uploadId"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"fields"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"expires"}},{"kind":"Field","name":{"kind":"Name","value":"maxBytes"}}]}}]}}]} as unknown as DocumentNode<CreatePhotoUploadMutation, CreatePhotoUploadMutationVariables>;
export const FinishPhotoUploadDocument = {"__meta__":{"hash":"sha256:548221c08828c3cb4d35c57bf091cd8a0331e64a7faf17aac9eda81e942f8c3f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"FinishPhotoUpload"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UploadPhotoInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uploadPhoto"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"PhotoCard_photo"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Reactions_photo"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Photo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"Field","name":{"kind":"Name","value":"reactionCounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"heart"}},{"kind":"Field","name":{"kind":"Name","value":"smiley"}},{"kind":"Field","name":{"kind":"Name","value":"thumbsUp"}},{"kind":"Field","name":{"kind":"Name","value":"sunglasses"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PhotoCard_photo"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Photo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"image"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"size"},"value":{"kind":"EnumValue","value":"DISPLAY"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"width"}},{"kind":"Field","name":{"kind":"Name","value":"height"}}]}},{"kind":"Field","name":{"kind":"Name","value":"owner"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"Reactions_photo"}}]}}]} as unknown as DocumentNode<FinishPhotoUploadMutation, FinishPhotoUploadMutationVariables>;