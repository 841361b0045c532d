// Who is signed in: a username and the bearer token the server verifies, kept in the
// browser's storage. Against a development server (`serve` with no identity provider, on
// loopback) the server itself signs a person in as any username (POST /auth/dev-sign-in);
// otherwise the person pastes a token from the configured identity provider, and the server
// says whom it names (GET /auth/caller). The username is always the server's word.

import type { KeyValueStorage } from "../offline/queue";
import { OfflineError } from "./network";

export interface Session {
  username: string;
  token: string;
}

/**
 * Credentials: a session's token, which the links read at each request, and whether the server
 * refused it (UNAUTHENTICATED: it expired, or a development server restarted with a new key).
 * While it is refused the queued changes wait (offline/holdLink.ts) and the app asks the person
 * to sign in again as the same user; renew takes the new token and lets them go, the queue and
 * the cache as they were.
 */
export class Credentials {
  private current: string;
  private isRefused = false;
  private readonly listeners = new Set<() => void>();

  constructor(token: string) {
    this.current = token;
  }

  get token(): string {
    return this.current;
  }

  get refused(): boolean {
    return this.isRefused;
  }

  /** refuse marks token refused; a token renewed since (a request that went out before) is not. */
  refuse(token: string): void {
    if (token !== this.current || this.isRefused) return;
    this.isRefused = true;
    this.emit();
  }

  renew(token: string): void {
    this.current = token;
    this.isRefused = false;
    this.emit();
  }

  /** whenAccepted resolves once the token is not refused. */
  whenAccepted(): Promise<void> {
    if (!this.isRefused) return Promise.resolve();
    return new Promise((resolve) => {
      const stop = this.subscribe(() => {
        if (!this.isRefused) {
          stop();
          resolve();
        }
      });
    });
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    for (const l of [...this.listeners]) l();
  }
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

/**
 * signInWithToken is the session a pasted token signs in: the user the server takes its caller
 * for (GET /auth/caller), read from the claim the server is configured to read
 * (`--username-claim`). The app never reads the token's claims itself: it cannot verify them,
 * and could not know which one names the user (`sub`, Keycloak's `preferred_username`,
 * Cognito's `cognito:username` or `username`). A token the server refuses is refused here, in
 * the server's words.
 */
export async function signInWithToken(base: string, token: string): Promise<Session> {
  let res: Response;
  try {
    res = await fetch(`${base}/auth/caller`, { headers: { Authorization: `Bearer ${token}` } });
  } catch (err) {
    throw new OfflineError(err);
  }
  let body: { username?: unknown; errors?: { message?: string }[] } = {};
  try {
    body = (await res.json()) as typeof body;
  } catch {
    // not JSON (a proxy's page): said by the status below
  }
  if (res.ok && typeof body.username === "string" && body.username !== "") return { username: body.username, token };
  const reason = body.errors?.[0]?.message ?? `HTTP ${res.status}`;
  throw new Error(res.status === 401 ? `The server refused this token: ${reason}` : `The server could not say whom this token signs in: ${reason}`);
}
