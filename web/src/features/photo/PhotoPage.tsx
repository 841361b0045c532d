import { useQuery, useSubscription } from "@apollo/client/react";
import { graphql } from "../../gql";
import { messageFor } from "../../lib/errors";
import { href } from "../../lib/router";
import { useOnline, useReadPolicy, useServices } from "../../lib/services";
import { newMutationId } from "../../offline/queue";
import { PhotoCard } from "./PhotoCard";
import { reactionEmoji } from "./reactions";

export const PhotoQuery = graphql(`
  query Photo($owner: ID!, $timestamp: String!) {
    photo(owner: $owner, timestamp: $timestamp) {
      id
      username
      timestamp
      owner {
        id
      }
      ...PhotoCard_photo
      reactions(first: 20) {
        totalCount
        edges {
          node {
            id
            type
            user {
              id
              username
              name
            }
          }
        }
      }
    }
  }
`);

// The photo's counters, live: the answer normalises by the photo's id into every screen.
const PhotoChangedSubscription = graphql(`
  subscription PhotoChanged($owner: ID!, $timestamp: String!) {
    photoChanged(owner: $owner, timestamp: $timestamp) {
      kind
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

export function PhotoPage(props: { owner: string; timestamp: string }) {
  const { session, outbox } = useServices();
  const online = useOnline();
  const variables = { owner: props.owner, timestamp: props.timestamp };
  const { data, dataState, error } = useQuery(PhotoQuery, { variables, fetchPolicy: useReadPolicy() });
  useSubscription(PhotoChangedSubscription, { variables, skip: !online });
  // Only a whole answer is shown. While a request of the query is in flight (the sync step
  // refetches the screens' queries), Apollo Client also delivers what the cache holds in part:
  // the photo this page deletes is, until the page is left, an object without its fields.
  if (!data || dataState !== "complete") return error ? <p role="alert">{messageFor(error)}</p> : <p role="status">Loading…</p>;
  const photo = data.photo;
  if (!photo) return <h1>This photo does not exist (any more)</h1>;

  const remove = () => {
    const id = newMutationId();
    outbox
      .send({
        id,
        operationName: "DeletePhoto",
        variables: { owner: photo.username, timestamp: photo.timestamp, clientMutationId: id },
        // Gone from every list at once, offline too; back if the server refuses.
        optimisticResponse: { __typename: "Mutation", deletePhoto: { __typename: "Photo", id: photo.id, owner: { __typename: "User", id: photo.owner.id } } },
        label: `delete your photo of ${photo.timestamp}`,
        messages: { NOT_FOUND: "This photo was already deleted." },
      })
      .catch(() => {
        // Shown by the layout.
      });
    window.location.hash = href({ screen: "profile", username: session.username });
  };

  return (
    <section className="photo-page">
      <h1>Photo</h1>
      <PhotoCard photo={photo} />
      {photo.username === session.username && (
        <button type="button" className="danger" onClick={remove}>
          Delete this photo
        </button>
      )}
      <h2>Reactions ({photo.reactions.totalCount ?? photo.reactions.edges.length})</h2>
      <ul className="reaction-list">
        {photo.reactions.edges.map((e) => (
          <li key={e.node.id}>
            <a href={href({ screen: "profile", username: e.node.user.username })}>{e.node.user.name ?? e.node.user.username}</a>{" "}
            <span aria-label={reactionEmoji[e.node.type].name}>{reactionEmoji[e.node.type].emoji}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
