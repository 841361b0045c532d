// A user's photos, paginated by Relay: @connection keeps the pages in one list in the store,
// and @refetchable on User generates the pagination query, which reads the user through
// Query.node and its next page with `first` and `after`.
import { graphql } from "react-relay";

export const userPhotosFragment = graphql`
  fragment UserPhotos_user on User
  @refetchable(queryName: "UserPhotosPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 10 }, cursor: { type: "String" }) {
    id
    username
    photos(first: $count, after: $cursor) @connection(key: "UserPhotos_photos") {
      edges {
        node {
          id
          ...Photo_photo
        }
      }
    }
  }
`;

export const profileQuery = graphql`
  query UserPhotosProfileQuery($username: ID!) {
    user(username: $username) {
      ...UserPhotos_user
    }
  }
`;

export const nodesQuery = graphql`
  query UserPhotosNodesQuery($ids: [ID!]!) {
    nodes(ids: $ids) {
      __typename
      id
      ...Photo_photo @alias(as: "photo")
    }
  }
`;
