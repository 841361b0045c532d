import { type FragmentType, getFragmentData, graphql } from "../../gql";
import { href } from "../../lib/router";
import { Reactions } from "./Reactions";

export const PhotoCard_photo = graphql(`
  fragment PhotoCard_photo on Photo {
    id
    username
    timestamp
    url
    image(size: DISPLAY) {
      url
      width
      height
    }
    owner {
      id
      username
      name
    }
    ...Reactions_photo
  }
`);

/** when shows a timestamp of the API (UTC, no zone) in the person's own time zone. */
export function when(timestamp: string): string {
  const d = new Date(`${timestamp}Z`);
  return Number.isNaN(d.getTime()) ? timestamp : d.toLocaleString();
}

export function PhotoCard(props: { photo: FragmentType<typeof PhotoCard_photo> }) {
  const photo = getFragmentData(PhotoCard_photo, props.photo);
  const who = photo.owner.name ?? photo.owner.username;
  return (
    <article className="photo-card" aria-label={`Photo by ${who}`} data-photo-id={photo.id}>
      <header>
        <a href={href({ screen: "profile", username: photo.username })}>{who}</a>{" "}
        <a href={href({ screen: "photo", owner: photo.username, timestamp: photo.timestamp })}>
          <time dateTime={`${photo.timestamp}Z`}>{when(photo.timestamp)}</time>
        </a>
      </header>
      <img
        src={photo.image?.url ?? photo.url}
        width={photo.image?.width}
        height={photo.image?.height}
        alt={`Photo by ${who}, ${when(photo.timestamp)}`}
        loading="lazy"
      />
      <Reactions photo={photo} />
    </article>
  );
}
