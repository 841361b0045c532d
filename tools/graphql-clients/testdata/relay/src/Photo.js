// A photo card that Relay can refetch by itself: @refetchable generates PhotoRefetchQuery,
// which reads the photo again through Query.node by its id.
import { graphql } from "react-relay";

export const photoFragment = graphql`
  fragment Photo_photo on Photo @refetchable(queryName: "PhotoRefetchQuery") {
    id
    url
    timestamp
    reactionCounts {
      heart
      total
    }
    owner {
      id
      name
    }
  }
`;
