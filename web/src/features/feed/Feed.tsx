import { useQuery, useSubscription } from "@apollo/client/react";
import { useEffect, useRef } from "react";
import { graphql } from "../../gql";
import { messageFor } from "../../lib/errors";
import { useOnline, useReadPolicy } from "../../lib/services";
import { PhotoCard } from "../photo/PhotoCard";

const pageSize = 10;

export const FeedQuery = graphql(`
  query Feed($first: Int!, $after: String) {
    feed(first: $first, after: $after) {
      edges {
        node {
          id
          ...PhotoCard_photo
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

const FeedPhotoAddedSubscription = graphql(`
  subscription FeedPhotoAdded {
    feedPhotoAdded {
      id
      ...PhotoCard_photo
    }
  }
`);

/**
 * Feed is the caller's feed: pages of the Relay connection loaded as the end of the list
 * scrolls into view (fetchMore, its page appended by updateQuery: no cache policy needed),
 * and photos added live by the feedPhotoAdded subscription, put at the top.
 */
export function Feed() {
  const online = useOnline();
  const { data, error, fetchMore, client } = useQuery(FeedQuery, {
    variables: { first: pageSize },
    fetchPolicy: useReadPolicy(),
  });
  useSubscription(FeedPhotoAddedSubscription, {
    skip: !online,
    onData: ({ data: event }) => {
      const added = event.data?.feedPhotoAdded;
      if (!added) return;
      client.cache.updateQuery({ query: FeedQuery, variables: { first: pageSize } }, (feed) => {
        if (!feed || feed.feed.edges.some((e) => e.node.id === added.id)) return feed;
        return { ...feed, feed: { ...feed.feed, edges: [{ __typename: "PhotoEdge" as const, node: added }, ...feed.feed.edges] } };
      });
    },
  });

  const end = useRef<HTMLDivElement>(null);
  const pageInfo = data?.feed.pageInfo;
  useEffect(() => {
    const el = end.current;
    if (!el || !pageInfo?.hasNextPage || !online) return;
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      void fetchMore({
        variables: { first: pageSize, after: pageInfo.endCursor },
        updateQuery: (prev, { fetchMoreResult }) => ({
          ...fetchMoreResult,
          feed: {
            ...fetchMoreResult.feed,
            edges: [...prev.feed.edges, ...fetchMoreResult.feed.edges.filter((e) => !prev.feed.edges.some((p) => p.node.id === e.node.id))],
          },
        }),
      });
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [pageInfo?.hasNextPage, pageInfo?.endCursor, online, fetchMore]);

  if (!data) {
    if (error) return <p role="alert">{messageFor(error)}</p>;
    return <p role="status">{online ? "Loading your feed…" : "You are offline and nothing was saved yet."}</p>;
  }
  const edges = data.feed.edges;
  return (
    <section aria-labelledby="feed-title">
      <h1 id="feed-title">Your feed</h1>
      {/* A page may hold no photo and still have more after it: the feed leaves out photos
          deleted since their entries were written (the schema's User.feed). */}
      {edges.length === 0 && !pageInfo?.hasNextPage && <p>No photos yet: follow someone, and their photos show up here.</p>}
      <ol className="feed" aria-label="Photos">
        {edges.map((e) => (
          <li key={e.node.id}>
            <PhotoCard photo={e.node} />
          </li>
        ))}
      </ol>
      <div ref={end} className="feed-end">
        {pageInfo?.hasNextPage ? <span role="status">Loading more…</span> : edges.length > 0 && <span>That is everything.</span>}
      </div>
    </section>
  );
}
