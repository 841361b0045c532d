import { graphql } from "../../gql";
import type { MutationKind } from "../../offline/outbox";

export const UpdateProfileMutationDoc = graphql(`
  mutation UpdateProfile($username: ID!, $input: UpdateUserInput!) {
    updateUser(username: $username, input: $input) {
      id
      ...EditProfile_user
    }
  }
`);

export const updateProfileKind: MutationKind = { document: UpdateProfileMutationDoc };

/** The fields the edit screen changes. */
export interface ProfileFields {
  name: string;
  status: string;
}

/** current reads the profile a stale version's CONFLICT carries in extensions.current. */
export function currentOf(extensions: Record<string, unknown>): (ProfileFields & { version: number }) | undefined {
  const c = extensions.current as Record<string, unknown> | undefined;
  if (c === undefined || typeof c.version !== "number") return undefined;
  return { name: typeof c.name === "string" ? c.name : "", status: typeof c.status === "string" ? c.status : "", version: c.version };
}

/** changes is the input of updateUser: the fields that differ, an emptied one removed (null). */
export function changes(before: ProfileFields, after: ProfileFields): Partial<Record<keyof ProfileFields, string | null>> {
  const out: Partial<Record<keyof ProfileFields, string | null>> = {};
  for (const k of ["name", "status"] as const) {
    if (before[k] !== after[k]) out[k] = after[k] === "" ? null : after[k];
  }
  return out;
}
