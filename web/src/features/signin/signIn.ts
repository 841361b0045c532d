import { devSignIn, type Session, signInWithToken } from "../../lib/session";

/** How a person signs in: by name on a development server, by a token from the identity provider otherwise. */
export type Credential = { username: string } | { token: string };

/**
 * signIn is the session a credential signs in, its username the server's word: the development
 * sign-in's answer, or, for a token, whom the server takes its caller for (GET /auth/caller).
 * With `again`, the person is signed in already as that user, whose token the server refused:
 * a credential for anyone else is refused (the queue and the cache kept on this device are
 * theirs; changing users is signing out).
 */
export async function signIn(base: string, how: Credential, again?: string): Promise<Session> {
  const s = "token" in how ? await signInWithToken(base, how.token) : await devSignIn(base, how.username);
  if (again !== undefined && s.username !== again) throw new Error(`That signs in ${s.username}, not ${again}. To change users, sign out.`);
  return s;
}
