// Who is signed in: a username and the bearer token the server verifies, kept in the
// browser's storage. Against a development server (`serve` with no identity provider, on
// loopback) the server itself signs a person in as any username (POST /auth/dev-sign-in);
// otherwise the person pastes a token from the configured identity provider.

import type { KeyValueStorage } from "../offline/queue";

export interface Session {
  username: string;
  token: string;
}

const key = "quickphotos.session";

export function loadSession(storage: KeyValueStorage): Session | undefined {
  const raw = storage.getItem(key);
  if (raw === null) return undefined;
  try {
    const s = JSON.parse(raw) as Partial<Session>;
    if (typeof s.username === "string" && typeof s.token === "string") return { username: s.username, token: s.token };
  } catch {
    // fall through: a session that does not parse is no session
  }
  storage.removeItem(key);
  return undefined;
}

export function saveSession(storage: KeyValueStorage, s: Session | undefined): void {
  if (s === undefined) storage.removeItem(key);
  else storage.setItem(key, JSON.stringify(s));
}

/** What GET /auth/dev-sign-in answers: whether this server signs people in by username. */
export interface DevSignInStatus {
  available: boolean;
  reason?: string;
}

export async function devSignInStatus(base: string): Promise<DevSignInStatus> {
  const res = await fetch(`${base}/auth/dev-sign-in`);
  return (await res.json()) as DevSignInStatus;
}

/** devSignIn asks the development server for a token for username. */
export async function devSignIn(base: string, username: string): Promise<Session> {
  const res = await fetch(`${base}/auth/dev-sign-in`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username }),
  });
  const body = (await res.json()) as { token?: string; username?: string; errors?: { message: string }[] };
  if (!res.ok || typeof body.token !== "string") {
    throw new Error(body.errors?.[0]?.message ?? `sign-in refused (HTTP ${res.status})`);
  }
  return { username: body.username ?? username, token: body.token };
}

/** usernameOfToken reads the username claim of a JWT without verifying it (the server does). */
export function claimOfToken(token: string, claim: string): string | undefined {
  const payload = token.split(".")[1];
  if (payload === undefined) return undefined;
  try {
    const json = atob(payload.replace(/-/g, "+").replace(/_/g, "/"));
    const value = (JSON.parse(json) as Record<string, unknown>)[claim];
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}
