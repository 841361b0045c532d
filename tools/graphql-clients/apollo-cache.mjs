// Apollo Client's normalised cache against a real quickphotos server, with no type policies:
// the cache keys every object by __typename and id alone. Reads one photo through three
// paths (a user's photo list, photo(owner, timestamp), node(id)), reacts to it with a
// mutation that selects only the photo's id and counters, then reads the list again from the
// cache alone. Prints what the test checks (api/graphqlclients_test.go) as one JSON object.
//
// Usage: node apollo-cache.mjs GRAPHQL_URL OWNER TIMESTAMP REACTING_USER
import { ApolloClient, HttpLink, InMemoryCache, gql } from "@apollo/client";

const [url, owner, timestamp, reactor] = process.argv.slice(2);
if (!reactor) {
  console.error("usage: node apollo-cache.mjs GRAPHQL_URL OWNER TIMESTAMP REACTING_USER");
  process.exit(2);
}

let requests = 0;
const client = new ApolloClient({
  link: new HttpLink({
    uri: url,
    fetch: (input, init) => {
      requests++;
      return fetch(input, init);
    },
  }),
  // No typePolicies, no dataIdFromObject: the default keys objects by `${__typename}:${id}`.
  cache: new InMemoryCache(),
});

const userPhotos = gql`
  query UserPhotos($owner: ID!) {
    user(username: $owner) { id username photos(first: 5) { edges { node { id url reactionCounts { heart total } } } } }
  }
`;
const onePhoto = gql`
  query OnePhoto($owner: ID!, $timestamp: String!) {
    photo(owner: $owner, timestamp: $timestamp) { id url timestamp reactionCounts { heart total } owner { id username } }
  }
`;
const byID = gql`
  query ByID($id: ID!) {
    node(id: $id) { id ... on Photo { url reactionCounts { heart total } } }
  }
`;
const react = gql`
  mutation React($input: ReactionInput!) {
    reactToPhoto(input: $input) { id type photo { id reactionCounts { heart total } } }
  }
`;

const list = await client.query({ query: userPhotos, variables: { owner } });
const photo = await client.query({ query: onePhoto, variables: { owner, timestamp } });
const id = photo.data.photo.id;
const node = await client.query({ query: byID, variables: { id } });
const afterQueries = client.cache.extract();

const reacted = await client.mutate({
  mutation: react,
  variables: { input: { username: reactor, owner, timestamp, type: "HEART" } },
});
// Read from the cache alone: no request may be sent.
const listAfter = await client.query({ query: userPhotos, variables: { owner }, fetchPolicy: "cache-only" });
const nodeAfter = await client.query({ query: byID, variables: { id }, fetchPolicy: "cache-only" });

console.log(JSON.stringify({
  photoID: id,
  listPhotoIDs: list.data.user.photos.edges.map((e) => e.node.id),
  nodeID: node.data.node.id,
  cacheKeys: Object.keys(afterQueries).sort(),
  rootQuery: afterQueries.ROOT_QUERY,
  photoEntry: afterQueries[`Photo:${id}`] ?? null,
  reactionID: reacted.data.reactToPhoto.id,
  listHeartsAfter: listAfter.data.user.photos.edges.map((e) => e.node.reactionCounts.heart),
  nodeHeartsAfter: nodeAfter.data.node.reactionCounts.heart,
  cacheKeysAfter: Object.keys(client.cache.extract()).sort(),
  requests,
}));
