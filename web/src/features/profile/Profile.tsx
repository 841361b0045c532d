import { useQuery } from "@apollo/client/react";
import { type FragmentType, getFragmentData, graphql } from "../../gql";
import { messageFor } from "../../lib/errors";
import { href } from "../../lib/router";
import { useReadPolicy } from "../../lib/services";
import { FollowButton } from "./FollowButton";

const ProfileQuery = graphql(`
  query Profile($username: ID!) {
    user(username: $username) {
      id
      ...ProfileHeader_user
      ...FollowButton_user
      photos(first: 30) {
        edges {
          node {
            id
            ...Thumbnail_photo
          }
        }
        pageInfo {
          hasNextPage
        }
      }
    }
  }
`);

export const ProfileHeader_user = graphql(`
  fragment ProfileHeader_user on User {
    id
    username
    name
    status
    followerCount
    followingCount
  }
`);

// The size is aliased: the sync step's document spreads this fragment beside PhotoCard_photo,
// and one field name asked for with two arguments would conflict.
export const Thumbnail_photo = graphql(`
  fragment Thumbnail_photo on Photo {
    id
    username
    timestamp
    url
    thumbnail: image(size: THUMBNAIL) {
      url
      width
      height
    }
  }
`);

function ProfileHeader(props: { user: FragmentType<typeof ProfileHeader_user>; photos: number }) {
  const u = getFragmentData(ProfileHeader_user, props.user);
  return (
    <header className="profile-header">
      <h1>{u.name ?? u.username}</h1>
      <p className="handle">@{u.username}</p>
      {u.status && <p className="status">{u.status}</p>}
      <dl className="counts">
        <div>
          <dt>Followers</dt>
          <dd data-count="followers">{u.followerCount}</dd>
        </div>
        <div>
          <dt>Following</dt>
          <dd data-count="following">{u.followingCount}</dd>
        </div>
        <div>
          <dt>Photos shown</dt>
          <dd>{props.photos}</dd>
        </div>
      </dl>
    </header>
  );
}

function Thumbnail(props: { photo: FragmentType<typeof Thumbnail_photo> }) {
  const p = getFragmentData(Thumbnail_photo, props.photo);
  return (
    <a href={href({ screen: "photo", owner: p.username, timestamp: p.timestamp })}>
      <img src={p.thumbnail?.url ?? p.url} width={p.thumbnail?.width ?? 160} height={p.thumbnail?.height ?? 160} alt={`Photo of ${p.timestamp}`} loading="lazy" />
    </a>
  );
}

export function Profile(props: { username: string }) {
  const { data, error } = useQuery(ProfileQuery, { variables: { username: props.username }, fetchPolicy: useReadPolicy() });
  if (!data) return error ? <p role="alert">{messageFor(error)}</p> : <p role="status">Loading…</p>;
  const user = data.user;
  if (!user) return <h1>No one is called {props.username}</h1>;
  return (
    <section className="profile">
      <ProfileHeader user={user} photos={user.photos.edges.length} />
      <FollowButton user={user} />
      <h2>Photos</h2>
      <ul className="grid" aria-label="Photos">
        {user.photos.edges.map((e) => (
          <li key={e.node.id}>
            <Thumbnail photo={e.node} />
          </li>
        ))}
      </ul>
    </section>
  );
}
