/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query Feed($first: Int!, $after: String) {\n    feed(first: $first, after: $after) {\n      edges {\n        node {\n          id\n          ...PhotoCard_photo\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.FeedDocument,
    "\n  subscription FeedPhotoAdded {\n    feedPhotoAdded {\n      id\n      ...PhotoCard_photo\n    }\n  }\n": typeof types.FeedPhotoAddedDocument,
    "\n  query ViewerState {\n    viewer {\n      id\n      username\n      name\n      followingCount\n      following(first: 100) {\n        edges {\n          node {\n            id\n            follower {\n              id\n            }\n            followed {\n              id\n              username\n            }\n          }\n        }\n      }\n      reactions(first: 100) {\n        edges {\n          node {\n            id\n            type\n            user {\n              id\n            }\n            photo {\n              id\n            }\n          }\n        }\n      }\n    }\n  }\n": typeof types.ViewerStateDocument,
    "\n  fragment PhotoCard_photo on Photo {\n    id\n    username\n    timestamp\n    url\n    image(size: DISPLAY) {\n      url\n      width\n      height\n    }\n    owner {\n      id\n      username\n      name\n    }\n    ...Reactions_photo\n  }\n": typeof types.PhotoCard_PhotoFragmentDoc,
    "\n  query Photo($owner: ID!, $timestamp: String!) {\n    photo(owner: $owner, timestamp: $timestamp) {\n      id\n      username\n      timestamp\n      owner {\n        id\n      }\n      ...PhotoCard_photo\n      reactions(first: 20) {\n        totalCount\n        edges {\n          node {\n            id\n            type\n            user {\n              id\n              username\n              name\n            }\n          }\n        }\n      }\n    }\n  }\n": typeof types.PhotoDocument,
    "\n  subscription PhotoChanged($owner: ID!, $timestamp: String!) {\n    photoChanged(owner: $owner, timestamp: $timestamp) {\n      kind\n      photo {\n        id\n        reactionCounts {\n          heart\n          smiley\n          thumbsUp\n          sunglasses\n          total\n        }\n      }\n    }\n  }\n": typeof types.PhotoChangedDocument,
    "\n  fragment Reactions_photo on Photo {\n    id\n    username\n    timestamp\n    reactionCounts {\n      heart\n      smiley\n      thumbsUp\n      sunglasses\n      total\n    }\n  }\n": typeof types.Reactions_PhotoFragmentDoc,
    "\n  mutation DeletePhoto($owner: ID!, $timestamp: String!, $clientMutationId: String) {\n    deletePhoto(owner: $owner, timestamp: $timestamp, clientMutationId: $clientMutationId) {\n      id\n      owner {\n        id\n      }\n    }\n  }\n": typeof types.DeletePhotoDocument,
    "\n  fragment ReactionResult on Reaction {\n    id\n    type\n    user {\n      id\n      username\n      name\n    }\n    photo {\n      id\n      reactionCounts {\n        heart\n        smiley\n        thumbsUp\n        sunglasses\n        total\n      }\n    }\n  }\n": typeof types.ReactionResultFragmentDoc,
    "\n  mutation ReactToPhoto($input: ReactionInput!) {\n    reactToPhoto(input: $input) {\n      ...ReactionResult\n    }\n  }\n": typeof types.ReactToPhotoDocument,
    "\n  mutation RemoveReaction($input: ReactionInput!) {\n    removeReaction(input: $input) {\n      ...ReactionResult\n    }\n  }\n": typeof types.RemoveReactionDocument,
    "\n  fragment FollowButton_user on User {\n    id\n    username\n    followerCount\n  }\n": typeof types.FollowButton_UserFragmentDoc,
    "\n  query Profile($username: ID!) {\n    user(username: $username) {\n      id\n      ...ProfileHeader_user\n      ...FollowButton_user\n      photos(first: 30) {\n        edges {\n          node {\n            id\n            ...Thumbnail_photo\n          }\n        }\n        pageInfo {\n          hasNextPage\n        }\n      }\n    }\n  }\n": typeof types.ProfileDocument,
    "\n  fragment ProfileHeader_user on User {\n    id\n    username\n    name\n    status\n    followerCount\n    followingCount\n  }\n": typeof types.ProfileHeader_UserFragmentDoc,
    "\n  fragment Thumbnail_photo on Photo {\n    id\n    username\n    timestamp\n    url\n    thumbnail: image(size: THUMBNAIL) {\n      url\n      width\n      height\n    }\n  }\n": typeof types.Thumbnail_PhotoFragmentDoc,
    "\n  fragment FriendshipResult on Friendship {\n    id\n    follower {\n      id\n      followingCount\n    }\n    followed {\n      id\n      username\n      followerCount\n    }\n  }\n": typeof types.FriendshipResultFragmentDoc,
    "\n  mutation FollowUser($input: FriendshipInput!) {\n    followUser(input: $input) {\n      ...FriendshipResult\n    }\n  }\n": typeof types.FollowUserDocument,
    "\n  mutation UnfollowUser($input: FriendshipInput!) {\n    unfollowUser(input: $input) {\n      ...FriendshipResult\n    }\n  }\n": typeof types.UnfollowUserDocument,
    "\n  fragment EditProfile_user on User {\n    id\n    username\n    name\n    status\n    version\n  }\n": typeof types.EditProfile_UserFragmentDoc,
    "\n  query EditProfile {\n    viewer {\n      id\n      ...EditProfile_user\n    }\n  }\n": typeof types.EditProfileDocument,
    "\n  mutation UpdateProfile($username: ID!, $input: UpdateUserInput!) {\n    updateUser(username: $username, input: $input) {\n      id\n      ...EditProfile_user\n    }\n  }\n": typeof types.UpdateProfileDocument,
    "\n  mutation CreateProfile($input: CreateUserInput!) {\n    createUser(input: $input) {\n      id\n      username\n      name\n    }\n  }\n": typeof types.CreateProfileDocument,
    "\n  mutation CreatePhotoUpload($input: CreatePhotoUploadInput!) {\n    createPhotoUpload(input: $input) {\n      uploadId\n      url\n      fields {\n        name\n        value\n      }\n      expires\n      maxBytes\n    }\n  }\n": typeof types.CreatePhotoUploadDocument,
    "\n  mutation FinishPhotoUpload($input: UploadPhotoInput!) {\n    uploadPhoto(input: $input) {\n      id\n      username\n      timestamp\n      ...PhotoCard_photo\n    }\n  }\n": typeof types.FinishPhotoUploadDocument,
    "\n  fragment ConnectionsPhotoLists on Photo {\n    id\n    owner {\n      id\n    }\n  }\n": typeof types.ConnectionsPhotoListsFragmentDoc,
    "\n  fragment ConnectionsReactionLists on Reaction {\n    id\n    user {\n      id\n    }\n    photo {\n      id\n    }\n  }\n": typeof types.ConnectionsReactionListsFragmentDoc,
    "\n  fragment ConnectionsFriendshipLists on Friendship {\n    id\n    follower {\n      id\n    }\n  }\n": typeof types.ConnectionsFriendshipListsFragmentDoc,
    "\n  fragment SyncFollowEnds on Friendship {\n    id\n    followed {\n      id\n    }\n  }\n": typeof types.SyncFollowEndsFragmentDoc,
    "\n  query SyncStart {\n    viewer {\n      id\n      changes {\n        cursor\n      }\n    }\n  }\n": typeof types.SyncStartDocument,
    "\n  query SyncChanges($after: String!) {\n    viewer {\n      id\n      changes(after: $after, first: 100) {\n        edges {\n          node {\n            objectId\n            objectType\n            operation\n            node {\n              id\n              ... on User {\n                ...ProfileHeader_user\n                ...FollowButton_user\n                ...EditProfile_user\n              }\n              ... on Photo {\n                username\n                timestamp\n                owner {\n                  id\n                }\n                ...PhotoCard_photo\n                ...Thumbnail_photo\n              }\n              ... on Reaction {\n                type\n                user {\n                  id\n                  username\n                  name\n                }\n                photo {\n                  id\n                }\n              }\n              ... on Friendship {\n                follower {\n                  id\n                  username\n                }\n                followed {\n                  id\n                  username\n                }\n              }\n            }\n          }\n        }\n        pageInfo {\n          hasNextPage\n        }\n        cursor\n      }\n    }\n  }\n": typeof types.SyncChangesDocument,
    "\n  subscription ChangesAvailable {\n    changesAvailable {\n      received\n    }\n  }\n": typeof types.ChangesAvailableDocument,
};
const documents: Documents = {
    "\n  query Feed($first: Int!, $after: String) {\n    feed(first: $first, after: $after) {\n      edges {\n        node {\n          id\n          ...PhotoCard_photo\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.FeedDocument,
    "\n  subscription FeedPhotoAdded {\n    feedPhotoAdded {\n      id\n      ...PhotoCard_photo\n    }\n  }\n": types.FeedPhotoAddedDocument,
    "\n  query ViewerState {\n    viewer {\n      id\n      username\n      name\n      followingCount\n      following(first: 100) {\n        edges {\n          node {\n            id\n            follower {\n              id\n            }\n            followed {\n              id\n              username\n            }\n          }\n        }\n      }\n      reactions(first: 100) {\n        edges {\n          node {\n            id\n            type\n            user {\n              id\n            }\n            photo {\n              id\n            }\n          }\n        }\n      }\n    }\n  }\n": types.ViewerStateDocument,
    "\n  fragment PhotoCard_photo on Photo {\n    id\n    username\n    timestamp\n    url\n    image(size: DISPLAY) {\n      url\n      width\n      height\n    }\n    owner {\n      id\n      username\n      name\n    }\n    ...Reactions_photo\n  }\n": types.PhotoCard_PhotoFragmentDoc,
    "\n  query Photo($owner: ID!, $timestamp: String!) {\n    photo(owner: $owner, timestamp: $timestamp) {\n      id\n      username\n      timestamp\n      owner {\n        id\n      }\n      ...PhotoCard_photo\n      reactions(first: 20) {\n        totalCount\n        edges {\n          node {\n            id\n            type\n            user {\n              id\n              username\n              name\n            }\n          }\n        }\n      }\n    }\n  }\n": types.PhotoDocument,
    "\n  subscription PhotoChanged($owner: ID!, $timestamp: String!) {\n    photoChanged(owner: $owner, timestamp: $timestamp) {\n      kind\n      photo {\n        id\n        reactionCounts {\n          heart\n          smiley\n          thumbsUp\n          sunglasses\n          total\n        }\n      }\n    }\n  }\n": types.PhotoChangedDocument,
    "\n  fragment Reactions_photo on Photo {\n    id\n    username\n    timestamp\n    reactionCounts {\n      heart\n      smiley\n      thumbsUp\n      sunglasses\n      total\n    }\n  }\n": types.Reactions_PhotoFragmentDoc,
    "\n  mutation DeletePhoto($owner: ID!, $timestamp: String!, $clientMutationId: String) {\n    deletePhoto(owner: $owner, timestamp: $timestamp, clientMutationId: $clientMutationId) {\n      id\n      owner {\n        id\n      }\n    }\n  }\n": types.DeletePhotoDocument,
    "\n  fragment ReactionResult on Reaction {\n    id\n    type\n    user {\n      id\n      username\n      name\n    }\n    photo {\n      id\n      reactionCounts {\n        heart\n        smiley\n        thumbsUp\n        sunglasses\n        total\n      }\n    }\n  }\n": types.ReactionResultFragmentDoc,
    "\n  mutation ReactToPhoto($input: ReactionInput!) {\n    reactToPhoto(input: $input) {\n      ...ReactionResult\n    }\n  }\n": types.ReactToPhotoDocument,
    "\n  mutation RemoveReaction($input: ReactionInput!) {\n    removeReaction(input: $input) {\n      ...ReactionResult\n    }\n  }\n": types.RemoveReactionDocument,
    "\n  fragment FollowButton_user on User {\n    id\n    username\n    followerCount\n  }\n": types.FollowButton_UserFragmentDoc,
    "\n  query Profile($username: ID!) {\n    user(username: $username) {\n      id\n      ...ProfileHeader_user\n      ...FollowButton_user\n      photos(first: 30) {\n        edges {\n          node {\n            id\n            ...Thumbnail_photo\n          }\n        }\n        pageInfo {\n          hasNextPage\n        }\n      }\n    }\n  }\n": types.ProfileDocument,
    "\n  fragment ProfileHeader_user on User {\n    id\n    username\n    name\n    status\n    followerCount\n    followingCount\n  }\n": types.ProfileHeader_UserFragmentDoc,
    "\n  fragment Thumbnail_photo on Photo {\n    id\n    username\n    timestamp\n    url\n    thumbnail: image(size: THUMBNAIL) {\n      url\n      width\n      height\n    }\n  }\n": types.Thumbnail_PhotoFragmentDoc,
    "\n  fragment FriendshipResult on Friendship {\n    id\n    follower {\n      id\n      followingCount\n    }\n    followed {\n      id\n      username\n      followerCount\n    }\n  }\n": types.FriendshipResultFragmentDoc,
    "\n  mutation FollowUser($input: FriendshipInput!) {\n    followUser(input: $input) {\n      ...FriendshipResult\n    }\n  }\n": types.FollowUserDocument,
    "\n  mutation UnfollowUser($input: FriendshipInput!) {\n    unfollowUser(input: $input) {\n      ...FriendshipResult\n    }\n  }\n": types.UnfollowUserDocument,
    "\n  fragment EditProfile_user on User {\n    id\n    username\n    name\n    status\n    version\n  }\n": types.EditProfile_UserFragmentDoc,
    "\n  query EditProfile {\n    viewer {\n      id\n      ...EditProfile_user\n    }\n  }\n": types.EditProfileDocument,
    "\n  mutation UpdateProfile($username: ID!, $input: UpdateUserInput!) {\n    updateUser(username: $username, input: $input) {\n      id\n      ...EditProfile_user\n    }\n  }\n": types.UpdateProfileDocument,
    "\n  mutation CreateProfile($input: CreateUserInput!) {\n    createUser(input: $input) {\n      id\n      username\n      name\n    }\n  }\n": types.CreateProfileDocument,
    "\n  mutation CreatePhotoUpload($input: CreatePhotoUploadInput!) {\n    createPhotoUpload(input: $input) {\n      uploadId\n      url\n      fields {\n        name\n        value\n      }\n      expires\n      maxBytes\n    }\n  }\n": types.CreatePhotoUploadDocument,
    "\n  mutation FinishPhotoUpload($input: UploadPhotoInput!) {\n    uploadPhoto(input: $input) {\n      id\n      username\n      timestamp\n      ...PhotoCard_photo\n    }\n  }\n": types.FinishPhotoUploadDocument,
    "\n  fragment ConnectionsPhotoLists on Photo {\n    id\n    owner {\n      id\n    }\n  }\n": types.ConnectionsPhotoListsFragmentDoc,
    "\n  fragment ConnectionsReactionLists on Reaction {\n    id\n    user {\n      id\n    }\n    photo {\n      id\n    }\n  }\n": types.ConnectionsReactionListsFragmentDoc,
    "\n  fragment ConnectionsFriendshipLists on Friendship {\n    id\n    follower {\n      id\n    }\n  }\n": types.ConnectionsFriendshipListsFragmentDoc,
    "\n  fragment SyncFollowEnds on Friendship {\n    id\n    followed {\n      id\n    }\n  }\n": types.SyncFollowEndsFragmentDoc,
    "\n  query SyncStart {\n    viewer {\n      id\n      changes {\n        cursor\n      }\n    }\n  }\n": types.SyncStartDocument,
    "\n  query SyncChanges($after: String!) {\n    viewer {\n      id\n      changes(after: $after, first: 100) {\n        edges {\n          node {\n            objectId\n            objectType\n            operation\n            node {\n              id\n              ... on User {\n                ...ProfileHeader_user\n                ...FollowButton_user\n                ...EditProfile_user\n              }\n              ... on Photo {\n                username\n                timestamp\n                owner {\n                  id\n                }\n                ...PhotoCard_photo\n                ...Thumbnail_photo\n              }\n              ... on Reaction {\n                type\n                user {\n                  id\n                  username\n                  name\n                }\n                photo {\n                  id\n                }\n              }\n              ... on Friendship {\n                follower {\n                  id\n                  username\n                }\n                followed {\n                  id\n                  username\n                }\n              }\n            }\n          }\n        }\n        pageInfo {\n          hasNextPage\n        }\n        cursor\n      }\n    }\n  }\n": types.SyncChangesDocument,
    "\n  subscription ChangesAvailable {\n    changesAvailable {\n      received\n    }\n  }\n": types.ChangesAvailableDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Feed($first: Int!, $after: String) {\n    feed(first: $first, after: $after) {\n      edges {\n        node {\n          id\n          ...PhotoCard_photo\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query Feed($first: Int!, $after: String) {\n    feed(first: $first, after: $after) {\n      edges {\n        node {\n          id\n          ...PhotoCard_photo\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription FeedPhotoAdded {\n    feedPhotoAdded {\n      id\n      ...PhotoCard_photo\n    }\n  }\n"): (typeof documents)["\n  subscription FeedPhotoAdded {\n    feedPhotoAdded {\n      id\n      ...PhotoCard_photo\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ViewerState {\n    viewer {\n      id\n      username\n      name\n      followingCount\n      following(first: 100) {\n        edges {\n          node {\n            id\n            follower {\n              id\n            }\n            followed {\n              id\n              username\n            }\n          }\n        }\n      }\n      reactions(first: 100) {\n        edges {\n          node {\n            id\n            type\n            user {\n              id\n            }\n            photo {\n              id\n            }\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ViewerState {\n    viewer {\n      id\n      username\n      name\n      followingCount\n      following(first: 100) {\n        edges {\n          node {\n            id\n            follower {\n              id\n            }\n            followed {\n              id\n              username\n            }\n          }\n        }\n      }\n      reactions(first: 100) {\n        edges {\n          node {\n            id\n            type\n            user {\n              id\n            }\n            photo {\n              id\n            }\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment PhotoCard_photo on Photo {\n    id\n    username\n    timestamp\n    url\n    image(size: DISPLAY) {\n      url\n      width\n      height\n    }\n    owner {\n      id\n      username\n      name\n    }\n    ...Reactions_photo\n  }\n"): (typeof documents)["\n  fragment PhotoCard_photo on Photo {\n    id\n    username\n    timestamp\n    url\n    image(size: DISPLAY) {\n      url\n      width\n      height\n    }\n    owner {\n      id\n      username\n      name\n    }\n    ...Reactions_photo\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Photo($owner: ID!, $timestamp: String!) {\n    photo(owner: $owner, timestamp: $timestamp) {\n      id\n      username\n      timestamp\n      owner {\n        id\n      }\n      ...PhotoCard_photo\n      reactions(first: 20) {\n        totalCount\n        edges {\n          node {\n            id\n            type\n            user {\n              id\n              username\n              name\n            }\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Photo($owner: ID!, $timestamp: String!) {\n    photo(owner: $owner, timestamp: $timestamp) {\n      id\n      username\n      timestamp\n      owner {\n        id\n      }\n      ...PhotoCard_photo\n      reactions(first: 20) {\n        totalCount\n        edges {\n          node {\n            id\n            type\n            user {\n              id\n              username\n              name\n            }\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription PhotoChanged($owner: ID!, $timestamp: String!) {\n    photoChanged(owner: $owner, timestamp: $timestamp) {\n      kind\n      photo {\n        id\n        reactionCounts {\n          heart\n          smiley\n          thumbsUp\n          sunglasses\n          total\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription PhotoChanged($owner: ID!, $timestamp: String!) {\n    photoChanged(owner: $owner, timestamp: $timestamp) {\n      kind\n      photo {\n        id\n        reactionCounts {\n          heart\n          smiley\n          thumbsUp\n          sunglasses\n          total\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment Reactions_photo on Photo {\n    id\n    username\n    timestamp\n    reactionCounts {\n      heart\n      smiley\n      thumbsUp\n      sunglasses\n      total\n    }\n  }\n"): (typeof documents)["\n  fragment Reactions_photo on Photo {\n    id\n    username\n    timestamp\n    reactionCounts {\n      heart\n      smiley\n      thumbsUp\n      sunglasses\n      total\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeletePhoto($owner: ID!, $timestamp: String!, $clientMutationId: String) {\n    deletePhoto(owner: $owner, timestamp: $timestamp, clientMutationId: $clientMutationId) {\n      id\n      owner {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation DeletePhoto($owner: ID!, $timestamp: String!, $clientMutationId: String) {\n    deletePhoto(owner: $owner, timestamp: $timestamp, clientMutationId: $clientMutationId) {\n      id\n      owner {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ReactionResult on Reaction {\n    id\n    type\n    user {\n      id\n      username\n      name\n    }\n    photo {\n      id\n      reactionCounts {\n        heart\n        smiley\n        thumbsUp\n        sunglasses\n        total\n      }\n    }\n  }\n"): (typeof documents)["\n  fragment ReactionResult on Reaction {\n    id\n    type\n    user {\n      id\n      username\n      name\n    }\n    photo {\n      id\n      reactionCounts {\n        heart\n        smiley\n        thumbsUp\n        sunglasses\n        total\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ReactToPhoto($input: ReactionInput!) {\n    reactToPhoto(input: $input) {\n      ...ReactionResult\n    }\n  }\n"): (typeof documents)["\n  mutation ReactToPhoto($input: ReactionInput!) {\n    reactToPhoto(input: $input) {\n      ...ReactionResult\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RemoveReaction($input: ReactionInput!) {\n    removeReaction(input: $input) {\n      ...ReactionResult\n    }\n  }\n"): (typeof documents)["\n  mutation RemoveReaction($input: ReactionInput!) {\n    removeReaction(input: $input) {\n      ...ReactionResult\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment FollowButton_user on User {\n    id\n    username\n    followerCount\n  }\n"): (typeof documents)["\n  fragment FollowButton_user on User {\n    id\n    username\n    followerCount\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Profile($username: ID!) {\n    user(username: $username) {\n      id\n      ...ProfileHeader_user\n      ...FollowButton_user\n      photos(first: 30) {\n        edges {\n          node {\n            id\n            ...Thumbnail_photo\n          }\n        }\n        pageInfo {\n          hasNextPage\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Profile($username: ID!) {\n    user(username: $username) {\n      id\n      ...ProfileHeader_user\n      ...FollowButton_user\n      photos(first: 30) {\n        edges {\n          node {\n            id\n            ...Thumbnail_photo\n          }\n        }\n        pageInfo {\n          hasNextPage\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ProfileHeader_user on User {\n    id\n    username\n    name\n    status\n    followerCount\n    followingCount\n  }\n"): (typeof documents)["\n  fragment ProfileHeader_user on User {\n    id\n    username\n    name\n    status\n    followerCount\n    followingCount\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment Thumbnail_photo on Photo {\n    id\n    username\n    timestamp\n    url\n    thumbnail: image(size: THUMBNAIL) {\n      url\n      width\n      height\n    }\n  }\n"): (typeof documents)["\n  fragment Thumbnail_photo on Photo {\n    id\n    username\n    timestamp\n    url\n    thumbnail: image(size: THUMBNAIL) {\n      url\n      width\n      height\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment FriendshipResult on Friendship {\n    id\n    follower {\n      id\n      followingCount\n    }\n    followed {\n      id\n      username\n      followerCount\n    }\n  }\n"): (typeof documents)["\n  fragment FriendshipResult on Friendship {\n    id\n    follower {\n      id\n      followingCount\n    }\n    followed {\n      id\n      username\n      followerCount\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation FollowUser($input: FriendshipInput!) {\n    followUser(input: $input) {\n      ...FriendshipResult\n    }\n  }\n"): (typeof documents)["\n  mutation FollowUser($input: FriendshipInput!) {\n    followUser(input: $input) {\n      ...FriendshipResult\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UnfollowUser($input: FriendshipInput!) {\n    unfollowUser(input: $input) {\n      ...FriendshipResult\n    }\n  }\n"): (typeof documents)["\n  mutation UnfollowUser($input: FriendshipInput!) {\n    unfollowUser(input: $input) {\n      ...FriendshipResult\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment EditProfile_user on User {\n    id\n    username\n    name\n    status\n    version\n  }\n"): (typeof documents)["\n  fragment EditProfile_user on User {\n    id\n    username\n    name\n    status\n    version\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query EditProfile {\n    viewer {\n      id\n      ...EditProfile_user\n    }\n  }\n"): (typeof documents)["\n  query EditProfile {\n    viewer {\n      id\n      ...EditProfile_user\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateProfile($username: ID!, $input: UpdateUserInput!) {\n    updateUser(username: $username, input: $input) {\n      id\n      ...EditProfile_user\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateProfile($username: ID!, $input: UpdateUserInput!) {\n    updateUser(username: $username, input: $input) {\n      id\n      ...EditProfile_user\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateProfile($input: CreateUserInput!) {\n    createUser(input: $input) {\n      id\n      username\n      name\n    }\n  }\n"): (typeof documents)["\n  mutation CreateProfile($input: CreateUserInput!) {\n    createUser(input: $input) {\n      id\n      username\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreatePhotoUpload($input: CreatePhotoUploadInput!) {\n    createPhotoUpload(input: $input) {\n      uploadId\n      url\n      fields {\n        name\n        value\n      }\n      expires\n      maxBytes\n    }\n  }\n"): (typeof documents)["\n  mutation CreatePhotoUpload($input: CreatePhotoUploadInput!) {\n    createPhotoUpload(input: $input) {\n      uploadId\n      url\n      fields {\n        name\n        value\n      }\n      expires\n      maxBytes\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation FinishPhotoUpload($input: UploadPhotoInput!) {\n    uploadPhoto(input: $input) {\n      id\n      username\n      timestamp\n      ...PhotoCard_photo\n    }\n  }\n"): (typeof documents)["\n  mutation FinishPhotoUpload($input: UploadPhotoInput!) {\n    uploadPhoto(input: $input) {\n      id\n      username\n      timestamp\n      ...PhotoCard_photo\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ConnectionsPhotoLists on Photo {\n    id\n    owner {\n      id\n    }\n  }\n"): (typeof documents)["\n  fragment ConnectionsPhotoLists on Photo {\n    id\n    owner {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ConnectionsReactionLists on Reaction {\n    id\n    user {\n      id\n    }\n    photo {\n      id\n    }\n  }\n"): (typeof documents)["\n  fragment ConnectionsReactionLists on Reaction {\n    id\n    user {\n      id\n    }\n    photo {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ConnectionsFriendshipLists on Friendship {\n    id\n    follower {\n      id\n    }\n  }\n"): (typeof documents)["\n  fragment ConnectionsFriendshipLists on Friendship {\n    id\n    follower {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SyncFollowEnds on Friendship {\n    id\n    followed {\n      id\n    }\n  }\n"): (typeof documents)["\n  fragment SyncFollowEnds on Friendship {\n    id\n    followed {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SyncStart {\n    viewer {\n      id\n      changes {\n        cursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query SyncStart {\n    viewer {\n      id\n      changes {\n        cursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SyncChanges($after: String!) {\n    viewer {\n      id\n      changes(after: $after, first: 100) {\n        edges {\n          node {\n            objectId\n            objectType\n            operation\n            node {\n              id\n              ... on User {\n                ...ProfileHeader_user\n                ...FollowButton_user\n                ...EditProfile_user\n              }\n              ... on Photo {\n                username\n                timestamp\n                owner {\n                  id\n                }\n                ...PhotoCard_photo\n                ...Thumbnail_photo\n              }\n              ... on Reaction {\n                type\n                user {\n                  id\n                  username\n                  name\n                }\n                photo {\n                  id\n                }\n              }\n              ... on Friendship {\n                follower {\n                  id\n                  username\n                }\n                followed {\n                  id\n                  username\n                }\n              }\n            }\n          }\n        }\n        pageInfo {\n          hasNextPage\n        }\n        cursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query SyncChanges($after: String!) {\n    viewer {\n      id\n      changes(after: $after, first: 100) {\n        edges {\n          node {\n            objectId\n            objectType\n            operation\n            node {\n              id\n              ... on User {\n                ...ProfileHeader_user\n                ...FollowButton_user\n                ...EditProfile_user\n              }\n              ... on Photo {\n                username\n                timestamp\n                owner {\n                  id\n                }\n                ...PhotoCard_photo\n                ...Thumbnail_photo\n              }\n              ... on Reaction {\n                type\n                user {\n                  id\n                  username\n                  name\n                }\n                photo {\n                  id\n                }\n              }\n              ... on Friendship {\n                follower {\n                  id\n                  username\n                }\n                followed {\n                  id\n                  username\n                }\n              }\n            }\n          }\n        }\n        pageInfo {\n          hasNextPage\n        }\n        cursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ChangesAvailable {\n    changesAvailable {\n      received\n    }\n  }\n"): (typeof documents)["\n  subscription ChangesAvailable {\n    changesAvailable {\n      received\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;