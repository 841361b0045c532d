import { useQuery } from "@apollo/client/react";
import { graphql } from "../../gql";
import { useReadPolicy } from "../../lib/services";

// What the screens need to know about the signed-in person: whom they follow and how they
// reacted, to show the follow buttons and their own reactions. The schema has no
// "does the viewer follow this user" field, so the first 100 of each list stand in for it. A
// follow's follower and a reaction's user are read so that one the sync finds deleted names
// its lists itself (offline/connections.ts, listsHolding).
export const ViewerStateQuery = graphql(`
  query ViewerState {
    viewer {
      id
      username
      name
      followingCount
      following(first: 100) {
        edges {
          node {
            id
            follower {
              id
            }
            followed {
              id
              username
            }
          }
        }
      }
      reactions(first: 100) {
        edges {
          node {
            id
            type
            user {
              id
            }
            photo {
              id
            }
          }
        }
      }
    }
  }
`);

// Many components read it: from the cache once it is there (mutations keep it current, and the
// sync step puts the viewer's reactions and follows made elsewhere into its lists).
export function useViewer() {
  const online = useReadPolicy() !== "cache-only";
  return useQuery(ViewerStateQuery, { fetchPolicy: online ? "cache-first" : "cache-only" });
}
