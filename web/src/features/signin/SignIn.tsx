import { useEffect, useState } from "react";
import { apiBase } from "../../lib/network";
import { devSignInStatus, type DevSignInStatus, type Session } from "../../lib/session";
import { type Credential, signIn } from "./signIn";

/** A user of the sample dataset (`serve --sample`) to suggest: the most followed, as the README says. */
const sampleUsername = "miawright";

/**
 * SignIn: against a development server (no identity provider, on loopback), as any username,
 * with a token the server mints; otherwise with a bearer token from the identity provider.
 */
export function SignIn(props: { onSignedIn: (s: Session) => void }) {
  return (
    <main className="signin">
      <h1>Sign in to Quick Photos</h1>
      <SignInForms onSignedIn={props.onSignedIn} />
    </main>
  );
}

/**
 * SignInForms asks the server how it signs people in and shows that form. With `again`, the
 * person is signed in already as that user, whose token the server refused: only that user may
 * sign in (the queue and the cache kept on this device are theirs), by name against a
 * development server, by a token naming them otherwise.
 */
export function SignInForms(props: { again?: string; onSignedIn: (s: Session) => void }) {
  const { again } = props;
  const [status, setStatus] = useState<DevSignInStatus>();
  const [error, setError] = useState<string>();
  const [username, setUsername] = useState("");
  const [token, setToken] = useState("");
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    devSignInStatus(apiBase()).then(setStatus, () => setStatus({ available: false, reason: "the server could not be reached" }));
  }, []);

  const submit = (how: Credential) => {
    setError(undefined);
    setBusy(true);
    signIn(apiBase(), how, again).then(
      (s) => {
        setBusy(false);
        props.onSignedIn(s);
      },
      (err: unknown) => {
        setBusy(false);
        setError(err instanceof Error ? err.message : String(err));
      },
    );
  };

  return (
    <>
      {status === undefined && <p role="status">Asking the server how to sign in…</p>}
      {status?.available && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            submit({ username: again ?? username.trim() });
          }}
        >
          {again === undefined ? (
            <>
              <p>This is a development server: sign in as anyone.</p>
              {/* The sign-in endpoint does not say whether the server loaded the sample, so the hint says when it applies. */}
              <p id="signin-sample">
                On a server started with <code>--sample</code>, try <code>{sampleUsername}</code>, who follows a few people; a new name makes a new profile.
              </p>
              <label>
                Username
                <input name="username" value={username} onChange={(e) => setUsername(e.target.value)} required autoComplete="username" aria-describedby="signin-sample" />
              </label>
              <button type="submit" disabled={busy}>
                Sign in
              </button>
            </>
          ) : (
            <button type="submit" disabled={busy}>
              Sign in again as {again}
            </button>
          )}
        </form>
      )}
      {status && !status.available && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            submit({ token: token.trim() });
          }}
        >
          <p>Paste a bearer token from this server's identity provider{again === undefined ? "" : ` for ${again}`}.</p>
          <label>
            Token
            <textarea name="token" value={token} onChange={(e) => setToken(e.target.value)} required rows={4} />
          </label>
          <button type="submit" disabled={busy}>
            Sign in
          </button>
        </form>
      )}
      {error && <p role="alert">{error}</p>}
    </>
  );
}
